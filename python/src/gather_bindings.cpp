// Gather, GatherElements and GatherND, with indices as a device tensor or as host indices (a C-contiguous
// int32 or int64 array read during the call: token ids from a CPU sampler need no upload).
#include "bindings.hpp"

namespace py = pybind11;

namespace vkindex::python {

HostIndices hostIndices(const py::array& values) {
  if (!(values.flags() & py::array::c_style)) throw py::value_error("vkindex: host indices must be C-contiguous");
  HostIndices indices;
  // By kind and width: numpy makes many equal dtype objects, so identity says nothing.
  py::dtype type = values.dtype();
  bool native = type.byteorder() == '=';  // numpy writes a native '<' or '>' as '='
  if (type.kind() == 'i' && type.itemsize() == 4 && native) {
    indices.type = DataType::kInt32;
  } else if (type.kind() == 'i' && type.itemsize() == 8 && native) {
    indices.type = DataType::kInt64;
  } else {
    throw py::value_error("vkindex: host indices must be native int32 or int64");
  }
  indices.shape.assign(values.shape(), values.shape() + values.ndim());
  indices.values = values.data();
  return indices;
}

void bindGathers(py::module_& module) {
  py::enum_<IndexPolicy>(module, "IndexPolicy").value("ERROR", IndexPolicy::kError).value("SKIP", IndexPolicy::kSkip);

  module.def("gather", [](const PyTensor& data, const PyTensor& indices, int64_t axis, IndexPolicy policy) {
    return runOnDataContext(
        data, [&](Context& context) { return gather(context, data.tensor, indices.tensor, axis, policy); });
  });
  module.def("gather_host", [](const PyTensor& data, const py::array& values, int64_t axis, IndexPolicy policy) {
    HostIndices indices = hostIndices(values);
    return runOnDataContext(data,
                            [&](Context& context) { return gather(context, data.tensor, indices, axis, policy); });
  });
  module.def("gather_elements", [](const PyTensor& data, const PyTensor& indices, int64_t axis, IndexPolicy policy) {
    return runOnDataContext(
        data, [&](Context& context) { return gatherElements(context, data.tensor, indices.tensor, axis, policy); });
  });
  module.def("gather_nd", [](const PyTensor& data, const PyTensor& indices, int64_t batch_dims, IndexPolicy policy) {
    return runOnDataContext(
        data, [&](Context& context) { return gatherND(context, data.tensor, indices.tensor, batch_dims, policy); });
  });
  module.def("gather_nd_host",
             [](const PyTensor& data, const py::array& values, int64_t batch_dims, IndexPolicy policy) {
               HostIndices indices = hostIndices(values);
               return runOnDataContext(
                   data, [&](Context& context) { return gatherND(context, data.tensor, indices, batch_dims, policy); });
             });
}

}  // namespace vkindex::python
