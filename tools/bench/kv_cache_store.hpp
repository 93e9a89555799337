// The memory of the bench's KV-cache section and what it must hold. Caches (or a paged pool) start as a
// known pseudo-random pattern; updates come from storage holding another pattern; a host model records
// which update token each cache position holds after the writes so far. So every byte of every cache
// can be checked against the CPU's expectation without a host copy of the caches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkindex/tensor.hpp"

namespace vkindex::bench {

// Word `index` of the pseudo-random stream `seed` (streams of distinct seeds share no word positions
// below 2^32 words).
uint32_t kvPatternWord(uint64_t seed, uint64_t index);

// A cache seen as [heads, positions, row_bytes]: a float16 [1, 8, 4096, 128] cache is 8 heads of 4096
// rows of 256 bytes; a float16 paged pool [16384, 8, 128] is one "head" of 16384 slots of 2 KiB.
struct KvCacheLayout {
  uint64_t heads = 0;
  uint64_t positions = 0;
  uint64_t row_bytes = 0;  // a multiple of 4
  uint64_t bytes() const { return heads * positions * row_bytes; }
};

// Device storage holding the stream `seed`, cut into equal slots: the update of cache i is a view at
// slot i. Each slot is laid out [heads, tokens, row_bytes], as a TensorScatter or ScatterND update is.
class KvUpdateSource {
 public:
  static StatusOr<KvUpdateSource> create(Context& context, uint64_t slots, uint64_t slot_bytes, uint64_t seed);

  // A view of `shape` and `type` at the start of slot `slot`.
  StatusOr<Tensor> view(Context& context, uint64_t slot, DataType type, const Shape& shape) const;
  const Tensor& storage() const { return storage_; }
  uint64_t slotBytes() const { return slot_bytes_; }
  uint64_t seed() const { return seed_; }

 private:
  Tensor storage_;
  uint64_t slot_bytes_ = 0;
  uint64_t seed_ = 0;
};

// `count` caches of one layout, each its own device tensor, and the model of their contents. Every
// write the section makes covers every cache at the same positions, so the model is one entry per
// position.
class KvCacheSet {
 public:
  static StatusOr<KvCacheSet> create(Context& context, int count, const KvCacheLayout& layout, DataType type,
                                     const Shape& shape, uint64_t seed);

  // Uploads every cache's pattern and forgets every write.
  Status reset();
  // Records that in every cache, position positions[t] now holds token t of an update of
  // positions.size() tokens from `source` (which must outlive this set's checks).
  void wrote(const KvUpdateSource& source, const std::vector<int64_t>& positions);
  // Downloads the caches numbered in `which` (every cache where empty) and compares every word with the
  // model; the first difference is named (cache, head, position, byte), with `what` saying which writer
  // was being checked.
  Status check(const std::string& what, const std::vector<int>& which = {}) const;

  Tensor& cache(int i) { return caches_[static_cast<size_t>(i)]; }
  int count() const { return static_cast<int>(caches_.size()); }
  const KvCacheLayout& layout() const { return layout_; }

 private:
  // Who wrote a position last: nobody (the cache's own pattern) or token `token` of an update of
  // `tokens` tokens from `source`.
  struct Writer {
    const KvUpdateSource* source = nullptr;
    uint64_t token = 0;
    uint64_t tokens = 0;
  };
  std::vector<Tensor> caches_;
  KvCacheLayout layout_;
  uint64_t seed_ = 0;
  std::vector<Writer> writers_;  // one per position
};

}  // namespace vkindex::bench
