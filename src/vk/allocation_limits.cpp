#include "vk/allocation_limits.hpp"

namespace vkindex::vk {
namespace {

Status exceeds(const DeviceInfo& info, VkDeviceSize requested, VkDeviceSize allocated, const char* limit_name,
               uint64_t limit, const std::string& purpose) {
  const std::string rounded = allocated != requested ? " (" + std::to_string(allocated) + " allocated)" : "";
  return unsupported(purpose + ": " + std::to_string(requested) + " bytes" + rounded + " exceed the device's " +
                     limit_name + " of " + std::to_string(limit) + " bytes (" + info.name + ")");
}

}  // namespace

Status checkBufferSize(const DeviceInfo& info, VkDeviceSize requested, VkDeviceSize allocated, VkDeviceSize heap_bytes,
                       const std::string& purpose) {
  const VkDeviceSize bytes = allocated;
  // A limit of 0 means the device did not report it (an adopted device may predate maintenance3).
  if (info.max_memory_allocation_size > 0 && bytes > info.max_memory_allocation_size) {
    return exceeds(info, requested, bytes, "maxMemoryAllocationSize", info.max_memory_allocation_size, purpose);
  }
  if (info.max_buffer_size > 0 && bytes > info.max_buffer_size) {
    return exceeds(info, requested, bytes, "maxBufferSize", info.max_buffer_size, purpose);
  }
  if (heap_bytes > 0 && bytes > heap_bytes)
    return exceeds(info, requested, bytes, "memory heap size", heap_bytes, purpose);
  return Status::Ok();
}

Status allocationFailed(VkResult result, const char* step, const std::string& purpose, VkDeviceSize bytes) {
  const bool out_of_memory = result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY;
  std::string message = purpose + ": " + (out_of_memory ? "out of memory" : "failure") + " in " + step + " of " +
                        std::to_string(bytes) + " bytes (" + resultName(result) + ")";
  return out_of_memory ? resourceExhausted(std::move(message)) : deviceError(std::move(message));
}

}  // namespace vkindex::vk
