#include "vk/submitter.hpp"

#include <cstdint>

namespace vkindex::vk {

StatusOr<std::unique_ptr<Submitter>> Submitter::create(const Device& device) {
  std::unique_ptr<Submitter> submitter(new Submitter(device));
  const VolkDeviceTable& fn = device.fn();
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = device.queueFamily();
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateCommandPool(device.handle(), &pool_info, nullptr, &submitter->pool_));
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = submitter->pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkAllocateCommandBuffers(device.handle(), &allocate, &submitter->command_buffer_));
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateFence(device.handle(), &fence_info, nullptr, &submitter->fence_));
  return submitter;
}

Submitter::~Submitter() {
  const VolkDeviceTable& fn = device_.fn();
  if (fence_ != VK_NULL_HANDLE) fn.vkDestroyFence(device_.handle(), fence_, nullptr);
  if (pool_ != VK_NULL_HANDLE) fn.vkDestroyCommandPool(device_.handle(), pool_, nullptr);
}

StatusOr<VkCommandBuffer> Submitter::begin() {
  const VolkDeviceTable& fn = device_.fn();
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkResetCommandBuffer(command_buffer_, 0));
  VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkBeginCommandBuffer(command_buffer_, &info));
  return command_buffer_;
}

Status Submitter::submitAndWait() {
  const VolkDeviceTable& fn = device_.fn();
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkEndCommandBuffer(command_buffer_));
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &command_buffer_;
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkResetFences(device_.handle(), 1, &fence_));
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkQueueSubmit(device_.queue(), 1, &submit, fence_));
  VkResult waited = fn.vkWaitForFences(device_.handle(), 1, &fence_, VK_TRUE, UINT64_MAX);
  if (waited != VK_SUCCESS) {
    // Keep the promise that the work has completed on return, so callers may free what it used.
    fn.vkQueueWaitIdle(device_.queue());
  }
  return vk::checkResult(waited, "vkWaitForFences");
}

}  // namespace vkindex::vk
