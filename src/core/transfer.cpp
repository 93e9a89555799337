#include "core/transfer.hpp"

#include <cstring>

#include "vk/barriers.hpp"
#include "vk/buffer.hpp"

namespace vkindex {

Status uploadBytes(Context::Impl& context, VkBuffer buffer, VkDeviceSize offset, const void* bytes, VkDeviceSize size) {
  if (size == 0) return Status::Ok();
  const vk::Device& device = *context.device;
  VKINDEX_ASSIGN_OR_RETURN(vk::Buffer staging, vk::Buffer::create(device, size, vk::Buffer::Kind::kStaging, "upload staging buffer"));
  std::memcpy(staging.mapped(), bytes, size);
  VKINDEX_ASSIGN_OR_RETURN(VkCommandBuffer cmd, context.submitter->begin());
  // Earlier reads and writes of the destination (kernels, transfers) finish before it is overwritten.
  vk::recordBufferBarrier(device.fn(), cmd, buffer, offset, size, kTensorStages, kTensorWrites,
                          VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  VkBufferCopy region{0, offset, size};
  device.fn().vkCmdCopyBuffer(cmd, staging.handle(), buffer, 1, &region);
  return context.submitter->submitAndWait();
}

Status downloadBytes(Context::Impl& context, VkBuffer buffer, VkDeviceSize offset, void* bytes, VkDeviceSize size) {
  if (size == 0) return Status::Ok();
  const vk::Device& device = *context.device;
  VKINDEX_ASSIGN_OR_RETURN(vk::Buffer staging, vk::Buffer::create(device, size, vk::Buffer::Kind::kStaging, "download staging buffer"));
  VKINDEX_ASSIGN_OR_RETURN(VkCommandBuffer cmd, context.submitter->begin());
  vk::recordBufferBarrier(device.fn(), cmd, buffer, offset, size, kTensorStages, kTensorWrites,
                          VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  VkBufferCopy region{offset, 0, size};
  device.fn().vkCmdCopyBuffer(cmd, buffer, staging.handle(), 1, &region);
  vk::recordBufferBarrier(device.fn(), cmd, staging.handle(), 0, size, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  VKINDEX_RETURN_IF_ERROR(context.submitter->submitAndWait());
  std::memcpy(bytes, staging.mapped(), size);
  return Status::Ok();
}

}  // namespace vkindex
