// StatusError into Python: vkindex._errors.error_for(code, message) makes the exception (the subclass of
// vkindex.Error for the code), and it is raised with vkindex's message unchanged.
#include "bindings.hpp"

namespace py = pybind11;

namespace vkindex::python {

void registerErrorTranslator() {
  // pybind11 takes a plain function pointer of this exact signature, so the parameter stays a value.
  py::register_exception_translator([](std::exception_ptr pending) {  // NOLINT(performance-unnecessary-value-param)
    if (!pending) return;
    try {
      std::rethrow_exception(pending);
    } catch (const StatusError& error) {
      py::object make_error = py::module_::import("vkindex._errors").attr("error_for");
      py::object exception = make_error(statusCodeName(error.status().code()), error.status().message());
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception.ptr())), exception.ptr());
    }
  });
}

}  // namespace vkindex::python
