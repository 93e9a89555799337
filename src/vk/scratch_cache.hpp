// Scratch memory for operations (winner tables, the fold by owner's arrays), kept between them: a
// new buffer per call costs an allocation on a GPU and, on a CPU driver, a page fault per page the
// kernels first touch, most of a small operation's device time (docs/tuning.md). One idle buffer is
// kept per context, up to kMaxKeptBytes.
// Operations never rely on what scratch holds: every plan writes its scratch before reading it.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

#include "vk/buffer.hpp"

namespace vkindex::vk {

class ScratchCache {
 public:
  // The largest idle buffer kept; larger ones are freed when their operation ends.
  static constexpr uint64_t kMaxKeptBytes = uint64_t(64) << 20;

  explicit ScratchCache(const Device& device) : device_(device) {}

  // A device buffer of at least `bytes`: the kept one where it is large enough and not more than
  // twice as large (so a small call does not pin a large buffer), else a new one. A new buffer that
  // fails for lack of memory is tried again after the kept one is freed.
  StatusOr<std::unique_ptr<Buffer>> acquire(uint64_t bytes);

  // Takes back a buffer whose commands completed: it becomes the kept one if it may.
  void release(std::unique_ptr<Buffer> buffer);

  // The kept buffer's size, 0 for none.
  uint64_t keptBytes();

 private:
  const Device& device_;
  std::mutex mutex_;
  std::unique_ptr<Buffer> kept_;
};

}  // namespace vkindex::vk
