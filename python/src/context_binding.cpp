// vkindex.Context and DeviceInfo: opening a device with ContextOptions, and what it reports.
#include <optional>
#include <string>

#include <pybind11/stl.h>

#include "bindings.hpp"

namespace py = pybind11;

namespace vkindex::python {
namespace {

std::shared_ptr<PyContext> createContext(const std::string& device, bool validation, bool gpu_assisted_validation,
                                         std::optional<std::string> pipeline_cache_dir,
                                         std::optional<std::string> tuning_profile) {
  ContextOptions options;
  options.device = device;
  options.validation = validation;
  options.gpu_assisted_validation = gpu_assisted_validation;
  options.pipeline_cache_dir = std::move(pipeline_cache_dir);
  options.tuning_profile = std::move(tuning_profile);
  StatusOr<std::unique_ptr<Context>> context = [&] {
    py::gil_scoped_release unlocked;
    return Context::create(options);
  }();
  auto result = std::make_shared<PyContext>();
  result->context = valueOrThrow(std::move(context));
  return result;
}

void bindDeviceInfo(py::module_& module) {
  py::class_<DeviceInfo>(module, "DeviceInfo", "A Vulkan device: identity, optional features and limits.")
      .def_readonly("index", &DeviceInfo::index)
      .def_readonly("name", &DeviceInfo::name)
      .def_readonly("type", &DeviceInfo::type)
      .def_readonly("driver_name", &DeviceInfo::driver_name)
      .def_readonly("driver_info", &DeviceInfo::driver_info)
      .def_property_readonly("api_version", [](const DeviceInfo& info) { return apiVersionString(info.api_version); })
      .def_readonly("driver_version", &DeviceInfo::driver_version)
      .def_readonly("vendor_id", &DeviceInfo::vendor_id)
      .def_readonly("device_id", &DeviceInfo::device_id)
      .def_readonly("shader_int64", &DeviceInfo::shader_int64)
      .def_readonly("shader_float64", &DeviceInfo::shader_float64)
      .def_readonly("shader_int16", &DeviceInfo::shader_int16)
      .def_readonly("shader_float16", &DeviceInfo::shader_float16)
      .def_readonly("storage_buffer_8bit", &DeviceInfo::storage_buffer_8bit)
      .def_readonly("storage_buffer_16bit", &DeviceInfo::storage_buffer_16bit)
      .def_readonly("float32_rounding_rte", &DeviceInfo::float32_rounding_rte)
      .def_readonly("subgroup_size", &DeviceInfo::subgroup_size)
      .def_readonly("cpu_threads", &DeviceInfo::cpu_threads)
      .def_readonly("max_storage_buffer_range", &DeviceInfo::max_storage_buffer_range)
      .def_readonly("max_memory_allocation_size", &DeviceInfo::max_memory_allocation_size)
      .def_readonly("device_local_heap_size", &DeviceInfo::device_local_heap_size)
      .def("__repr__", [](const DeviceInfo& info) {
        return "<vkindex.DeviceInfo " + std::to_string(info.index) + ": " + info.name + " (" + info.type + ")>";
      });
}

}  // namespace

void bindContext(py::module_& module) {
  bindDeviceInfo(module);
  module.def(
      "devices",
      [] {
        StatusOr<std::vector<DeviceInfo>> devices = [] {
          py::gil_scoped_release unlocked;
          return Context::listDevices();
        }();
        return valueOrThrow(std::move(devices));
      },
      "The Vulkan devices the loader finds, in its order.");

  py::class_<PyContext, std::shared_ptr<PyContext>>(module, "Context",
                                                    "One Vulkan device and what vkindex keeps for it.")
      .def(py::init(&createContext), py::arg("device"), py::arg("validation"), py::arg("gpu_assisted_validation"),
           py::arg("pipeline_cache_dir"), py::arg("tuning_profile"))
      .def_property_readonly("device", [](const PyContext& self) { return self.context->device(); })
      .def_property_readonly("validation_message_count",
                             [](const PyContext& self) { return self.context->validationMessageCount(); })
      .def_property_readonly("first_validation_message",
                             [](const PyContext& self) { return self.context->firstValidationMessage(); })
      .def_property_readonly("pipeline_cache_path",
                             [](const PyContext& self) { return self.context->pipelineCachePath(); })
      .def_property_readonly("tuning_profile_path",
                             [](const PyContext& self) { return self.context->tuningProfilePath(); })
      .def_property_readonly("tuning_profile_loaded",
                             [](const PyContext& self) { return self.context->tuningProfileLoaded(); })
      .def("save_pipeline_cache", [](PyContext& self) {
        throwIfError(withContext(self, [](Context& context) { return context.savePipelineCache(); }));
      });
}

}  // namespace vkindex::python
