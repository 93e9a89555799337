// The rows of the bench's KV-cache section: the shapes of an LLM's caches, which positions each row
// writes, and how its operators are recorded (one per cache, all into the caller's command buffer).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kv_cache_store.hpp"
#include "vkindex/ops.hpp"
#include "vkindex/tensor_scatter.hpp"

namespace vkindex::bench {

// The section's sizes. The default is a 7B-class model with grouped-query attention: 32 layers, each a
// K and a V cache of float16 [1, heads 8, max_seq 4096, head_dim 128] (8 MiB each, 512 MiB in all).
struct KvCacheSizes {
  int layers = 32;
  int64_t heads = 8;
  int64_t max_seq = 4096;
  int64_t head_dim = 128;
  int64_t decode_position = 512;  // decode-step writes one token here, after a 512-token prompt
  int64_t prefill_tokens = 512;   // prefill-512 writes positions [0, 512)
  int64_t circular_tokens = 16;   // kv-circular writes this many from circular_index on, wrapping
  int64_t circular_index = 4090;  // 6 tokens before the end of the cache, 10 after its start
  int64_t pool_slots = 16384;     // paged-kv's pool: 1024 blocks of 16 slots, float16 [slots, 8, 128]
  int64_t paged_tokens = 32;      // one token each of 32 sequences, written to scattered slots

  int caches() const { return 2 * layers; }
  uint64_t rowBytes() const { return static_cast<uint64_t>(head_dim) * 2; }
};

// The default sizes, or with `quick` 2 layers, max_seq 1024 and a 4096-slot pool (the same rows, smaller).
KvCacheSizes kvCacheSizes(bool quick);

// One row: every cache of `caches` written at the same positions by one operator per cache.
class KvRow {
 public:
  virtual ~KvRow() = default;
  // Records one operator per cache into `cmd`, its update a view of `source`, appending the operators
  // to `ops` (also those recorded before a failure, so that the caller can finish them).
  virtual Status record(Context& context, VkCommandBuffer cmd, std::vector<RecordedOp>& ops) = 0;

  std::string name;
  std::string op;
  std::string shapes;
  std::string note;  // printed under the row's description when not empty
  KvCacheSet* caches = nullptr;
  const KvUpdateSource* source = nullptr;
  // Token t of every update lands at positions[t] of its cache; -1: a padding token, written nowhere.
  std::vector<int64_t> positions;
};

// TensorScatter in place (recordTensorScatter with output = the cache) of `tokens` tokens at write
// index `write_index` into every cache of `caches`, one int64 write index shared by all.
StatusOr<std::unique_ptr<KvRow>> makeTensorScatterRow(Context& context, const std::string& name,
                                                      const KvCacheSizes& sizes, KvCacheSet& caches,
                                                      const KvUpdateSource& source, int64_t tokens, int64_t write_index,
                                                      TensorScatterMode mode);

// ScatterND in place (reduction none) of sizes.paged_tokens rows of [8, 128] into the paged pool
// `pool` (one cache), at distinct random slots.
StatusOr<std::unique_ptr<KvRow>> makePagedRow(Context& context, const std::string& name, const KvCacheSizes& sizes,
                                              KvCacheSet& pool, const KvUpdateSource& source);

}  // namespace vkindex::bench
