// The front shared by the gather family (Gather, GatherElements, GatherND): data + indices + one
// integer attribute -> an output of data's type. Validates the call, plans it through the operator's
// planner, and runs the plan in the three public forms through the one runner. String data stays on
// the host: the plan moves 4-byte element ids, and the host picks the strings.
#pragma once

#include "ops/op_runner.hpp"
#include "plan/windows.hpp"

namespace vkindex {

struct GatherFamilyOp {
  const char* name;  // "GatherND", for messages
  // Host-side validation of the inputs and attribute; the output's shape.
  StatusOr<Shape> (*output_shape)(const Tensor& data, const Tensor& indices, int64_t attribute);
  // The plan for a validated call whose output is `output`.
  StatusOr<plan::OpPlan> (*plan)(const Tensor& data, const Tensor& indices, int64_t attribute, const Tensor& output,
                                 const DeviceInfo& device);
};

// Where a tensor's bytes live, for the planners.
inline plan::Placement placementOf(const Tensor& tensor) { return {tensor.offset(), tensor.byteSize()}; }

StatusOr<Tensor> runGatherFamily(Context& context, const GatherFamilyOp& op, const Tensor& data, const Tensor& indices,
                                 int64_t attribute);
Status runGatherFamily(Context& context, const GatherFamilyOp& op, const Tensor& data, const Tensor& indices,
                       int64_t attribute, Tensor& output);
StatusOr<RecordedOp> recordGatherFamily(Context& context, const GatherFamilyOp& op, VkCommandBuffer command_buffer,
                                        const Tensor& data, const Tensor& indices, int64_t attribute, Tensor& output);

}  // namespace vkindex
