// The command buffer vkindex records its own work into (uploads, downloads, the ops that submit and
// wait): one primary command buffer and a fence, reused call after call.
#pragma once

#include "vk/device.hpp"

namespace vkindex::vk {

class Submitter {
 public:
  static StatusOr<std::unique_ptr<Submitter>> create(const Device& device);
  ~Submitter();
  Submitter(const Submitter&) = delete;
  Submitter& operator=(const Submitter&) = delete;

  // Resets and begins the command buffer (one-time submit).
  StatusOr<VkCommandBuffer> begin();
  // Ends, submits to the device's queue, and waits for completion (the work has completed on return,
  // also when waiting failed).
  Status submitAndWait();

 private:
  explicit Submitter(const Device& device) : device_(device) {}

  const Device& device_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

}  // namespace vkindex::vk
