// Gather (ONNX opsets 1, 11, 13): validation and planning in src/plan/gather_plan, everything else in
// the gather family's front (ops/gather_family).
#include "ops/gather_family.hpp"
#include "plan/gather_plan.hpp"

namespace vkindex {
namespace {

StatusOr<plan::GatherShape> inferShape(const Tensor& data, const Tensor& indices, int64_t axis) {
  return plan::inferGatherShape(data.shape(), data.dtype(), indices.shape(), indices.dtype(), axis);
}

StatusOr<Shape> outputShape(const Tensor& data, const Tensor& indices, int64_t axis) {
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherShape shape, inferShape(data, indices, axis));
  return shape.output_shape;
}

StatusOr<plan::OpPlan> planFor(const Tensor& data, const Tensor& indices, int64_t axis, const Tensor& output,
                               const DeviceInfo& device) {
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherShape shape, inferShape(data, indices, axis));
  return plan::planGather(shape, indices.dtype(), placementOf(data), placementOf(indices), placementOf(output), device);
}

constexpr GatherFamilyOp kGather{"Gather", outputShape, planFor};

}  // namespace

StatusOr<Tensor> gather(Context& context, const Tensor& data, const Tensor& indices, int64_t axis) {
  return runGatherFamily(context, kGather, data, indices, axis);
}

Status gather(Context& context, const Tensor& data, const Tensor& indices, int64_t axis, Tensor& output) {
  return runGatherFamily(context, kGather, data, indices, axis, output);
}

StatusOr<RecordedOp> recordGather(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                  const Tensor& indices, int64_t axis, Tensor& output) {
  return recordGatherFamily(context, kGather, command_buffer, data, indices, axis, output);
}

}  // namespace vkindex
