// The scatter family's operators: ScatterElements (ONNX opsets 11, 13, 16, 18; Scatter 9 and 10 is it
// with reduction none) and ScatterND (11, 13, 16, 18), each its planner from src/plan/scatter_plan
// plus the four public forms, each with and without an IndexPolicy (kError), through the family's
// front (ops/scatter_family).
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
                                 int64_t axis, Reduction reduction, IndexPolicy policy) {
  return runScatterFamily(context, kScatterElements, data, indices, updates, axis, reduction, policy);
}

Status scatterElements(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates, int64_t axis,
                       Reduction reduction, Tensor& output, IndexPolicy policy) {
  return runScatterFamily(context, kScatterElements, data, indices, updates, axis, reduction, output,
                          ScatterTarget::kOutput, policy);
}

Status scatterElementsInPlace(Context& context, Tensor& data, const Tensor& indices, const Tensor& updates,
                              int64_t axis, Reduction reduction, IndexPolicy policy) {
  return runScatterFamily(context, kScatterElements, data, indices, updates, axis, reduction, data,
                          ScatterTarget::kInPlace, policy);
}

StatusOr<RecordedOp> recordScatterElements(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                           const Tensor& indices, const Tensor& updates, int64_t axis,
                                           Reduction reduction, Tensor& output, IndexPolicy policy) {
  return recordScatterFamily(context, kScatterElements, command_buffer, data, indices, updates, axis, reduction, output,
                             policy);
}

StatusOr<Tensor> scatterND(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                           Reduction reduction, IndexPolicy policy) {
  return runScatterFamily(context, kScatterND, data, indices, updates, 0, reduction, policy);
}

Status scatterND(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                 Reduction reduction, Tensor& output, IndexPolicy policy) {
  return runScatterFamily(context, kScatterND, data, indices, updates, 0, reduction, output, ScatterTarget::kOutput,
                          policy);
}

Status scatterNDInPlace(Context& context, Tensor& data, const Tensor& indices, const Tensor& updates,
                        Reduction reduction, IndexPolicy policy) {
  return runScatterFamily(context, kScatterND, data, indices, updates, 0, reduction, data, ScatterTarget::kInPlace,
                          policy);
}

StatusOr<RecordedOp> recordScatterND(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                     const Tensor& indices, const Tensor& updates, Reduction reduction, Tensor& output,
                                     IndexPolicy policy) {
  return recordScatterFamily(context, kScatterND, command_buffer, data, indices, updates, 0, reduction, output, policy);
}

// The ONNX signatures: ONNX's rule, kError.
StatusOr<Tensor> scatterElements(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                                 int64_t axis, Reduction reduction) {
  return scatterElements(context, data, indices, updates, axis, reduction, IndexPolicy::kError);
}

Status scatterElements(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates, int64_t axis,
                       Reduction reduction, Tensor& output) {
  return scatterElements(context, data, indices, updates, axis, reduction, output, IndexPolicy::kError);
}

Status scatterElementsInPlace(Context& context, Tensor& data, const Tensor& indices, const Tensor& updates,
                              int64_t axis, Reduction reduction) {
  return scatterElementsInPlace(context, data, indices, updates, axis, reduction, IndexPolicy::kError);
}

StatusOr<RecordedOp> recordScatterElements(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                           const Tensor& indices, const Tensor& updates, int64_t axis,
                                           Reduction reduction, Tensor& output) {
  return recordScatterElements(context, command_buffer, data, indices, updates, axis, reduction, output,
                               IndexPolicy::kError);
}

StatusOr<Tensor> scatterND(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                           Reduction reduction) {
  return scatterND(context, data, indices, updates, reduction, IndexPolicy::kError);
}

Status scatterND(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                 Reduction reduction, Tensor& output) {
  return scatterND(context, data, indices, updates, reduction, output, IndexPolicy::kError);
}

Status scatterNDInPlace(Context& context, Tensor& data, const Tensor& indices, const Tensor& updates,
                        Reduction reduction) {
  return scatterNDInPlace(context, data, indices, updates, reduction, IndexPolicy::kError);
}

StatusOr<RecordedOp> recordScatterND(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                     const Tensor& indices, const Tensor& updates, Reduction reduction,
                                     Tensor& output) {
  return recordScatterND(context, command_buffer, data, indices, updates, reduction, output, IndexPolicy::kError);
}

}  // namespace vkindex
