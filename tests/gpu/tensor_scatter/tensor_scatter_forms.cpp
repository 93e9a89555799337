#include "tensor_scatter_forms.hpp"

namespace vkindex::test {

ScatterOperator tensorScatterOperator(Context& context, const TensorScatterOptions& options, bool with_indices) {
  ScatterOperator op;
  op.reference = [options, with_indices](const HostTensor& past, const HostTensor& indices, const HostTensor& update) {
    return referenceTensorScatter(past, update, with_indices ? &indices : nullptr, options);
  };
  op.run = [&context, options, with_indices](const Tensor& past, const Tensor& indices, const Tensor& update) {
    return tensorScatter(context, past, update, with_indices ? &indices : nullptr, options);
  };
  op.run_into = [&context, options, with_indices](const Tensor& past, const Tensor& indices, const Tensor& update,
                                                  Tensor& output) {
    return tensorScatter(context, past, update, with_indices ? &indices : nullptr, options, output);
  };
  op.run_in_place = [&context, options, with_indices](Tensor& cache, const Tensor& indices, const Tensor& update) {
    return tensorScatterInPlace(context, cache, update, with_indices ? &indices : nullptr, options);
  };
  op.record = [&context, options, with_indices](VkCommandBuffer cmd, const Tensor& past, const Tensor& indices,
                                                const Tensor& update, Tensor& output) {
    return recordTensorScatter(context, cmd, past, update, with_indices ? &indices : nullptr, options, output);
  };
  return op;
}

HostTensor writeIndices(const std::vector<int64_t>& values) {
  return indexTensor(DataType::kInt64, {static_cast<int64_t>(values.size())}, values);
}

}  // namespace vkindex::test
