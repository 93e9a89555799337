// vkindex._vkindex.Tensor: device tensors made from and read into contiguous host buffers (numpy arrays
// the package has already made packed, little-endian and C-ordered), and string tensors.
#include <cstring>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"

namespace py = pybind11;

namespace vkindex::python {
namespace {

DataType dataTypeFromCode(int32_t onnx_code) {
  std::optional<DataType> type = dataTypeFromOnnx(onnx_code);
  if (!type) throw py::value_error("vkindex: no ONNX tensor type has code " + std::to_string(onnx_code));
  return *type;
}

// The bytes of a C-contiguous array: what fromHost reads and download writes.
void requireContiguous(const py::array& array, const char* what) {
  if (!(array.flags() & py::array::c_style)) {
    throw py::value_error(std::string("vkindex: ") + what + " must be a C-contiguous array");
  }
}

PyTensor fromBuffer(const std::shared_ptr<PyContext>& context, int32_t onnx_code, Shape shape, const py::array& bytes) {
  requireContiguous(bytes, "the host bytes");
  DataType type = dataTypeFromCode(onnx_code);
  const void* host = bytes.data();
  auto byte_count = static_cast<size_t>(bytes.nbytes());
  return wrapTensor(context, withContext(*context, [&](Context& device) {
                      return Tensor::fromHost(device, type, std::move(shape), host, byte_count);
                    }));
}

PyTensor fromStrings(const std::shared_ptr<PyContext>& context, Shape shape, const std::vector<py::bytes>& values) {
  std::vector<std::string> strings;
  strings.reserve(values.size());
  for (const py::bytes& value : values) strings.emplace_back(value);
  return wrapTensor(context, withContext(*context, [&](Context& device) {
                      return Tensor::fromStrings(device, std::move(shape), std::move(strings));
                    }));
}

void downloadInto(const PyTensor& self, py::array& destination) {
  requireContiguous(destination, "the destination");
  if (!destination.writeable()) throw py::value_error("vkindex: the destination array is read-only");
  void* bytes = destination.mutable_data();
  auto byte_count = static_cast<size_t>(destination.nbytes());
  throwIfError(withContext(*self.context, [&](Context&) { return self.tensor.download(bytes, byte_count); }));
}

py::list strings(const PyTensor& self) {
  py::list values;
  for (const std::string& value : self.tensor.strings()) values.append(py::bytes(value));
  return values;
}

}  // namespace

void bindTensor(py::module_& module) {
  py::class_<PyTensor>(module, "Tensor", "A tensor whose elements live on a vkindex Context's device.")
      .def_static("from_buffer", &fromBuffer, py::arg("context"), py::arg("type_code"), py::arg("shape"),
                  py::arg("bytes"), "A device tensor holding the packed little-endian bytes of a C-contiguous array.")
      .def_static("from_strings", &fromStrings, py::arg("context"), py::arg("shape"), py::arg("values"),
                  "A string tensor (the strings stay on the host).")
      .def("download_into", &downloadInto, py::arg("destination"),
           "Copies the tensor's packed bytes into a C-contiguous array of exactly that many bytes.")
      .def("strings", &strings, "A string tensor's elements, row-major, as bytes.")
      .def_property_readonly("shape", [](const PyTensor& self) { return py::tuple(py::cast(self.tensor.shape())); })
      .def_property_readonly("type_code", [](const PyTensor& self) { return onnxTypeCode(self.tensor.dtype()); })
      .def_property_readonly("size", [](const PyTensor& self) { return self.tensor.elementCount(); })
      .def_property_readonly("nbytes", [](const PyTensor& self) { return self.tensor.byteSize(); })
      .def_property_readonly("context", [](const PyTensor& self) { return self.context; });
}

}  // namespace vkindex::python
