// The StatusBatches open on a Context (include/vkindex/status_batch.hpp): which command buffers record
// operations without their own status barrier to the host, because a batch's end() records one for all.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "vkindex/status_batch.hpp"

namespace vkindex {

struct StatusBatch::State {
  Context::Impl* context = nullptr;
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  bool ended = false;  // end() recorded the barrier
};

namespace kernels {

class StatusBatches {
 public:
  // Registers `batch`; false when a batch is already open on its command buffer.
  bool open(const std::shared_ptr<StatusBatch::State>& batch);
  void close(const StatusBatch::State* batch);
  // The batch open on `command_buffer`, or null.
  std::shared_ptr<StatusBatch::State> find(VkCommandBuffer command_buffer);

 private:
  std::mutex mutex_;
  std::vector<std::shared_ptr<StatusBatch::State>> open_;
};

}  // namespace kernels
}  // namespace vkindex
