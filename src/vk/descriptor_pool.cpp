#include "vk/descriptor_pool.hpp"

#include <algorithm>
#include <utility>

namespace vkindex::vk {

StatusOr<DescriptorPool> DescriptorPool::create(const Device& device, uint32_t set_count, uint32_t buffer_count) {
  DescriptorPool pool;
  pool.device_ = &device;
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max(1u, buffer_count)};
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = std::max(1u, set_count);
  info.poolSizeCount = 1;
  info.pPoolSizes = &size;
  VKINDEX_VK_RETURN_IF_ERROR(device.fn().vkCreateDescriptorPool(device.handle(), &info, nullptr, &pool.pool_));
  return pool;
}

DescriptorPool::~DescriptorPool() {
  if (pool_ != VK_NULL_HANDLE) device_->fn().vkDestroyDescriptorPool(device_->handle(), pool_, nullptr);
}

DescriptorPool::DescriptorPool(DescriptorPool&& other) noexcept { *this = std::move(other); }

DescriptorPool& DescriptorPool::operator=(DescriptorPool&& other) noexcept {
  if (this != &other) {
    if (pool_ != VK_NULL_HANDLE) device_->fn().vkDestroyDescriptorPool(device_->handle(), pool_, nullptr);
    device_ = std::exchange(other.device_, nullptr);
    pool_ = std::exchange(other.pool_, VK_NULL_HANDLE);
  }
  return *this;
}

StatusOr<VkDescriptorSet> DescriptorPool::allocate(VkDescriptorSetLayout layout) {
  VkDescriptorSetAllocateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  info.descriptorPool = pool_;
  info.descriptorSetCount = 1;
  info.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VKINDEX_VK_RETURN_IF_ERROR(device_->fn().vkAllocateDescriptorSets(device_->handle(), &info, &set));
  return set;
}

}  // namespace vkindex::vk
