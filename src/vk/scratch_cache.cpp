#include "vk/scratch_cache.hpp"

#include <utility>

namespace vkindex::vk {

StatusOr<std::unique_ptr<Buffer>> ScratchCache::acquire(uint64_t bytes) {
  std::unique_ptr<Buffer> freed;  // destroyed outside the lock
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (kept_ && kept_->size() >= bytes && kept_->size() / 2 <= bytes) return std::move(kept_);
  }
  const auto create = [&] { return Buffer::create(device_, bytes, Buffer::Kind::kDevice, "scratch buffer"); };
  StatusOr<Buffer> created = create();
  if (!created.ok() && created.status().code() == StatusCode::kResourceExhausted) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      freed = std::move(kept_);
    }
    if (freed) {
      freed.reset();
      created = create();
    }
  }
  if (!created.ok()) return created.status();
  return std::make_unique<Buffer>(std::move(*created));
}

uint64_t ScratchCache::keptBytes() {
  std::lock_guard<std::mutex> lock(mutex_);
  return kept_ ? kept_->size() : 0;
}

void ScratchCache::release(std::unique_ptr<Buffer> buffer) {
  if (!buffer || buffer->size() > kMaxKeptBytes) return;
  std::lock_guard<std::mutex> lock(mutex_);
  kept_.swap(buffer);  // the previously kept one, if any, is freed with `buffer`
}

}  // namespace vkindex::vk
