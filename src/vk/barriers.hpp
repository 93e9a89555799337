// Exact pipeline barriers on one buffer range: the only barrier shape vkindex records itself.
#pragma once

#include "vk/vulkan.hpp"

namespace vkindex::vk {

// Makes writes to [offset, offset + size) of `buffer` by `src_stage`/`src_access` available and
// visible to `dst_stage`/`dst_access`.
void recordBufferBarrier(const VolkDeviceTable& fn, VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset,
                         VkDeviceSize size, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                         VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

}  // namespace vkindex::vk
