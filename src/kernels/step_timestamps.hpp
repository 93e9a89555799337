// A profiling hook, not part of the API: a timestamp after every dispatch an operation records, named
// by the dispatch's kernel, so that a tool can split an operation's device time by kernel (`vkindex
// bench --steps`). A tool sets Context::Impl::step_timestamps, calls begin() in the command buffer
// before the operation, and reads the split once the commands completed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/shader_registry.hpp"
#include "vk/device.hpp"

namespace vkindex::kernels {

// One kernel's share of an operation: the time from the dispatch (or stamp) before each of its
// dispatches to its end, summed over its dispatches.
struct KernelTime {
  std::string kernel;
  int dispatches = 0;
  double device_ms = 0.0;
};

class StepTimestamps {
 public:
  // Unavailable where the device's queue has no timestamps.
  static StatusOr<std::unique_ptr<StepTimestamps>> create(const vk::Device& device);
  ~StepTimestamps();
  StepTimestamps(const StepTimestamps&) = delete;
  StepTimestamps& operator=(const StepTimestamps&) = delete;

  // Starts a split: resets the queries and stamps the start, in `cmd` before the operation.
  void begin(VkCommandBuffer cmd);
  // Stamps the end of a dispatch of `kernel` recorded just before, in the same command buffer.
  void stamp(VkCommandBuffer cmd, ShaderId kernel);
  // The split since begin(), kernels in the order of their first dispatch; the commands have completed.
  StatusOr<std::vector<KernelTime>> read() const;

 private:
  static constexpr uint32_t kCapacity = 1024;  // stamps per split, begin()'s included

  explicit StepTimestamps(const vk::Device& device) : device_(device) {}

  const vk::Device& device_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  std::vector<ShaderId> kernels_;  // the kernel that ends at stamp i + 1
  bool overflowed_ = false;
};

}  // namespace vkindex::kernels
