#include "kernels/status_board.hpp"

#include "common/abi.h"
#include "plan/windows.hpp"

namespace vkindex::kernels {

StatusOr<std::unique_ptr<StatusBoard>> StatusBoard::create(const vk::Device& device) {
  // The alignment is a power of two of at most 256 (Vulkan's limit) and at least 16 (kSlotBytes), so the
  // board (the acquirable slots and the clean one) is at most 256 KiB and 256 bytes.
  const VkDeviceSize stride = plan::bindingAlignment(device.info());
  VKINDEX_ASSIGN_OR_RETURN(vk::Buffer buffer, vk::Buffer::create(device, (kSlotCount + 1) * stride,
                                                                 vk::Buffer::Kind::kReadback, "status board"));
  std::unique_ptr<StatusBoard> board(new StatusBoard(std::move(buffer), stride));
  // The clean slot, after the others: host-coherent memory, so the first submission sees it.
  static_cast<uint32_t*>(board->buffer_.mapped())[board->offsetOf(kSlotCount) / 4] = VKINDEX_NO_ERROR;
  for (uint32_t slot = kSlotCount; slot-- > 0;) board->free_.push_back(slot);
  return board;
}

StatusOr<uint32_t> StatusBoard::acquire() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (free_.empty()) {
    return unsupported("more than " + std::to_string(kSlotCount) +
                       " recorded operations are pending: call finish() on completed ones");
  }
  uint32_t slot = free_.back();
  free_.pop_back();
  return slot;
}

void StatusBoard::release(uint32_t slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  free_.push_back(slot);
}

StatusBoard::Report StatusBoard::read(uint32_t slot) const {
  // Coherent memory, read after the fence (or the application's wait) made device writes available;
  // volatile keeps the compiler from reusing an earlier read of the same slot.
  const volatile uint32_t* words = static_cast<const volatile uint32_t*>(buffer_.mapped()) + offsetOf(slot) / 4;
  Report report;
  report.position = words[0];
  report.value = static_cast<int64_t>(uint64_t(words[1]) | (uint64_t(words[2]) << 32));
  return report;
}

}  // namespace vkindex::kernels
