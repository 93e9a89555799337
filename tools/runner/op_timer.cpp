#include "op_timer.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/context_impl.hpp"

namespace vkindex::tools {
namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// A command pool, command buffer, fence and 2-entry timestamp pool, destroyed together.
struct TimingResources {
  const vk::Device* device = nullptr;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;

  ~TimingResources() {
    if (device == nullptr) return;
    const VolkDeviceTable& fn = device->fn();
    if (queries != VK_NULL_HANDLE) fn.vkDestroyQueryPool(device->handle(), queries, nullptr);
    if (fence != VK_NULL_HANDLE) fn.vkDestroyFence(device->handle(), fence, nullptr);
    if (pool != VK_NULL_HANDLE) fn.vkDestroyCommandPool(device->handle(), pool, nullptr);
  }

  Status create(const vk::Device& owner, bool timestamps) {
    device = &owner;
    const VolkDeviceTable& fn = owner.fn();
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = owner.queueFamily();
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateCommandPool(owner.handle(), &pool_info, nullptr, &pool));
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkAllocateCommandBuffers(owner.handle(), &allocate, &cmd));
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateFence(owner.handle(), &fence_info, nullptr, &fence));
    if (timestamps) {
      VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      query_info.queryCount = 2;
      VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateQueryPool(owner.handle(), &query_info, nullptr, &queries));
    }
    return Status::Ok();
  }
};

}  // namespace

StatusOr<Timing> timeRecorded(Context& context, int repeat,
                              const std::function<StatusOr<RecordedOp>(VkCommandBuffer)>& record) {
  const vk::Device& device = *context.impl().device;
  const VolkDeviceTable& fn = device.fn();
  Timing timing;
  timing.has_device_time = device.info().timestamps;
  TimingResources resources;
  VKINDEX_RETURN_IF_ERROR(resources.create(device, timing.has_device_time));
  std::vector<double> device_ms, wall_ms;
  for (int run = 0; run < repeat; ++run) {
    const auto start = std::chrono::steady_clock::now();
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkResetCommandBuffer(resources.cmd, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkBeginCommandBuffer(resources.cmd, &begin));
    if (timing.has_device_time) {
      fn.vkCmdResetQueryPool(resources.cmd, resources.queries, 0, 2);
      fn.vkCmdWriteTimestamp(resources.cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, resources.queries, 0);
    }
    // The inputs were written by earlier submissions (uploads, the correctness run): make them
    // visible to the recorded operator, as the recording contract asks of the caller.
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    fn.vkCmdPipelineBarrier(resources.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    VKINDEX_ASSIGN_OR_RETURN(RecordedOp op, record(resources.cmd));
    if (timing.has_device_time) {
      fn.vkCmdWriteTimestamp(resources.cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, resources.queries, 1);
    }
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkEndCommandBuffer(resources.cmd));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &resources.cmd;
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkResetFences(device.handle(), 1, &resources.fence));
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkQueueSubmit(device.queue(), 1, &submit, resources.fence));
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkWaitForFences(device.handle(), 1, &resources.fence, VK_TRUE, UINT64_MAX));
    wall_ms.push_back(millisecondsSince(start));
    VKINDEX_RETURN_IF_ERROR(op.finish());
    if (timing.has_device_time) {
      uint64_t ticks[2] = {0, 0};
      VKINDEX_VK_RETURN_IF_ERROR(fn.vkGetQueryPoolResults(device.handle(), resources.queries, 0, 2, sizeof(ticks),
                                                          ticks, sizeof(uint64_t),
                                                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
      const uint32_t bits = device.info().timestamp_valid_bits;
      const uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
      const uint64_t elapsed = ((ticks[1] & mask) - (ticks[0] & mask)) & mask;
      device_ms.push_back(static_cast<double>(elapsed) * device.info().timestamp_period_ns / 1e6);
    }
  }
  timing.wall_ms_median = median(wall_ms);
  if (timing.has_device_time) {
    timing.device_ms_median = median(device_ms);
    timing.device_ms_min = *std::min_element(device_ms.begin(), device_ms.end());
  }
  return timing;
}

StatusOr<Timing> timeSubmitted(int repeat, const std::function<Status()>& run) {
  std::vector<double> wall_ms;
  for (int i = 0; i < repeat; ++i) {
    const auto start = std::chrono::steady_clock::now();
    VKINDEX_RETURN_IF_ERROR(run());
    wall_ms.push_back(millisecondsSince(start));
  }
  Timing timing;
  timing.wall_ms_median = median(wall_ms);
  return timing;
}

}  // namespace vkindex::tools
