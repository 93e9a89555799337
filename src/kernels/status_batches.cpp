#include "kernels/status_batches.hpp"

#include <algorithm>

namespace vkindex::kernels {

bool StatusBatches::open(const std::shared_ptr<StatusBatch::State>& batch) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& other : open_) {
    if (other->command_buffer == batch->command_buffer) return false;
  }
  open_.push_back(batch);
  return true;
}

void StatusBatches::close(const StatusBatch::State* batch) {
  std::lock_guard<std::mutex> lock(mutex_);
  open_.erase(std::remove_if(open_.begin(), open_.end(), [&](const auto& other) { return other.get() == batch; }),
              open_.end());
}

std::shared_ptr<StatusBatch::State> StatusBatches::find(VkCommandBuffer command_buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& batch : open_) {
    if (batch->command_buffer == command_buffer) return batch;
  }
  return nullptr;
}

}  // namespace vkindex::kernels
