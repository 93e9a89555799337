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

Status checkResult(VkResult result, const char* call) {
  if (result == VK_SUCCESS) return Status::Ok();
  return deviceError(std::string(call) + " failed: " + resultName(result) + " (" +
                     std::to_string(static_cast<int>(result)) + ")");
}

}  // namespace vkindex::vk
