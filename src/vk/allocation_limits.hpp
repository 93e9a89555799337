// Size checks that run before vkindex asks a driver for memory, and the errors for allocations that fail.
// Drivers need not fail cleanly beyond maxMemoryAllocationSize, maxBufferSize or a heap's size
// (lavapipe crashes in its copy at 2 GiB, and the validation layer reports VUID-vkAllocateMemory-
// pAllocateInfo-01713 beyond its heap), so such requests never reach them.
#pragma once

#include <string>

#include "vk/vulkan.hpp"
#include "vkindex/device_info.hpp"

namespace vkindex::vk {

// Ok when a buffer of `allocated` bytes (`requested` rounded up as vkindex allocates) fits the device's
// maxMemoryAllocationSize, maxBufferSize (when known) and `heap_bytes` (0: not checked); else
// kUnsupported naming `purpose` (e.g. "Gather output"), the requested bytes, the limit and the device.
// Tensors are never split across allocations, so this is a hard limit.
Status checkBufferSize(const DeviceInfo& info, VkDeviceSize requested, VkDeviceSize allocated, VkDeviceSize heap_bytes,
                       const std::string& purpose);

// The Status for a failed vkCreateBuffer / vkAllocateMemory / vkMapMemory (`step`) of a buffer of
// `bytes` for `purpose`, saying what was being allocated: kResourceExhausted when memory ran out,
// else a device error.
Status allocationFailed(VkResult result, const char* step, const std::string& purpose, VkDeviceSize bytes);

}  // namespace vkindex::vk
