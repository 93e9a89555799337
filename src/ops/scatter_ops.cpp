// The scatter family's operators: ScatterElements (ONNX opsets 11, 13, 16, 18; Scatter 9 and 10 is it
// with reduction none) and ScatterND (11, 13, 16, 18), each its planner from src/plan/scatter_plan
// plus the four public forms, through the family's front (ops/scatter_family).
#include "ops/scatter_family.hpp"

namespace vkindex {
namespace {

StatusOr<plan::ScatterShape> inferElements(const Tensor& data, const Tensor& indices, const Tensor& updates,
                                           int64_t axis, Reduction reduction) {
  return plan::inferScatterElementsShape(data.shape(), data.dtype(), indices.shape(), indices.dtype(), updates.shape(),
                                         updates.dtype(), axis, reduction);
}

StatusOr<plan::ScatterShape> inferND(const Tensor& data, const Tensor& indices, const Tensor& updates,
                                     int64_t /*unused*/, Reduction reduction) {
  return plan::inferScatterNDShape(data.shape(), data.dtype(), indices.shape(), indices.dtype(), updates.shape(),
                                   updates.dtype(), reduction);
}

constexpr ScatterFamilyOp kScatterElements{"ScatterElements", inferElements};
constexpr ScatterFamilyOp kScatterND{"ScatterND", inferND};

}  // namespace

StatusOr<Tensor> scatterElements(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                                 int64_t axis, Reduction reduction) {
  return runScatterFamily(context, kScatterElements, data, indices, updates, axis, reduction);
}

Status scatterElements(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates, int64_t axis,
                       Reduction reduction, Tensor& output) {
  return runScatterFamily(context, kScatterElements, data, indices, updates, axis, reduction, output,
                          ScatterTarget::kOutput);
}

Status scatterElementsInPlace(Context& context, Tensor& data, const Tensor& indices, const Tensor& updates,
                              int64_t axis, Reduction reduction) {
  return runScatterFamily(context, kScatterElements, data, indices, updates, axis, reduction, data,
                          ScatterTarget::kInPlace);
}

StatusOr<RecordedOp> recordScatterElements(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                           const Tensor& indices, const Tensor& updates, int64_t axis,
                                           Reduction reduction, Tensor& output) {
  return recordScatterFamily(context, kScatterElements, command_buffer, data, indices, updates, axis, reduction,
                             output);
}

StatusOr<Tensor> scatterND(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                           Reduction reduction) {
  return runScatterFamily(context, kScatterND, data, indices, updates, 0, reduction);
}

Status scatterND(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                 Reduction reduction, Tensor& output) {
  return runScatterFamily(context, kScatterND, data, indices, updates, 0, reduction, output, ScatterTarget::kOutput);
}

Status scatterNDInPlace(Context& context, Tensor& data, const Tensor& indices, const Tensor& updates,
                        Reduction reduction) {
  return runScatterFamily(context, kScatterND, data, indices, updates, 0, reduction, data, ScatterTarget::kInPlace);
}

StatusOr<RecordedOp> recordScatterND(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                     const Tensor& indices, const Tensor& updates, Reduction reduction,
                                     Tensor& output) {
  return recordScatterFamily(context, kScatterND, command_buffer, data, indices, updates, 0, reduction, output);
}

}  // namespace vkindex
