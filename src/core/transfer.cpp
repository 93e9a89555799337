#include "core/transfer.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "vk/barriers.hpp"
#include "vk/buffer.hpp"

namespace vkindex {
namespace {

// One staging buffer for a whole transfer, sized for its largest chunk.
StatusOr<vk::Buffer> stagingFor(const Context::Impl& context, VkDeviceSize size, const char* purpose) {
  assert(context.staging_chunk_bytes > 0 && "set when the Context is created");
  return vk::Buffer::create(*context.device, std::min<VkDeviceSize>(size, context.staging_chunk_bytes),
                            vk::Buffer::Kind::kStaging, purpose);
}

}  // namespace

Status uploadBytes(Context::Impl& context, VkBuffer buffer, VkDeviceSize offset, const void* bytes, VkDeviceSize size) {
  if (size == 0) return Status::Ok();
  const vk::Device& device = *context.device;
  VKINDEX_ASSIGN_OR_RETURN(vk::Buffer staging, stagingFor(context, size, "upload staging buffer"));
  const auto* source = static_cast<const uint8_t*>(bytes);
  // One submission per chunk: the staging buffer is refilled only after the previous copy completed.
  for (VkDeviceSize done = 0; done < size;) {
    const VkDeviceSize chunk = std::min<VkDeviceSize>(size - done, context.staging_chunk_bytes);
    std::memcpy(staging.mapped(), source + done, chunk);
    VKINDEX_ASSIGN_OR_RETURN(VkCommandBuffer cmd, context.submitter->begin());
    // Earlier reads and writes of the destination (kernels, transfers) finish before it is overwritten.
    vk::recordBufferBarrier(device.fn(), cmd, buffer, offset + done, chunk, kTensorStages, kTensorWrites,
                            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferCopy region{0, offset + done, chunk};
    device.fn().vkCmdCopyBuffer(cmd, staging.handle(), buffer, 1, &region);
    VKINDEX_RETURN_IF_ERROR(context.submitter->submitAndWait());
    done += chunk;
  }
  return Status::Ok();
}

Status downloadBytes(Context::Impl& context, VkBuffer buffer, VkDeviceSize offset, void* bytes, VkDeviceSize size) {
  if (size == 0) return Status::Ok();
  const vk::Device& device = *context.device;
  VKINDEX_ASSIGN_OR_RETURN(vk::Buffer staging, stagingFor(context, size, "download staging buffer"));
  auto* destination = static_cast<uint8_t*>(bytes);
  for (VkDeviceSize done = 0; done < size;) {
    const VkDeviceSize chunk = std::min<VkDeviceSize>(size - done, context.staging_chunk_bytes);
    VKINDEX_ASSIGN_OR_RETURN(VkCommandBuffer cmd, context.submitter->begin());
    vk::recordBufferBarrier(device.fn(), cmd, buffer, offset + done, chunk, kTensorStages, kTensorWrites,
                            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferCopy region{offset + done, 0, chunk};
    device.fn().vkCmdCopyBuffer(cmd, buffer, staging.handle(), 1, &region);
    vk::recordBufferBarrier(device.fn(), cmd, staging.handle(), 0, chunk, VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    VKINDEX_RETURN_IF_ERROR(context.submitter->submitAndWait());
    std::memcpy(destination + done, staging.mapped(), chunk);
    done += chunk;
  }
  return Status::Ok();
}

}  // namespace vkindex
