#include "command_timer.hpp"

#include <chrono>
#include <cstdio>
#include <vector>

#include "core/transfer.hpp"

namespace vkindex::bench {
namespace {

// The queue family's timestampValidBits (0: no timestamps on this queue). DeviceInfo only says whether
// timestamps exist; the bit count is needed to mask the counter's wrap.
uint32_t timestampValidBits(const vk::Device& device) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device.physical(), &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device.physical(), &count, families.data());
  return device.queueFamily() < count ? families[device.queueFamily()].timestampValidBits : 0;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

StatusOr<std::unique_ptr<CommandTimer>> CommandTimer::create(Context& context) {
  const vk::Device& device = *context.impl().device;
  const VolkDeviceTable& fn = device.fn();
  std::unique_ptr<CommandTimer> timer(new CommandTimer(device));

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = device.queueFamily();
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateCommandPool(device.handle(), &pool_info, nullptr, &timer->pool_));
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = timer->pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkAllocateCommandBuffers(device.handle(), &allocate, &timer->cmd_));
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateFence(device.handle(), &fence_info, nullptr, &timer->fence_));

  timer->valid_bits_ = device.info().timestamps ? timestampValidBits(device) : 0;
  if (timer->valid_bits_ > 0) {
    VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = 2;
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateQueryPool(device.handle(), &query_info, nullptr, &timer->query_pool_));
  }
  return timer;
}

CommandTimer::~CommandTimer() {
  const VolkDeviceTable& fn = device_.fn();
  // A failed run may leave work in flight; nothing here may be destroyed while the queue still uses it.
  fn.vkQueueWaitIdle(device_.queue());
  if (query_pool_ != VK_NULL_HANDLE) fn.vkDestroyQueryPool(device_.handle(), query_pool_, nullptr);
  if (fence_ != VK_NULL_HANDLE) fn.vkDestroyFence(device_.handle(), fence_, nullptr);
  if (pool_ != VK_NULL_HANDLE) fn.vkDestroyCommandPool(device_.handle(), pool_, nullptr);
}

std::string CommandTimer::describe() const {
  if (usesTimestamps()) {
    char period[32];
    std::snprintf(period, sizeof(period), "%g", static_cast<double>(device_.info().timestamp_period_ns));
    return std::string("device timestamps (VkQueryPool, ") + period + " ns/tick, " + std::to_string(valid_bits_) +
           " valid bits)";
  }
  return "HOST WALL TIME around submit + wait (this device's queue has no timestamp queries; times include "
         "submission overhead)";
}

Status CommandTimer::record(const std::function<Status(VkCommandBuffer)>& body) {
  const VolkDeviceTable& fn = device_.fn();
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkResetCommandBuffer(cmd_, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkBeginCommandBuffer(cmd_, &begin));
  if (usesTimestamps()) fn.vkCmdResetQueryPool(cmd_, query_pool_, 0, 2);
  // Every earlier submission wrote buffers this one reads or overwrites (uploads, the previous run's
  // output). The fence wait ordered them on the host only; this barrier makes their writes visible, as
  // the recorded-op contract asks of the caller. It precedes the first timestamp, so it is not timed.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = kTensorWrites;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT |
                          VK_ACCESS_SHADER_WRITE_BIT;
  fn.vkCmdPipelineBarrier(cmd_, kTensorStages, kTensorStages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  if (usesTimestamps()) fn.vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, query_pool_, 0);
  Status status = body(cmd_);
  if (usesTimestamps()) fn.vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, query_pool_, 1);
  VkResult ended = fn.vkEndCommandBuffer(cmd_);
  VKINDEX_RETURN_IF_ERROR(status);
  return vk::checkResult(ended, "vkEndCommandBuffer");
}

StatusOr<double> CommandTimer::readTimestamps() const {
  uint64_t ticks[2] = {0, 0};
  VKINDEX_VK_RETURN_IF_ERROR(device_.fn().vkGetQueryPoolResults(
      device_.handle(), query_pool_, 0, 2, sizeof(ticks), ticks, sizeof(uint64_t),
      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  // Only the low timestampValidBits bits count; masking the difference also survives one wrap.
  uint64_t mask = valid_bits_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << valid_bits_) - 1;
  uint64_t elapsed = (ticks[1] - ticks[0]) & mask;
  return static_cast<double>(elapsed) * static_cast<double>(device_.info().timestamp_period_ns) * 1e-6;
}

StatusOr<Sample> CommandTimer::run(const std::function<Status(VkCommandBuffer)>& body) {
  VKINDEX_RETURN_IF_ERROR(record(body));
  const VolkDeviceTable& fn = device_.fn();
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkResetFences(device_.handle(), 1, &fence_));
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  auto start = std::chrono::steady_clock::now();
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkQueueSubmit(device_.queue(), 1, &submit, fence_));
  VkResult waited = fn.vkWaitForFences(device_.handle(), 1, &fence_, VK_TRUE, UINT64_MAX);
  Sample sample;
  sample.wall_ms = millisecondsSince(start);
  if (waited != VK_SUCCESS) {
    // Keep the "completed on return" promise, so the caller may free what the commands used.
    fn.vkQueueWaitIdle(device_.queue());
    return vk::checkResult(waited, "vkWaitForFences");
  }
  sample.device_ms = sample.wall_ms;
  if (usesTimestamps()) {
    VKINDEX_ASSIGN_OR_RETURN(sample.device_ms, readTimestamps());
  }
  return sample;
}

}  // namespace vkindex::bench
