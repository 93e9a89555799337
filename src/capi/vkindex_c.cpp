// The C API (include/vkindex/vkindex.h): version, errors, contexts and tensors. Handles own C++ objects;
// errors become a status code plus a thread-local message (c_api_support.hpp). The operators are in
// operators_c.cpp and recording_c.cpp.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "capi/c_api_support.hpp"

using vkindex::capi::fail;
using vkindex::capi::nullArgument;
using vkindex::capi::toDataType;
using vkindex::capi::wrap;

namespace {

// The C options as vkindex::ContextOptions (NULL: the defaults). `struct_size` says which fields the
// caller's version of the struct has.
vkindex::StatusOr<vkindex::ContextOptions> toContextOptions(const char* function,
                                                            const VkindexContextOptions* options) {
  vkindex::ContextOptions converted;
  if (options == nullptr) return converted;
  // The struct as first published ended with pipeline_cache_dir; fields appended since are read only
  // when the caller's struct_size covers them.
  constexpr size_t kFirstVersionSize = offsetof(VkindexContextOptions, tuning_profile);
  if (options->struct_size < kFirstVersionSize) {
    return vkindex::invalidArgument(
        std::string(function) + ": options->struct_size is " + std::to_string(options->struct_size) +
        ", expected sizeof(VkindexContextOptions) = " + std::to_string(sizeof(VkindexContextOptions)) +
        " (or at least " + std::to_string(kFirstVersionSize) + " from an older header)");
  }
  const bool has_tuning_profile =
      options->struct_size >= offsetof(VkindexContextOptions, tuning_profile) + sizeof(options->tuning_profile);
  converted.device = options->device_selector != nullptr ? options->device_selector : "";
  converted.validation = options->validation != 0;
  if (options->pipeline_cache_dir != nullptr) converted.pipeline_cache_dir = std::string(options->pipeline_cache_dir);
  if (has_tuning_profile && options->tuning_profile != nullptr) {
    converted.tuning_profile = std::string(options->tuning_profile);
  }
  return converted;
}

VkindexStatus wrapContext(vkindex::StatusOr<std::unique_ptr<vkindex::Context>> created, VkindexContext* context) {
  if (!created.ok()) return fail(created.status());
  *context = new VkindexContext_T{std::move(created).value()};
  return VKINDEX_OK;
}

}  // namespace

extern "C" {

uint32_t vkindexVersion(void) { return VKINDEX_VERSION; }

const char* vkindexVersionString(void) { return vkindex::libraryVersion(); }

const char* vkindexLastErrorMessage(void) { return vkindex::capi::lastErrorMessage(); }

VkindexStatus vkindexContextCreate(const char* device_selector, int validation, VkindexContext* context) {
  if (context == nullptr) return nullArgument("vkindexContextCreate", "context");
  VkindexContextOptions options = {};
  options.struct_size = sizeof(options);
  options.device_selector = device_selector;
  options.validation = validation;
  return vkindexContextCreateWithOptions(&options, context);
}

VkindexStatus vkindexContextCreateWithOptions(const VkindexContextOptions* options, VkindexContext* context) {
  if (context == nullptr) return nullArgument("vkindexContextCreateWithOptions", "context");
  vkindex::StatusOr<vkindex::ContextOptions> converted = toContextOptions("vkindexContextCreateWithOptions", options);
  if (!converted.ok()) return fail(converted.status());
  return wrapContext(vkindex::Context::create(*converted), context);
}

VkindexStatus vkindexContextAdopt(const VkindexExternalVulkan* external, const VkindexContextOptions* options,
                                  VkindexContext* context) {
  if (external == nullptr) return nullArgument("vkindexContextAdopt", "external");
  if (context == nullptr) return nullArgument("vkindexContextAdopt", "context");
  vkindex::StatusOr<vkindex::ContextOptions> converted = toContextOptions("vkindexContextAdopt", options);
  if (!converted.ok()) return fail(converted.status());
  vkindex::ExternalVulkan vulkan;
  vulkan.api_version = external->api_version;
  vulkan.instance = external->instance;
  vulkan.physical_device = external->physical_device;
  vulkan.device = external->device;
  vulkan.queue = external->queue;
  vulkan.queue_family = external->queue_family;
  vulkan.get_instance_proc_addr = external->get_instance_proc_addr;
  return wrapContext(vkindex::Context::adopt(vulkan, *converted), context);
}

void vkindexContextDestroy(VkindexContext context) { delete context; }

VkindexStatus vkindexTensorCreate(VkindexContext context, VkindexDataType type, const int64_t* shape, size_t rank,
                                  const void* data, size_t byte_count, VkindexTensor* tensor) {
  if (context == nullptr) return nullArgument("vkindexTensorCreate", "context");
  if (tensor == nullptr) return nullArgument("vkindexTensorCreate", "tensor");
  if (shape == nullptr && rank > 0) return nullArgument("vkindexTensorCreate", "shape");
  std::optional<vkindex::DataType> dtype = toDataType(type);
  if (!dtype) return fail(vkindex::invalidArgument("vkindexTensorCreate: unknown data type " + std::to_string(type)));
  vkindex::Shape dims(shape, shape + rank);
  vkindex::StatusOr<vkindex::Tensor> created =
      data != nullptr ? vkindex::Tensor::fromHost(*context->context, *dtype, dims, data, byte_count)
                      : vkindex::Tensor::create(*context->context, *dtype, dims);
  if (!created.ok()) return fail(created.status());
  *tensor = wrap(std::move(created).value());
  return VKINDEX_OK;
}

VkindexStatus vkindexTensorView(VkindexContext context, VkindexDataType type, const int64_t* shape, size_t rank,
                                VkBuffer buffer, VkDeviceSize offset, VkDeviceSize buffer_size, VkindexTensor* tensor) {
  if (context == nullptr) return nullArgument("vkindexTensorView", "context");
  if (tensor == nullptr) return nullArgument("vkindexTensorView", "tensor");
  if (shape == nullptr && rank > 0) return nullArgument("vkindexTensorView", "shape");
  std::optional<vkindex::DataType> dtype = toDataType(type);
  if (!dtype) return fail(vkindex::invalidArgument("vkindexTensorView: unknown data type " + std::to_string(type)));
  vkindex::StatusOr<vkindex::Tensor> created = vkindex::Tensor::view(
      *context->context, *dtype, vkindex::Shape(shape, shape + rank), buffer, offset, buffer_size);
  if (!created.ok()) return fail(created.status());
  *tensor = wrap(std::move(created).value());
  return VKINDEX_OK;
}

void vkindexTensorDestroy(VkindexTensor tensor) { delete tensor; }

size_t vkindexTensorRank(VkindexTensor tensor) { return tensor != nullptr ? tensor->tensor.rank() : 0; }

const int64_t* vkindexTensorShape(VkindexTensor tensor) {
  return tensor != nullptr ? tensor->tensor.shape().data() : nullptr;
}

uint64_t vkindexTensorByteSize(VkindexTensor tensor) { return tensor != nullptr ? tensor->tensor.byteSize() : 0; }

VkindexStatus vkindexTensorDownload(VkindexTensor tensor, void* data, size_t byte_count) {
  if (tensor == nullptr) return nullArgument("vkindexTensorDownload", "tensor");
  if (data == nullptr && byte_count > 0) return nullArgument("vkindexTensorDownload", "data");
  vkindex::Status status = tensor->tensor.download(data, byte_count);
  return status.ok() ? VKINDEX_OK : fail(status);
}

}  // extern "C"
