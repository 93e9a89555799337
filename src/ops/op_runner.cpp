#include "ops/op_runner.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "common/abi.h"
#include "core/tensor_access.hpp"
#include "core/transfer.hpp"
#include "plan/shape.hpp"
#include "vk/barriers.hpp"

namespace vkindex {
namespace {

using kernels::BufferRange;
using plan::Role;

constexpr VkAccessFlags kReadWrite = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

// Whole-tensor range (rounded up to a word) for barriers.
BufferRange tensorRange(const Tensor& tensor) {
  return {tensor.buffer(), tensor.offset(), plan::alignUp(tensor.byteSize(), 4)};
}

const Tensor* tensorFor(const OpTensors& tensors, Role role) {
  switch (role) {
    case Role::kData: return tensors.data;
    case Role::kIndices: return tensors.indices;
    case Role::kUpdates: return tensors.updates;
    case Role::kOutput: return tensors.output;
    case Role::kScales: return tensors.scales;
    case Role::kZeroPoints: return tensors.zero_points;
    default: return nullptr;
  }
}

// Resolves the plan's (role, window) bindings to buffer ranges.
class Bindings {
 public:
  Bindings(const OpTensors& tensors, const BufferRange& status, const vk::Buffer* scratch)
      : tensors_(tensors), status_(status), scratch_(scratch) {}

  // The range a dispatch binds.
  StatusOr<BufferRange> bound(const plan::Binding& binding) const {
    if (binding.role == Role::kStatus) return status_;
    if (binding.role == Role::kScratch) {
      if (scratch_ == nullptr) return internalError("a plan binds scratch memory it did not ask for");
      return BufferRange{scratch_->handle(), binding.window.offset, binding.window.size};
    }
    const Tensor* tensor = tensorFor(tensors_, binding.role);
    if (tensor == nullptr) return internalError("a plan binds a tensor role the operation does not have");
    return BufferRange{tensor->buffer(), binding.window.offset, binding.window.size};
  }

 private:
  const OpTensors& tensors_;
  const BufferRange& status_;
  const vk::Buffer* scratch_;
};

// A transfer step (plan::StepKind): copy regions from data to output, or host bytes into a window.
Status recordTransfer(kernels::Recorder& recorder, const plan::Step& step, const OpTensors& tensors,
                      const Bindings& bindings) {
  if (step.kind == plan::StepKind::kCopyRegions) {
    if (tensors.data == nullptr || tensors.output == nullptr)
      return internalError("a copy step without data or output");
    std::vector<VkBufferCopy> regions;
    regions.reserve(step.regions.size());
    for (const plan::CopyRegion& region : step.regions) regions.push_back({region.source, region.target, region.bytes});
    recorder.copyRegions(tensorRange(*tensors.data), tensorRange(*tensors.output), regions);
    return Status::Ok();
  }
  if (step.bindings.size() != 1 || step.host_source == nullptr) return internalError("a malformed upload step");
  VKINDEX_ASSIGN_OR_RETURN(BufferRange range, bindings.bound(step.bindings[0]));
  recorder.uploadFromHost(range, step.host_source);
  return Status::Ok();
}

Status recordSteps(Context::Impl& context, kernels::Recorder& recorder, const plan::OpPlan& plan,
                   const OpTensors& tensors, const RecordedOp::State& state) {
  // Only plans whose steps write the status use a slot of their own (plan::writesStatusSlot); other
  // dispatches bind the clean slot, which their status gates read.
  const BufferRange status = state.slot ? context.status->slotRange(*state.slot) : context.status->cleanRange();
  const Bindings bindings(tensors, status, state.scratch.get());
  if (state.slot && plan::resetsStatusSlot(plan)) recorder.fillWord(status.buffer, status.offset, VKINDEX_NO_ERROR);
  std::vector<BufferRange> ranges;
  for (const plan::Step& step : plan.steps) {
    if (step.kind != plan::StepKind::kDispatch) {
      VKINDEX_RETURN_IF_ERROR(recordTransfer(recorder, step, tensors, bindings));
      continue;
    }
    for (const plan::Binding& wait : step.wait_for) {
      // The whole bound range: synchronization validation tracks the descriptor's range, not the bytes
      // a kernel touches.
      VKINDEX_ASSIGN_OR_RETURN(BufferRange range, bindings.bound(wait));
      recorder.barrier(range, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kReadWrite);
    }
    ranges.clear();
    for (const plan::Binding& binding : step.bindings) {
      VKINDEX_ASSIGN_OR_RETURN(BufferRange range, bindings.bound(binding));
      ranges.push_back(range);
    }
    std::array<uint32_t, plan::kMaxPushWords> push = step.push;
    push[0] = 0;  // every push block starts with its status slot: the first (only) one of its binding
    if (step.indirect_scratch_offset) {
      if (state.scratch == nullptr) return internalError("a plan dispatches from scratch memory it did not ask for");
      const BufferRange arguments{state.scratch->handle(), *step.indirect_scratch_offset,
                                  sizeof(VkDispatchIndirectCommand)};
      recorder.barrier(arguments, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
      VKINDEX_RETURN_IF_ERROR(recorder.dispatchIndirect(step.kernel, step.spec, ranges, push.data(), step.push_bytes,
                                                        arguments.buffer, arguments.offset));
    } else {
      auto [groups_x, groups_y] = kernels::groupGrid(step.groups, context.device->info());
      VKINDEX_RETURN_IF_ERROR(
          recorder.dispatch(step.kernel, step.spec, ranges, push.data(), step.push_bytes, groups_x, groups_y));
    }
    if (context.step_timestamps != nullptr) context.step_timestamps->stamp(recorder.commandBuffer(), step.kernel);
  }
  // In a StatusBatch, its end() makes every slot visible at once.
  if (state.slot && state.batch == nullptr) {
    recorder.barrier(status, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                     VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  }
  return Status::Ok();
}

// The state one recording needs: descriptor sets for every step, a status slot, scratch memory.
StatusOr<std::unique_ptr<RecordedOp::State>> newState(Context::Impl& context, const plan::OpPlan& plan) {
  auto state = std::make_unique<RecordedOp::State>();
  state->context = &context;
  state->report = plan.report;
  if (!plan.dispatches()) return state;  // transfers only: no descriptors, no status slot
  uint32_t sets = 0, buffers = 0;
  for (const plan::Step& step : plan.steps) {
    if (step.kind != plan::StepKind::kDispatch) continue;
    sets += 1;
    buffers += static_cast<uint32_t>(step.bindings.size());
  }
  VKINDEX_ASSIGN_OR_RETURN(state->descriptors, kernels::DescriptorPool::create(*context.device, sets, buffers));
  if (plan.scratch_bytes > 0) {
    VKINDEX_ASSIGN_OR_RETURN(state->scratch, context.scratch->acquire(plan.scratch_bytes));
  }
  if (plan::writesStatusSlot(plan)) {
    VKINDEX_ASSIGN_OR_RETURN(uint32_t slot, context.status->acquire());
    state->slot = slot;
  }
  return state;
}

}  // namespace

Status checkWindowPairs(const char* op_name, const std::vector<const Tensor*>& tensors, const DeviceInfo& device) {
  const uint64_t range = std::max<uint64_t>(device.max_storage_buffer_range, 1);
  uint64_t most = 1, second = 1, most_bytes = 0, second_bytes = 0;
  for (const Tensor* tensor : tensors) {
    const uint64_t windows = std::max<uint64_t>((tensor->byteSize() + range - 1) / range, 1);
    if (windows > most) {
      second = most, second_bytes = most_bytes;
      most = windows, most_bytes = tensor->byteSize();
    } else if (windows > second) {
      second = windows, second_bytes = tensor->byteSize();
    }
  }
  // Compared by division: the product of two counts can overflow.
  if (most > kMaxWindowPairs / second) {
    return unsupported(std::string(op_name) + ": tensors of " + std::to_string(most_bytes) + " and " +
                       std::to_string(second_bytes) + " bytes need " + std::to_string(most) + " x " +
                       std::to_string(second) + " binding windows of at most " + std::to_string(range) +
                       " bytes (ContextOverrides::max_binding_bytes, or the device's maxStorageBufferRange); more "
                       "than " +
                       std::to_string(kMaxWindowPairs) + " window pairs are not planned");
  }
  return Status::Ok();
}

StatusOr<Tensor> createOutput(Context& context, const char* op_name, DataType type, const Shape& shape) {
  const std::string purpose = std::string(op_name) + " output";
  std::optional<uint64_t> count = plan::elementCount(shape);
  // An unrepresentable count is Tensor::create's to report; the multiplication cannot wrap below it.
  if (count && *count <= uint64_t(INT64_MAX) / 16) {
    VKINDEX_RETURN_IF_ERROR(vk::Buffer::checkSize(*implOf(context).device, packedByteSize(type, *count),
                                                  vk::Buffer::Kind::kDevice, purpose));
  }
  return internal::TensorAccess::create(context, type, shape, purpose);
}

StatusOr<std::unique_ptr<RecordedOp::State>> recordPlan(Context& context, VkCommandBuffer command_buffer,
                                                        const plan::OpPlan& plan, const OpTensors& tensors) {
  Context::Impl& impl = implOf(context);
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<RecordedOp::State> state, newState(impl, plan));
  if (state->slot) state->batch = impl.status_batches->find(command_buffer);
  kernels::Recorder recorder(*impl.device, *impl.pipelines, state->descriptors, command_buffer);
  VKINDEX_RETURN_IF_ERROR(recordSteps(impl, recorder, plan, tensors, *state));
  return state;
}

Status runRecorded(Context& context, const OpTensors& tensors, const RecordFunction& record) {
  Context::Impl& impl = implOf(context);
  VKINDEX_ASSIGN_OR_RETURN(VkCommandBuffer cmd, impl.submitter->begin());
  // Prologue: earlier transfers and kernels on these tensors complete before this op reads or writes.
  const std::pair<const Tensor*, VkAccessFlags> accesses[] = {
      {tensors.data, VK_ACCESS_SHADER_READ_BIT},        {tensors.indices, VK_ACCESS_SHADER_READ_BIT},
      {tensors.updates, VK_ACCESS_SHADER_READ_BIT},     {tensors.scales, VK_ACCESS_SHADER_READ_BIT},
      {tensors.zero_points, VK_ACCESS_SHADER_READ_BIT}, {tensors.output, kReadWrite}};
  for (const auto& [tensor, access] : accesses) {
    if (tensor != nullptr && tensor->byteSize() > 0) {
      const BufferRange range = tensorRange(*tensor);
      vk::recordBufferBarrier(impl.device->fn(), cmd, range.buffer, range.offset, range.size, kTensorStages,
                              kTensorWrites, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, access);
    }
  }
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<RecordedOp::State> state, record(cmd));
  VKINDEX_RETURN_IF_ERROR(impl.submitter->submitAndWait());
  return state->result();
}

Status runPlan(Context& context, const plan::OpPlan& plan, const OpTensors& tensors) {
  return runRecorded(context, tensors, [&](VkCommandBuffer cmd) { return recordPlan(context, cmd, plan, tensors); });
}

}  // namespace vkindex
