// The one way vkindex sources include Vulkan: through volk, which loads the driver at run time (as on
// Android), so the library never links libvulkan. Also turns VkResult into Status.
#pragma once

#include <volk.h>

#include "vkindex/status.hpp"

namespace vkindex::vk {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and so on.
const char* resultName(VkResult result);

// Ok for VK_SUCCESS; otherwise a device error naming the failed call and the result.
Status checkResult(VkResult result, const char* call);

}  // namespace vkindex::vk

// Evaluates a Vulkan call and returns a device-error Status from the enclosing function if it failed.
#define VKINDEX_VK_RETURN_IF_ERROR(call) VKINDEX_RETURN_IF_ERROR(::vkindex::vk::checkResult((call), #call))
