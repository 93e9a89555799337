// TensorScatter (the KV-cache write: new tensor or in place) and GatherBlockQuantized (indices as a
// device tensor or host indices). Optional inputs are None from Python, null here.
#include "bindings.hpp"

namespace py = pybind11;

namespace vkindex::python {
namespace {

const Tensor* optionalTensor(const PyTensor* tensor) { return tensor != nullptr ? &tensor->tensor : nullptr; }

TensorScatterOptions tensorScatterOptions(int64_t axis, TensorScatterMode mode, IndexPolicy policy) {
  TensorScatterOptions options;
  options.axis = axis;
  options.mode = mode;
  options.index_policy = policy;
  return options;
}

GatherBlockQuantizedOptions quantizedOptions(int64_t gather_axis, int64_t quantize_axis, int64_t block_size,
                                             int64_t bits, IndexPolicy policy) {
  GatherBlockQuantizedOptions options;
  options.gather_axis = gather_axis;
  options.quantize_axis = quantize_axis;
  options.block_size = block_size;
  options.bits = bits;
  options.index_policy = policy;
  return options;
}

void bindTensorScatter(py::module_& module) {
  py::enum_<TensorScatterMode>(module, "TensorScatterMode")
      .value("LINEAR", TensorScatterMode::kLinear)
      .value("CIRCULAR", TensorScatterMode::kCircular);
  module.def(
      "tensor_scatter",
      [](const PyTensor& past_cache, const PyTensor& update, const PyTensor* write_indices, int64_t axis,
         TensorScatterMode mode, IndexPolicy policy) {
        TensorScatterOptions options = tensorScatterOptions(axis, mode, policy);
        return runOnDataContext(past_cache, [&](Context& context) {
          return tensorScatter(context, past_cache.tensor, update.tensor, optionalTensor(write_indices), options);
        });
      },
      py::arg("past_cache"), py::arg("update"), py::arg("write_indices").none(true), py::arg("axis"), py::arg("mode"),
      py::arg("policy"));
  module.def(
      "tensor_scatter_in_place",
      [](PyTensor& cache, const PyTensor& update, const PyTensor* write_indices, int64_t axis, TensorScatterMode mode,
         IndexPolicy policy) {
        TensorScatterOptions options = tensorScatterOptions(axis, mode, policy);
        runInPlace(cache, [&](Context& context) {
          return tensorScatterInPlace(context, cache.tensor, update.tensor, optionalTensor(write_indices), options);
        });
      },
      py::arg("cache"), py::arg("update"), py::arg("write_indices").none(true), py::arg("axis"), py::arg("mode"),
      py::arg("policy"));
}

void bindGatherBlockQuantized(py::module_& module) {
  module.def(
      "gather_block_quantized",
      [](const PyTensor& data, const PyTensor& indices, const PyTensor& scales, const PyTensor* zero_points,
         int64_t gather_axis, int64_t quantize_axis, int64_t block_size, int64_t bits, IndexPolicy policy) {
        GatherBlockQuantizedOptions options = quantizedOptions(gather_axis, quantize_axis, block_size, bits, policy);
        return runOnDataContext(data, [&](Context& context) {
          return gatherBlockQuantized(context, data.tensor, indices.tensor, scales.tensor, optionalTensor(zero_points),
                                      options);
        });
      },
      py::arg("data"), py::arg("indices"), py::arg("scales"), py::arg("zero_points").none(true), py::arg("gather_axis"),
      py::arg("quantize_axis"), py::arg("block_size"), py::arg("bits"), py::arg("policy"));
  module.def(
      "gather_block_quantized_host",
      [](const PyTensor& data, const py::array& values, const PyTensor& scales, const PyTensor* zero_points,
         int64_t gather_axis, int64_t quantize_axis, int64_t block_size, int64_t bits, IndexPolicy policy) {
        HostIndices indices = hostIndices(values);
        GatherBlockQuantizedOptions options = quantizedOptions(gather_axis, quantize_axis, block_size, bits, policy);
        return runOnDataContext(data, [&](Context& context) {
          return gatherBlockQuantized(context, data.tensor, indices, scales.tensor, optionalTensor(zero_points),
                                      options);
        });
      },
      py::arg("data"), py::arg("indices"), py::arg("scales"), py::arg("zero_points").none(true), py::arg("gather_axis"),
      py::arg("quantize_axis"), py::arg("block_size"), py::arg("bits"), py::arg("policy"));
}

}  // namespace

void bindQuantizedAndCache(py::module_& module) {
  bindTensorScatter(module);
  bindGatherBlockQuantized(module);
}

}  // namespace vkindex::python
