// GatherND: validation and planning in src/plan/gather_nd_plan, everything else in the gather family's
// front (ops/gather_family).
#include "ops/gather_family.hpp"
#include "plan/gather_nd_plan.hpp"

namespace vkindex {
namespace {

StatusOr<plan::GatherNDShape> inferShape(const Tensor& data, const Tensor& indices, int64_t batch_dims) {
  return plan::inferGatherNDShape(data.shape(), data.dtype(), indices.shape(), indices.dtype(), batch_dims);
}

StatusOr<Shape> outputShape(const Tensor& data, const Tensor& indices, int64_t batch_dims) {
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherNDShape shape, inferShape(data, indices, batch_dims));
  return shape.output_shape;
}

StatusOr<plan::OpPlan> planFor(const Tensor& data, const Tensor& indices, int64_t batch_dims, const Tensor& output,
                               const DeviceInfo& device) {
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherNDShape shape, inferShape(data, indices, batch_dims));
  return plan::planGatherND(shape, indices.dtype(), placementOf(data), placementOf(indices), placementOf(output),
                            device);
}

constexpr GatherFamilyOp kGatherND{"GatherND", outputShape, planFor};

}  // namespace

StatusOr<Tensor> gatherND(Context& context, const Tensor& data, const Tensor& indices, int64_t batch_dims) {
  return runGatherFamily(context, kGatherND, data, indices, batch_dims);
}

Status gatherND(Context& context, const Tensor& data, const Tensor& indices, int64_t batch_dims, Tensor& output) {
  return runGatherFamily(context, kGatherND, data, indices, batch_dims, output);
}

StatusOr<RecordedOp> recordGatherND(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                    const Tensor& indices, int64_t batch_dims, Tensor& output) {
  return recordGatherFamily(context, kGatherND, command_buffer, data, indices, batch_dims, output);
}

}  // namespace vkindex
