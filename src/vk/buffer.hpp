// A VkBuffer with its own memory: device-local storage for tensors, or host-visible memory for staging
// and for the status words the host reads back.
#pragma once

#include <string>

#include "vk/device.hpp"

namespace vkindex::vk {

class Buffer {
 public:
  enum class Kind {
    kDevice,    // storage + transfer source/destination, device-local when the device has such memory
    kStaging,   // host-visible, coherent: upload and download through it
    kReadback,  // host-visible, coherent, preferably cached: small buffers the host polls (status words)
  };

  // Allocates `size` bytes (at least 16; rounded up to 16 so every tensor ends on a whole uvec4).
  // Sizes beyond the device's allocation, buffer or heap limits are refused (kUnsupported) before any
  // Vulkan call; `purpose` (e.g. "Gather output") names the buffer in that and every other error.
  static StatusOr<Buffer> create(const Device& device, VkDeviceSize size, Kind kind, const std::string& purpose);
  // The check create() starts with, for callers that want to refuse a size before other work.
  static Status checkSize(const Device& device, VkDeviceSize size, Kind kind, const std::string& purpose);

  Buffer() = default;
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  // Host pointer of a staging/readback buffer (persistently mapped); null for device buffers.
  void* mapped() const { return mapped_; }

 private:
  void release();

  const Device* device_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
};

}  // namespace vkindex::vk
