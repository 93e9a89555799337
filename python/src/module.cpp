// The extension module vkindex._vkindex: the C++ API as the Python package (python/vkindex) uses it.
// Numpy conversion, type names and defaults live in the package's Python code.
#include "bindings.hpp"

PYBIND11_MODULE(_vkindex, module) {
  module.doc() = "vkindex's C++ API for the vkindex package (use the package, not this module)";
  module.attr("__version__") = vkindex::libraryVersion();
  vkindex::python::registerErrorTranslator();
  vkindex::python::bindContext(module);
  vkindex::python::bindTensor(module);
  vkindex::python::bindGathers(module);
  vkindex::python::bindScatters(module);
  vkindex::python::bindQuantizedAndCache(module);
}
