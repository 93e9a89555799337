// GatherElements: validation and planning in src/plan/gather_elements_plan, everything else in the gather family's
// front (ops/gather_family).
#include "ops/gather_family.hpp"
#include "plan/gather_elements_plan.hpp"

namespace vkindex {
namespace {

StatusOr<plan::GatherElementsShape> inferShape(const Tensor& data, const Tensor& indices, int64_t axis) {
  return plan::inferGatherElementsShape(data.shape(), data.dtype(), indices.shape(), indices.dtype(), axis);
}

StatusOr<Shape> outputShape(const Tensor& data, const Tensor& indices, int64_t axis) {
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherElementsShape shape, inferShape(data, indices, axis));
  return shape.output_shape;
}

StatusOr<plan::OpPlan> planFor(const Tensor& data, const Tensor& indices, int64_t axis, const Tensor& output,
                               const DeviceInfo& device) {
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherElementsShape shape, inferShape(data, indices, axis));
  return plan::planGatherElements(shape, indices.dtype(), placementOf(data), placementOf(indices), placementOf(output),
                                  device);
}

constexpr GatherFamilyOp kGatherElements{"GatherElements", outputShape, planFor};

}  // namespace

StatusOr<Tensor> gatherElements(Context& context, const Tensor& data, const Tensor& indices, int64_t axis) {
  return runGatherFamily(context, kGatherElements, data, indices, axis);
}

Status gatherElements(Context& context, const Tensor& data, const Tensor& indices, int64_t axis, Tensor& output) {
  return runGatherFamily(context, kGatherElements, data, indices, axis, output);
}

StatusOr<RecordedOp> recordGatherElements(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                          const Tensor& indices, int64_t axis, Tensor& output) {
  return recordGatherFamily(context, kGatherElements, command_buffer, data, indices, axis, output);
}

}  // namespace vkindex
