// Times one command buffer's worth of work: records a leading barrier, a timestamp, the caller's
// commands and a closing timestamp into a command buffer of its own, submits with a fence and waits.
// Devices without timestamp queries fall back to host wall time around submit + wait; the caller asks
// usesTimestamps() to say so in its report.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/context_impl.hpp"

namespace vkindex::bench {

struct Sample {
  double device_ms = 0.0;  // timestamps when available, else equal to wall_ms
  double wall_ms = 0.0;    // host time around vkQueueSubmit + vkWaitForFences
};

class CommandTimer {
 public:
  static StatusOr<std::unique_ptr<CommandTimer>> create(Context& context);
  ~CommandTimer();
  CommandTimer(const CommandTimer&) = delete;
  CommandTimer& operator=(const CommandTimer&) = delete;

  // Records `body` between the two timestamps, submits, waits for completion and returns the times.
  // Whatever `body` recorded has completed when this returns (also on a failed wait, the queue is idle).
  StatusOr<Sample> run(const std::function<Status(VkCommandBuffer)>& body);

  bool usesTimestamps() const { return query_pool_ != VK_NULL_HANDLE; }
  // "device timestamps (...)" or "host wall time (...)": how run() measures, for the report header.
  std::string describe() const;

 private:
  explicit CommandTimer(const vk::Device& device) : device_(device) {}
  Status record(const std::function<Status(VkCommandBuffer)>& body);
  StatusOr<double> readTimestamps() const;

  const vk::Device& device_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkQueryPool query_pool_ = VK_NULL_HANDLE;
  uint32_t valid_bits_ = 0;
};

}  // namespace vkindex::bench
