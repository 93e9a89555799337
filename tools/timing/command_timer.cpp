#include "command_timer.hpp"

#include <chrono>
#include <cstdio>

#include "core/transfer.hpp"
#include "timing_math.hpp"

namespace vkindex::tools {

StatusOr<std::unique_ptr<CommandTimer>> CommandTimer::create(Context& context) {
  const vk::Device& device = *implOf(context).device;
  std::unique_ptr<CommandTimer> timer(new CommandTimer(device));
  VKINDEX_ASSIGN_OR_RETURN(timer->submitter_, vk::Submitter::create(device));
  if (device.info().timestamps) {
    VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = 2;
    VKINDEX_VK_RETURN_IF_ERROR(
        device.fn().vkCreateQueryPool(device.handle(), &query_info, nullptr, &timer->query_pool_));
  }
  return timer;
}

CommandTimer::~CommandTimer() {
  if (query_pool_ != VK_NULL_HANDLE) device_.fn().vkDestroyQueryPool(device_.handle(), query_pool_, nullptr);
}

std::string CommandTimer::describe() const {
  if (usesTimestamps()) {
    char period[32];
    std::snprintf(period, sizeof(period), "%g", static_cast<double>(device_.info().timestamp_period_ns));
    return std::string("device timestamps (VkQueryPool, ") + period + " ns/tick, " +
           std::to_string(device_.info().timestamp_valid_bits) + " valid bits)";
  }
  return "HOST WALL TIME around submit + wait (this device's queue has no timestamp queries; times include "
         "submission overhead)";
}

StatusOr<double> CommandTimer::readTimestamps() const {
  uint64_t ticks[2] = {0, 0};
  VKINDEX_VK_RETURN_IF_ERROR(device_.fn().vkGetQueryPoolResults(device_.handle(), query_pool_, 0, 2, sizeof(ticks),
                                                                ticks, sizeof(uint64_t),
                                                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  return timestampMilliseconds(device_.info(), ticks[0], ticks[1]);
}

StatusOr<Sample> CommandTimer::run(const std::function<Status(VkCommandBuffer)>& body) {
  const VolkDeviceTable& fn = device_.fn();
  VKINDEX_ASSIGN_OR_RETURN(VkCommandBuffer cmd, submitter_->begin());
  if (usesTimestamps()) fn.vkCmdResetQueryPool(cmd, query_pool_, 0, 2);
  // Earlier submissions wrote buffers this one reads or overwrites (uploads, the previous run's
  // output). The fence wait ordered them on the host only; this barrier makes their writes visible, as
  // the recorded-op contract asks of the caller. It precedes the first timestamp, so it is not timed.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = kTensorWrites;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT |
                          VK_ACCESS_SHADER_WRITE_BIT;
  fn.vkCmdPipelineBarrier(cmd, kTensorStages, kTensorStages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  if (usesTimestamps()) fn.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, query_pool_, 0);
  Status recorded = body(cmd);
  if (usesTimestamps()) fn.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, query_pool_, 1);
  const auto start = std::chrono::steady_clock::now();
  // Submitted even when `body` failed, so the command buffer never stays in the recording state.
  Status completed = submitter_->submitAndWait();
  Sample sample;
  sample.wall_ms = millisecondsSince(start);
  VKINDEX_RETURN_IF_ERROR(recorded);
  VKINDEX_RETURN_IF_ERROR(completed);
  sample.device_ms = sample.wall_ms;
  if (usesTimestamps()) {
    VKINDEX_ASSIGN_OR_RETURN(sample.device_ms, readTimestamps());
  }
  return sample;
}

}  // namespace vkindex::tools
