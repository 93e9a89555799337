// Binding windows: which byte range of a buffer a dispatch binds. Storage-buffer bindings must start at
// a multiple of minStorageBufferOffsetAlignment and span at most maxStorageBufferRange bytes, so a
// tensor is bound from an aligned offset at or before its first byte, and a large tensor a window at
// a time. Shared by every operator's planner.
#pragma once

#include <cstdint>
#include <string>

#include "vkindex/device_info.hpp"
#include "vkindex/status.hpp"

namespace vkindex::plan {

// Where a tensor's bytes live in its VkBuffer.
struct Placement {
  uint64_t offset = 0;  // byte offset of the first element; a multiple of 4 (Tensor guarantees it)
  uint64_t bytes = 0;   // element count x element size
};

// A byte range of a buffer to bind.
struct Window {
  uint64_t offset = 0;  // multiple of bindingAlignment()
  uint64_t size = 0;    // multiple of 4, at most maxStorageBufferRange
};

// Alignment of every window start: the device's minimum, and at least 16 so uvec4 units stay aligned.
uint64_t bindingAlignment(const DeviceInfo& device);

// Largest byte span of a tensor guaranteed to fit one window wherever it starts.
uint64_t windowCapacity(const DeviceInfo& device);

// The window binding bytes [begin, end) of a buffer, with `lead` set to how many bytes the window
// starts before `begin`. The end is rounded up to a whole word (tensors own their last word's bytes
// through the Tensor placement rules).
Window windowFor(uint64_t begin, uint64_t end, const DeviceInfo& device, uint64_t* lead);

// Rounds up to a multiple of `multiple` (a power of two).
inline uint64_t alignUp(uint64_t value, uint64_t multiple) { return (value + multiple - 1) & ~(multiple - 1); }
inline uint64_t alignDown(uint64_t value, uint64_t multiple) { return value & ~(multiple - 1); }

}  // namespace vkindex::plan
