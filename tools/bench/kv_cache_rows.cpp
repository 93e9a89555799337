#include "kv_cache_rows.hpp"

#include <utility>

#include "host_data.hpp"

namespace vkindex::bench {
namespace {

std::string dimsText(const Shape& shape) {
  std::string text = "[";
  for (size_t d = 0; d < shape.size(); ++d) text += (d ? "," : "") + std::to_string(shape[d]);
  return text + "]";
}

class TensorScatterRow : public KvRow {
 public:
  Status record(Context& context, VkCommandBuffer cmd, std::vector<RecordedOp>& ops) override {
    for (int i = 0; i < caches->count(); ++i) {
      Tensor& cache = caches->cache(i);
      VKINDEX_ASSIGN_OR_RETURN(
          RecordedOp recorded,
          recordTensorScatter(context, cmd, cache, updates_[static_cast<size_t>(i)], &write_index_, options_, cache));
      ops.push_back(std::move(recorded));
    }
    return Status::Ok();
  }

  std::vector<Tensor> updates_;  // one view per cache, slot i of the source
  Tensor write_index_;           // int64 [1], shared by every cache's write
  TensorScatterOptions options_;
};

class PagedRow : public KvRow {
 public:
  Status record(Context& context, VkCommandBuffer cmd, std::vector<RecordedOp>& ops) override {
    Tensor& pool = caches->cache(0);
    VKINDEX_ASSIGN_OR_RETURN(RecordedOp recorded, recordScatterND(context, cmd, pool, slots_, updates_,
                                                                  Reduction::kNone, pool, IndexPolicy::kSkip));
    ops.push_back(std::move(recorded));
    return Status::Ok();
  }

  Tensor slots_;    // int64 [tokens, 1], -1 for the padding tokens
  Tensor updates_;  // float16 [tokens, heads, head_dim], slot 0 of the source
};

}  // namespace

KvCacheSizes kvCacheSizes(bool quick) {
  KvCacheSizes sizes;
  if (!quick) return sizes;
  sizes.layers = 2;
  sizes.max_seq = 1024;
  sizes.circular_index = sizes.max_seq - 6;
  sizes.pool_slots = 4096;
  return sizes;
}

StatusOr<std::unique_ptr<KvRow>> makeTensorScatterRow(Context& context, const std::string& name,
                                                      const KvCacheSizes& sizes, KvCacheSet& caches,
                                                      const KvUpdateSource& source, int64_t tokens, int64_t write_index,
                                                      TensorScatterMode mode) {
  auto row = std::make_unique<TensorScatterRow>();
  const bool circular = mode == TensorScatterMode::kCircular;
  const Shape cache_shape = {1, sizes.heads, sizes.max_seq, sizes.head_dim};
  const Shape update_shape = {1, sizes.heads, tokens, sizes.head_dim};
  row->name = name;
  row->op = "TensorScatter";
  row->shapes = std::to_string(sizes.layers) + " layers x K,V float16" + dimsText(cache_shape) + ", update " +
                dimsText(update_shape) + " at write index " + std::to_string(write_index) +
                (circular ? ", circular" : "") + ", in place";
  row->caches = &caches;
  row->source = &source;
  for (int64_t t = 0; t < tokens; ++t)
    row->positions.push_back(circular ? (write_index + t) % sizes.max_seq : write_index + t);
  row->options_.mode = mode;
  VKINDEX_ASSIGN_OR_RETURN(row->write_index_, Tensor::fromHost(context, DataType::kInt64, {1}, &write_index, 8));
  for (int i = 0; i < caches.count(); ++i) {
    VKINDEX_ASSIGN_OR_RETURN(Tensor update,
                             source.view(context, static_cast<uint64_t>(i), DataType::kFloat16, update_shape));
    row->updates_.push_back(std::move(update));
  }
  return std::unique_ptr<KvRow>(std::move(row));
}

StatusOr<std::unique_ptr<KvRow>> makePagedRow(Context& context, const std::string& name, const KvCacheSizes& sizes,
                                              KvCacheSet& pool, const KvUpdateSource& source) {
  auto row = std::make_unique<PagedRow>();
  const Shape pool_shape = {sizes.pool_slots, sizes.heads, sizes.head_dim};
  const Shape update_shape = {sizes.paged_tokens, sizes.heads, sizes.head_dim};
  row->name = name;
  row->op = "ScatterND";
  row->shapes = "float16" + dimsText(pool_shape) + " x int64[" + std::to_string(sizes.paged_tokens) + ",1] x float16" +
                dimsText(update_shape) + ", reduction none, skip policy (every 8th slot -1: padding), in place";
  row->caches = &pool;
  row->source = &source;
  // Distinct slots, so that the result does not depend on which of two writes to one slot lands last;
  // every 8th token is padding (slot -1), which the skip policy leaves out.
  const std::vector<int64_t> order = randomPermutation(sizes.pool_slots, 41);
  row->positions.assign(order.begin(), order.begin() + sizes.paged_tokens);
  for (size_t t = 7; t < row->positions.size(); t += 8) row->positions[t] = -1;
  VKINDEX_ASSIGN_OR_RETURN(row->slots_, Tensor::fromHost(context, DataType::kInt64, {sizes.paged_tokens, 1},
                                                         row->positions.data(), row->positions.size() * 8));
  VKINDEX_ASSIGN_OR_RETURN(row->updates_, source.view(context, 0, DataType::kFloat16, update_shape));
  return std::unique_ptr<KvRow>(std::move(row));
}

}  // namespace vkindex::bench
