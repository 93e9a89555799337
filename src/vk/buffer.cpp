#include "vk/buffer.hpp"

#include <string>
#include <utility>

namespace vkindex::vk {
namespace {

// The first memory type allowed by `allowed` that has all `required` flags, trying `preferred` extra
// flags first.
std::optional<uint32_t> findMemoryType(const VkPhysicalDeviceMemoryProperties& memory, uint32_t allowed,
                                       VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
  for (VkMemoryPropertyFlags wanted : {required | preferred, required}) {
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      if ((allowed & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    }
  }
  return std::nullopt;
}

}  // namespace

StatusOr<Buffer> Buffer::create(const Device& device, VkDeviceSize size, Kind kind) {
  Buffer buffer;
  buffer.device_ = &device;
  buffer.size_ = std::max<VkDeviceSize>(16, (size + 15) & ~VkDeviceSize(15));
  const VolkDeviceTable& fn = device.fn();

  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = buffer.size_;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (kind != Kind::kStaging) info.usage |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateBuffer(device.handle(), &info, nullptr, &buffer.buffer_));

  VkMemoryRequirements requirements;
  fn.vkGetBufferMemoryRequirements(device.handle(), buffer.buffer_, &requirements);
  VkMemoryPropertyFlags required = 0, preferred = 0;
  switch (kind) {
    case Kind::kDevice: preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT; break;
    case Kind::kStaging: required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT; break;
    case Kind::kReadback:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
      break;
  }
  std::optional<uint32_t> type = findMemoryType(device.memory(), requirements.memoryTypeBits, required, preferred);
  if (!type) return deviceError("no suitable Vulkan memory type for a " + std::to_string(size) + "-byte buffer");

  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = *type;
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkAllocateMemory(device.handle(), &allocate, nullptr, &buffer.memory_));
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkBindBufferMemory(device.handle(), buffer.buffer_, buffer.memory_, 0));
  if (kind != Kind::kDevice) {
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkMapMemory(device.handle(), buffer.memory_, 0, VK_WHOLE_SIZE, 0, &buffer.mapped_));
  }
  return buffer;
}

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& other) noexcept { *this = std::move(other); }

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
  }
  return *this;
}

void Buffer::release() {
  if (device_ == nullptr) return;
  const VolkDeviceTable& fn = device_->fn();
  if (buffer_ != VK_NULL_HANDLE) fn.vkDestroyBuffer(device_->handle(), buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) fn.vkFreeMemory(device_->handle(), memory_, nullptr);
  device_ = nullptr;
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
}

}  // namespace vkindex::vk
