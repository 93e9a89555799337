// The one runner every operator's plan goes through (src/plan/op_plan.hpp): it maps the plan's roles
// to the call's tensors, its status slot and scratch memory, records the steps with their barriers,
// and serves the three public forms: a new output, a caller's output (both submit and wait), and
// recording into the application's command buffer.
#pragma once

#include <functional>

#include "ops/op_state.hpp"

namespace vkindex {

// The tensors a plan's roles refer to (null where the operator has no such input).
struct OpTensors {
  const Tensor* data = nullptr;
  const Tensor* indices = nullptr;
  const Tensor* updates = nullptr;
  Tensor* output = nullptr;
  const Tensor* scales = nullptr;       // GatherBlockQuantized
  const Tensor* zero_points = nullptr;  // GatherBlockQuantized, when given
};

// Tensors larger than the binding range (the device's maxStorageBufferRange, or a lower
// ContextOverrides::max_binding_bytes) are processed a window at a time, and a plan pairs the windows of
// the tensors it reads and writes: its size grows with the product of their window counts. A binding
// range far below the tensors' sizes would take minutes and gigabytes to plan, so a call whose two
// most-windowed tensors need more than kMaxWindowPairs pairs is refused (kUnsupported) before planning.
inline constexpr uint64_t kMaxWindowPairs = uint64_t(1) << 16;
Status checkWindowPairs(const char* op_name, const std::vector<const Tensor*>& tensors, const DeviceInfo& device);

// A new output tensor for `op_name` (e.g. "Gather"). An output beyond the device's memory limits is
// refused as "Gather output: N bytes exceed ..." rather than in the words of Tensor::create.
StatusOr<Tensor> createOutput(Context& context, const char* op_name, DataType type, const Shape& shape);

// Records `plan` into `command_buffer` and returns the state the commands refer to; the caller keeps
// it alive until they completed. The application places the barriers around it (see ops.hpp).
StatusOr<std::unique_ptr<RecordedOp::State>> recordPlan(Context& context, VkCommandBuffer command_buffer,
                                                        const plan::OpPlan& plan, const OpTensors& tensors);

// Records with `record` on vkindex's own command buffer behind barriers on every tensor (the tensors'
// earlier transfers and kernels complete first, as the recorded forms' contract asks of the
// application), submits it and waits: Ok, or the bad index the device found (nothing written then).
using RecordFunction = std::function<StatusOr<std::unique_ptr<RecordedOp::State>>(VkCommandBuffer)>;
Status runRecorded(Context& context, const OpTensors& tensors, const RecordFunction& record);

// Records `plan` on vkindex's own command buffer behind barriers on every tensor, submits it and waits:
// Ok, or the bad index the device found (nothing written then).
Status runPlan(Context& context, const plan::OpPlan& plan, const OpTensors& tensors);

}  // namespace vkindex
