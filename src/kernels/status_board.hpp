// The device status slots: one 16-byte slot per operation in flight, in host-visible memory so the host
// reads a result without a transfer. Slots lie minStorageBufferOffsetAlignment apart, so each is bound
// on its own: a binding aligned down to a neighbour's slot would put that slot inside this operation's
// ranges, which its reset and barriers (16 bytes) do not cover, and synchronization validation reports
// hazards between independent operations recorded into one command buffer (it did on SwiftShader,
// alignment 256). A kernel that finds a bad index atomicMin()s its position into
// the operation's slot; the slot is reset on the device (vkCmdFillBuffer) at the start of every
// recording, so a command buffer can be submitted again and again.
#pragma once

#include <mutex>
#include <vector>

#include "kernels/recorder.hpp"
#include "vk/buffer.hpp"

namespace vkindex::kernels {

class StatusBoard {
 public:
  // 1024 slots: operations recorded into application command buffers and not yet finished. The own
  // submission path holds one slot at a time.
  static constexpr uint32_t kSlotCount = 1024;

  static StatusOr<std::unique_ptr<StatusBoard>> create(const vk::Device& device);

  StatusOr<uint32_t> acquire();
  void release(uint32_t slot);
  // A slot's content once the device finished with it.
  struct Report {
    uint32_t position = 0;  // VKINDEX_NO_ERROR, or the flat position of the first bad index
    int64_t value = 0;      // that index's value (sign-extended for int32 indices)
  };
  Report read(uint32_t slot) const;

  static constexpr VkDeviceSize kSlotBytes = 16;  // VKINDEX_STATUS_SLOT_WORDS words
  // The slot's 16 bytes: what a dispatch binds (the kernels' status_slot push constant is 0, the slot's
  // index in its binding), what the recording resets and what its barriers cover.
  BufferRange slotRange(uint32_t slot) const { return {buffer_.handle(), offsetOf(slot), kSlotBytes}; }
  // A slot no operation acquires, VKINDEX_NO_ERROR from the board's creation on and never written: what
  // the dispatches of a plan that checks nothing on the device bind (plan::writesStatusSlot), so that
  // their status gates pass with no reset and no barrier.
  BufferRange cleanRange() const { return slotRange(kSlotCount); }
  // Every acquirable slot: what a StatusBatch's one barrier to the host covers.
  BufferRange boardRange() const { return {buffer_.handle(), 0, offsetOf(kSlotCount)}; }

 private:
  StatusBoard(vk::Buffer buffer, VkDeviceSize slot_stride) : buffer_(std::move(buffer)), slot_stride_(slot_stride) {}

  VkDeviceSize offsetOf(uint32_t slot) const { return VkDeviceSize(slot) * slot_stride_; }

  vk::Buffer buffer_;
  VkDeviceSize slot_stride_;  // kSlotBytes or the device's binding alignment, whichever is larger
  std::mutex mutex_;
  std::vector<uint32_t> free_;
};

}  // namespace vkindex::kernels
