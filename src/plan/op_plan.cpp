#include "plan/op_plan.hpp"

namespace vkindex::plan {

Kernel rowGatherKernel(uint32_t unit_bytes) {
  switch (unit_bytes) {
    case 16: return Kernel::kGatherRows;
    case 8: return Kernel::kGatherRows8;
    case 4: return Kernel::kGatherRows4;
    default: return Kernel::kGatherRowBytes;
  }
}

bool isRowGatherKernel(Kernel kernel) {
  return kernel == Kernel::kGatherRows || kernel == Kernel::kGatherRows8 || kernel == Kernel::kGatherRows4 ||
         kernel == Kernel::kGatherRowBytes;
}

const Window* windowOf(const Step& step, Role role) {
  for (const Binding& binding : step.bindings) {
    if (binding.role == role) return &binding.window;
  }
  return nullptr;
}

}  // namespace vkindex::plan
