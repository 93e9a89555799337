// A descriptor pool owned by one operation: sized up front from its plan, freed with it, so recorded
// operations never share or exhaust a pool.
#pragma once

#include "vk/device.hpp"

namespace vkindex::vk {

class DescriptorPool {
 public:
  // A pool for `set_count` sets holding `buffer_count` storage-buffer descriptors in all.
  static StatusOr<DescriptorPool> create(const Device& device, uint32_t set_count, uint32_t buffer_count);
  DescriptorPool() = default;
  ~DescriptorPool();
  DescriptorPool(DescriptorPool&& other) noexcept;
  DescriptorPool& operator=(DescriptorPool&& other) noexcept;

  // One set of `layout` from the pool.
  StatusOr<VkDescriptorSet> allocate(VkDescriptorSetLayout layout);

 private:
  const Device* device_ = nullptr;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
};

}  // namespace vkindex::vk
