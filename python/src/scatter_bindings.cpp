// ScatterElements and ScatterND: to a new tensor, or in place on a device tensor.
#include "bindings.hpp"

namespace py = pybind11;

namespace vkindex::python {
void bindScatters(py::module_& module) {
  py::enum_<Reduction>(module, "Reduction")
      .value("NONE", Reduction::kNone)
      .value("ADD", Reduction::kAdd)
      .value("MUL", Reduction::kMul)
      .value("MAX", Reduction::kMax)
      .value("MIN", Reduction::kMin);

  module.def("scatter_elements", [](const PyTensor& data, const PyTensor& indices, const PyTensor& updates,
                                    int64_t axis, Reduction reduction, IndexPolicy policy) {
    return runOnDataContext(data, [&](Context& context) {
      return scatterElements(context, data.tensor, indices.tensor, updates.tensor, axis, reduction, policy);
    });
  });
  module.def("scatter_elements_in_place", [](PyTensor& data, const PyTensor& indices, const PyTensor& updates,
                                             int64_t axis, Reduction reduction, IndexPolicy policy) {
    runInPlace(data, [&](Context& context) {
      return scatterElementsInPlace(context, data.tensor, indices.tensor, updates.tensor, axis, reduction, policy);
    });
  });
  module.def("scatter_nd", [](const PyTensor& data, const PyTensor& indices, const PyTensor& updates,
                              Reduction reduction, IndexPolicy policy) {
    return runOnDataContext(data, [&](Context& context) {
      return scatterND(context, data.tensor, indices.tensor, updates.tensor, reduction, policy);
    });
  });
  module.def("scatter_nd_in_place", [](PyTensor& data, const PyTensor& indices, const PyTensor& updates,
                                       Reduction reduction, IndexPolicy policy) {
    runInPlace(data, [&](Context& context) {
      return scatterNDInPlace(context, data.tensor, indices.tensor, updates.tensor, reduction, policy);
    });
  });
}

}  // namespace vkindex::python
