#include "vk/buffer.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "vk/allocation_limits.hpp"

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

// The largest heap of the memory types with all `required` flags: the most a buffer can get, known
// before the buffer exists.
VkDeviceSize largestUsableHeap(const VkPhysicalDeviceMemoryProperties& memory, VkMemoryPropertyFlags required) {
  VkDeviceSize largest = 0;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((memory.memoryTypes[i].propertyFlags & required) == required) {
      largest = std::max(largest, memory.memoryHeaps[memory.memoryTypes[i].heapIndex].size);
    }
  }
  return largest;
}

// Memory properties a buffer of `kind` cannot do without.
VkMemoryPropertyFlags requiredFlags(Buffer::Kind kind) {
  return kind == Buffer::Kind::kDevice ? 0 : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
}

// At least 16 bytes, rounded up to 16. Cannot wrap: sizes come from tensors, whose byte size is at most
// INT64_MAX, or from small constants.
VkDeviceSize roundedSize(VkDeviceSize size) { return std::max<VkDeviceSize>(16, (size + 15) & ~VkDeviceSize(15)); }

}  // namespace

Status Buffer::checkSize(const Device& device, VkDeviceSize size, Kind kind, const std::string& purpose) {
  return checkBufferSize(device.info(), size, roundedSize(size),
                         largestUsableHeap(device.memory(), requiredFlags(kind)), purpose);
}

StatusOr<Buffer> Buffer::create(const Device& device, VkDeviceSize size, Kind kind, const std::string& purpose) {
  VKINDEX_RETURN_IF_ERROR(checkSize(device, size, kind, purpose));
  const VkMemoryPropertyFlags required = requiredFlags(kind);
  const VkMemoryPropertyFlags preferred = kind == Kind::kDevice     ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
                                          : kind == Kind::kReadback ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT
                                                                    : 0;
  Buffer buffer;
  buffer.device_ = &device;
  buffer.size_ = roundedSize(size);
  const VolkDeviceTable& fn = device.fn();

  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = buffer.size_;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (kind != Kind::kStaging) info.usage |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  // Device buffers include operations' scratch memory, where kernels leave group counts for later
  // indirect dispatches (the fold by owner's heavy passes).
  if (kind == Kind::kDevice) info.usage |= VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkResult result = fn.vkCreateBuffer(device.handle(), &info, nullptr, &buffer.buffer_);
  if (result != VK_SUCCESS) return allocationFailed(result, "vkCreateBuffer", purpose, buffer.size_);

  VkMemoryRequirements requirements;
  fn.vkGetBufferMemoryRequirements(device.handle(), buffer.buffer_, &requirements);
  std::optional<uint32_t> type = findMemoryType(device.memory(), requirements.memoryTypeBits, required, preferred);
  if (!type) return deviceError(purpose + ": no suitable Vulkan memory type for " + std::to_string(size) + " bytes");
  // The driver may ask for more than the buffer's size, and the chosen type's heap may be smaller than
  // the largest one checked above.
  const VkDeviceSize heap = device.memory().memoryHeaps[device.memory().memoryTypes[*type].heapIndex].size;
  VKINDEX_RETURN_IF_ERROR(checkBufferSize(device.info(), size, requirements.size, heap, purpose));

  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = *type;
  result = fn.vkAllocateMemory(device.handle(), &allocate, nullptr, &buffer.memory_);
  if (result != VK_SUCCESS) return allocationFailed(result, "vkAllocateMemory", purpose, requirements.size);
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkBindBufferMemory(device.handle(), buffer.buffer_, buffer.memory_, 0));
  if (kind != Kind::kDevice) {
    result = fn.vkMapMemory(device.handle(), buffer.memory_, 0, VK_WHOLE_SIZE, 0, &buffer.mapped_);
    if (result != VK_SUCCESS) return allocationFailed(result, "vkMapMemory", purpose, requirements.size);
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
