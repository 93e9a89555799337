// Times one command buffer's worth of work: a leading barrier, a timestamp, the caller's commands and
// a closing timestamp, submitted and waited for. Devices without timestamp queries fall back to host
// wall time around submit + wait; usesTimestamps() and describe() say which, for reports. Shared by
// `vkindex bench` and `vkindex onnx-test --repeat`.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/context_impl.hpp"

namespace vkindex::tools {

struct Sample {
  double device_ms = 0.0;  // timestamps when available, else equal to wall_ms
  double wall_ms = 0.0;    // host time around submit + wait
};

class CommandTimer {
 public:
  static StatusOr<std::unique_ptr<CommandTimer>> create(Context& context);
  ~CommandTimer();
  CommandTimer(const CommandTimer&) = delete;
  CommandTimer& operator=(const CommandTimer&) = delete;

  // Records `body` between the two timestamps, submits, waits for completion and returns the times.
  // Whatever `body` recorded has completed when this returns, also when it fails.
  StatusOr<Sample> run(const std::function<Status(VkCommandBuffer)>& body);

  bool usesTimestamps() const { return query_pool_ != VK_NULL_HANDLE; }
  // "device timestamps (...)" or "HOST WALL TIME (...)": how run() measures, for a report header.
  std::string describe() const;

 private:
  explicit CommandTimer(const vk::Device& device) : device_(device) {}
  StatusOr<double> readTimestamps() const;

  const vk::Device& device_;
  std::unique_ptr<vk::Submitter> submitter_;  // its own command buffer and fence, not the Context's
  VkQueryPool query_pool_ = VK_NULL_HANDLE;
};

}  // namespace vkindex::tools
