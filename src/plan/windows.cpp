#include "plan/windows.hpp"

#include <algorithm>

namespace vkindex::plan {

uint64_t bindingAlignment(const DeviceInfo& device) {
  return std::max<uint64_t>(16, device.min_storage_buffer_offset_alignment);
}

uint64_t windowCapacity(const DeviceInfo& device) {
  uint64_t alignment = bindingAlignment(device);
  uint64_t range = alignDown(device.max_storage_buffer_range, alignment);
  // The window may start up to alignment-1 bytes early and end up to 3 bytes late.
  return range > 2 * alignment ? range - 2 * alignment : 0;
}

Window windowFor(uint64_t begin, uint64_t end, const DeviceInfo& device, uint64_t* lead) {
  Window window;
  window.offset = alignDown(begin, bindingAlignment(device));
  window.size = alignUp(end, 4) - window.offset;
  *lead = begin - window.offset;
  return window;
}

}  // namespace vkindex::plan
