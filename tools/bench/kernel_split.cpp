#include "kernel_split.hpp"

#include <memory>

#include "core/context_impl.hpp"

namespace vkindex::bench {

StatusOr<std::vector<kernels::KernelTime>> splitByKernel(
    Context& context, const std::function<Status(kernels::StepTimestamps& stamps)>& run) {
  Context::Impl& impl = implOf(context);
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<kernels::StepTimestamps> stamps,
                           kernels::StepTimestamps::create(*impl.device));
  impl.step_timestamps = stamps.get();
  Status ran = run(*stamps);
  impl.step_timestamps = nullptr;  // before `stamps` goes: the Context must not keep a dangling hook
  VKINDEX_RETURN_IF_ERROR(ran);
  return stamps->read();
}

int dispatchCount(const std::vector<kernels::KernelTime>& kernels) {
  int count = 0;
  for (const kernels::KernelTime& kernel : kernels) count += kernel.dispatches;
  return count;
}

}  // namespace vkindex::bench
