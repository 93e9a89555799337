#include "vk/vulkan.hpp"

#include <string>

namespace vkindex::vk {

const char* resultName(VkResult result) {
  switch (result) {
#define VKINDEX_RESULT_CASE(name) \
  case name: return #name;
    VKINDEX_RESULT_CASE(VK_SUCCESS)
    VKINDEX_RESULT_CASE(VK_NOT_READY)
    VKINDEX_RESULT_CASE(VK_TIMEOUT)
    VKINDEX_RESULT_CASE(VK_INCOMPLETE)
    VKINDEX_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    VKINDEX_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VKINDEX_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    VKINDEX_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    VKINDEX_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    VKINDEX_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    VKINDEX_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    VKINDEX_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    VKINDEX_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    VKINDEX_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    VKINDEX_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VKINDEX_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    VKINDEX_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    VKINDEX_RESULT_CASE(VK_ERROR_UNKNOWN)
#undef VKINDEX_RESULT_CASE
    default: return "VkResult (unnamed)";
  }
}

namespace {

// "vkBindBufferMemory" from the expression "fn.vkBindBufferMemory(device.handle(), ...)": the message
// names the Vulkan command, not vkindex's source text.
std::string commandName(const char* call) {
  std::string text(call);
  text = text.substr(0, text.find('('));
  const size_t last_separator = text.find_last_of(".>:");
  return last_separator == std::string::npos ? text : text.substr(last_separator + 1);
}

}  // namespace

Status checkResult(VkResult result, const char* call) {
  if (result == VK_SUCCESS) return Status::Ok();
  std::string message =
      commandName(call) + " failed: " + resultName(result) + " (" + std::to_string(static_cast<int>(result)) + ")";
  const bool out_of_memory = result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
                             result == VK_ERROR_OUT_OF_POOL_MEMORY;
  return out_of_memory ? resourceExhausted(std::move(message)) : deviceError(std::move(message));
}

}  // namespace vkindex::vk
