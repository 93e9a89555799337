#include "latency_cases.hpp"

#include <cstring>
#include <utility>

#include "copy_baselines.hpp"
#include "core/context_impl.hpp"
#include "host_data.hpp"
#include "plan/segments.hpp"
#include "plan/shape.hpp"
#include "quantized_tables.hpp"
#include "vk/barriers.hpp"
#include "vkindex/tensor_scatter.hpp"

namespace vkindex::bench {
namespace {

// One embedding row: 1024 float32 = 4 KiB, the width of a 7B-class model's hidden state.
constexpr int64_t kHidden = 1024;
constexpr uint64_t kRowBytes = kHidden * 4;

// `count` views of `shape` into `storage`, one every `stride` bytes from its start.
StatusOr<std::vector<Tensor>> viewsOf(Context& context, const Tensor& storage, DataType type, const Shape& shape,
                                      VkDeviceSize stride, int count) {
  std::vector<Tensor> views;
  for (int i = 0; i < count; ++i) {
    VKINDEX_ASSIGN_OR_RETURN(Tensor view,
                             Tensor::view(context, type, shape, storage.buffer(), storage.offset() + stride * i,
                                          storage.offset() + storage.byteSize()));
    views.push_back(std::move(view));
  }
  return views;
}

Status expectEqual(const std::vector<uint8_t>& actual, const std::vector<uint8_t>& expected, const std::string& what) {
  if (actual != expected) return internalError(what + " differs from the CPU reference");
  return Status::Ok();
}

int64_t int64At(const std::vector<uint8_t>& bytes, size_t i) {
  int64_t value;
  std::memcpy(&value, bytes.data() + 8 * i, 8);
  return value;
}

// How a lookup names its rows: Gather's indices tensor, GatherND's (one-component tuples), or Gather's
// host indices, as a CPU sampler leaves them (HostIndices).
enum class Lookup { kGather, kGatherND, kHostIndices };

// Embedding rows: `rows` int64 indices into a float32 [vocab, 1024] table, axis 0, as `lookup` says.
class EmbeddingRows : public LatencyCase {
 public:
  static StatusOr<std::unique_ptr<LatencyCase>> create(Context& context, const std::string& name, int64_t vocab,
                                                       int64_t rows, Lookup lookup) {
    auto row = std::make_unique<EmbeddingRows>();
    const std::string count = std::to_string(rows);
    row->describe(name, lookup == Lookup::kGatherND ? "GatherND" : "Gather",
                  "float[" + std::to_string(vocab) + "," + std::to_string(kHidden) + "] x " +
                      (lookup == Lookup::kHostIndices ? "host int64[" + count + "], axis 0"
                       : lookup == Lookup::kGatherND  ? "int64[" + count + ",1]"
                                                      : "int64[" + count + "], axis 0"),
                  uint64_t(rows) * kRowBytes);
    row->rows_ = rows;
    row->lookup_ = lookup;
    const Shape table_shape = {vocab, kHidden};
    const std::vector<uint8_t> table = randomBytes(uint64_t(vocab * kHidden) * 4, 21);
    const std::vector<uint8_t> indices = randomIndices(DataType::kInt64, uint64_t(kBatchOps * rows), vocab, 22);
    row->expected_ = cpuGather(table, table_shape, 4, indices, DataType::kInt64, 0);
    VKINDEX_ASSIGN_OR_RETURN(row->table_,
                             Tensor::fromHost(context, DataType::kFloat32, table_shape, table.data(), table.size()));
    VKINDEX_ASSIGN_OR_RETURN(
        row->indices_, Tensor::fromHost(context, DataType::kInt64, {kBatchOps * rows}, indices.data(), indices.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->outputs_, Tensor::create(context, DataType::kFloat32, {kBatchOps * rows, kHidden}));
    const Shape index_shape = lookup == Lookup::kGatherND ? Shape{rows, 1} : Shape{rows};
    VKINDEX_ASSIGN_OR_RETURN(row->index_views_,
                             viewsOf(context, row->indices_, DataType::kInt64, index_shape, 8 * rows, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->output_views_, viewsOf(context, row->outputs_, DataType::kFloat32, {rows, kHidden},
                                                         row->written_bytes, kBatchOps));
    row->index_values_ = indices;
    return std::unique_ptr<LatencyCase>(std::move(row));
  }

  StatusOr<RecordedOp> record(Context& context, VkCommandBuffer cmd, int i) override {
    switch (lookup_) {
      case Lookup::kGatherND: return recordGatherND(context, cmd, table_, index_views_[i], 0, output_views_[i]);
      case Lookup::kHostIndices: return recordGather(context, cmd, table_, hostIndices(i), 0, output_views_[i]);
      default: return recordGather(context, cmd, table_, index_views_[i], 0, output_views_[i]);
    }
  }
  Status call(Context& context) override {
    switch (lookup_) {
      case Lookup::kGatherND: return gatherND(context, table_, index_views_[0], 0, output_views_[0]);
      case Lookup::kHostIndices: return gather(context, table_, hostIndices(0), 0, output_views_[0]);
      default: return gather(context, table_, index_views_[0], 0, output_views_[0]);
    }
  }
  Status check() const override {
    VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> actual, outputs_.toHost());
    return expectEqual(actual, expected_, name + " output");
  }

 private:
  // Operation i's indices, in host memory.
  HostIndices hostIndices(int i) const { return {DataType::kInt64, {rows_}, index_values_.data() + 8 * rows_ * i}; }

  int64_t rows_ = 1;
  Lookup lookup_ = Lookup::kGather;
  Tensor table_, indices_, outputs_;
  std::vector<Tensor> index_views_, output_views_;
  std::vector<uint8_t> index_values_;
  std::vector<uint8_t> expected_;
};

// A quantized embedding row: GatherBlockQuantized of one int64 token from an int4 [vocab, 2048] table
// (float16 scales per block of 32, int4 zero points) into float16: 4 KiB written, as the float rows.
class QuantizedRow : public LatencyCase {
 public:
  static constexpr int64_t kCodes = 2048;

  static StatusOr<std::unique_ptr<LatencyCase>> create(Context& context, int64_t vocab) {
    auto row = std::make_unique<QuantizedRow>();
    row->describe("gbq-1row", "GatherBlockQuantized",
                  "int4[" + std::to_string(vocab) + "," + std::to_string(kCodes) +
                      "] x int64[1], float16 scales, block 32, int4 zero points",
                  kCodes * 2);
    row->table_ = randomQuantizedTable(DataType::kInt4, vocab, kCodes, 32, 71);
    const std::vector<uint8_t> indices = randomIndices(DataType::kInt64, kBatchOps, vocab, 72);
    std::vector<int64_t> tokens(kBatchOps);
    std::memcpy(tokens.data(), indices.data(), indices.size());
    row->expected_ = dequantizedRows(row->table_, tokens);
    VKINDEX_ASSIGN_OR_RETURN(row->tensors_, uploadTable(context, row->table_));
    VKINDEX_ASSIGN_OR_RETURN(row->indices_,
                             Tensor::fromHost(context, DataType::kInt64, {kBatchOps}, indices.data(), indices.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->outputs_, Tensor::create(context, DataType::kFloat16, {kBatchOps, kCodes}));
    VKINDEX_ASSIGN_OR_RETURN(row->index_views_, viewsOf(context, row->indices_, DataType::kInt64, {1}, 8, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->output_views_, viewsOf(context, row->outputs_, DataType::kFloat16, {1, kCodes},
                                                         row->written_bytes, kBatchOps));
    return std::unique_ptr<LatencyCase>(std::move(row));
  }

  StatusOr<RecordedOp> record(Context& context, VkCommandBuffer cmd, int i) override {
    return recordGatherBlockQuantized(context, cmd, tensors_[0], index_views_[i], tensors_[1], &tensors_[2],
                                      table_.options(), output_views_[i]);
  }
  Status call(Context& context) override {
    return gatherBlockQuantized(context, tensors_[0], index_views_[0], tensors_[1], &tensors_[2], table_.options(),
                                output_views_[0]);
  }
  Status check() const override {
    VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> actual, outputs_.toHost());
    return expectEqual(actual, expected_, name + " output");
  }

 private:
  QuantizedTable table_;
  std::vector<Tensor> tensors_;  // data, scales, zero points
  Tensor indices_, outputs_;
  std::vector<Tensor> index_views_, output_views_;
  std::vector<uint8_t> expected_;
};

// An update of caches in place: kBatchOps caches (one per layer), each a view of one storage tensor,
// each written at its own int64 position from its own view of the updates.
class CacheUpdate : public LatencyCase {
 public:
  Status check() const override {
    VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> actual, caches_.toHost());
    return expectEqual(actual, expected_, name + " caches");
  }

 protected:
  Tensor caches_, positions_, updates_;
  std::vector<Tensor> cache_views_, position_views_, update_views_;
  std::vector<uint8_t> expected_;  // every cache after the updates
};

// A KV-cache row update: ScatterND in place of one [1, 1024] row into a float32 [rows, 1024] cache at one
// int64 position. The batch updates kBatchOps caches (one per layer), each a view of one storage tensor.
class ScatterRow : public CacheUpdate {
 public:
  static StatusOr<std::unique_ptr<LatencyCase>> create(Context& context, int64_t rows) {
    auto row = std::make_unique<ScatterRow>();
    row->describe("scatternd-1row", "ScatterND",
                  "float[" + std::to_string(rows) + "," + std::to_string(kHidden) + "] x int64[1,1] x float[1," +
                      std::to_string(kHidden) + "], in place",
                  kRowBytes);
    std::vector<uint8_t> caches = randomBytes(uint64_t(kBatchOps * rows) * kRowBytes, 31);
    const std::vector<uint8_t> updates = randomBytes(kBatchOps * kRowBytes, 32);
    const std::vector<uint8_t> positions = randomIndices(DataType::kInt64, kBatchOps, rows, 33);
    VKINDEX_ASSIGN_OR_RETURN(row->caches_, Tensor::fromHost(context, DataType::kFloat32, {kBatchOps * rows, kHidden},
                                                            caches.data(), caches.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->positions_, Tensor::fromHost(context, DataType::kInt64, {kBatchOps, 1},
                                                               positions.data(), positions.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->updates_, Tensor::fromHost(context, DataType::kFloat32, {kBatchOps, kHidden},
                                                             updates.data(), updates.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->cache_views_, viewsOf(context, row->caches_, DataType::kFloat32, {rows, kHidden},
                                                        rows * kRowBytes, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->position_views_,
                             viewsOf(context, row->positions_, DataType::kInt64, {1, 1}, 8, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->update_views_,
                             viewsOf(context, row->updates_, DataType::kFloat32, {1, kHidden}, kRowBytes, kBatchOps));
    // Cache i's row positions[i] becomes update row i.
    for (int i = 0; i < kBatchOps; ++i) {
      const uint64_t position = static_cast<uint64_t>(int64At(positions, static_cast<size_t>(i)));
      std::memcpy(caches.data() + (uint64_t(i * rows) + position) * kRowBytes, updates.data() + i * kRowBytes,
                  kRowBytes);
    }
    row->expected_ = std::move(caches);
    return std::unique_ptr<LatencyCase>(std::move(row));
  }

  StatusOr<RecordedOp> record(Context& context, VkCommandBuffer cmd, int i) override {
    return recordScatterND(context, cmd, cache_views_[i], position_views_[i], update_views_[i], Reduction::kNone,
                           cache_views_[i]);
  }
  Status call(Context& context) override {
    return scatterNDInPlace(context, cache_views_[0], position_views_[0], update_views_[0], Reduction::kNone);
  }
};

// A logit mask: ScatterElements in place of 8 float32 values into float[1, vocab] logits along axis 1 at
// int64 positions, the last two repeating the first (duplicates: the last writer wins). The batch writes
// kBatchOps logit rows, each a view of one storage tensor.
class ScatterElementsFew : public CacheUpdate {
 public:
  static constexpr int64_t kUpdates = 8;

  static StatusOr<std::unique_ptr<LatencyCase>> create(Context& context, int64_t vocab) {
    auto row = std::make_unique<ScatterElementsFew>();
    row->describe("scatterelements-8", "ScatterElements",
                  "float[1," + std::to_string(vocab) + "] x int64[1,8] x float[1,8], axis 1, in place", kUpdates * 4);
    const uint64_t logit_bytes = uint64_t(vocab) * 4;
    std::vector<uint8_t> logits = randomBytes(kBatchOps * logit_bytes, 41);
    const std::vector<uint8_t> updates = randomBytes(kBatchOps * kUpdates * 4, 42);
    std::vector<uint8_t> positions = randomIndices(DataType::kInt64, kBatchOps * kUpdates, vocab, 43);
    for (int i = 0; i < kBatchOps; ++i) {  // each op's last two positions repeat its first two
      uint8_t* op_positions = positions.data() + i * kUpdates * 8;
      std::memcpy(op_positions + (kUpdates - 2) * 8, op_positions, 16);
    }
    VKINDEX_ASSIGN_OR_RETURN(
        row->caches_, Tensor::fromHost(context, DataType::kFloat32, {kBatchOps, vocab}, logits.data(), logits.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->positions_, Tensor::fromHost(context, DataType::kInt64, {kBatchOps, kUpdates},
                                                               positions.data(), positions.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->updates_, Tensor::fromHost(context, DataType::kFloat32, {kBatchOps, kUpdates},
                                                             updates.data(), updates.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->cache_views_,
                             viewsOf(context, row->caches_, DataType::kFloat32, {1, vocab}, logit_bytes, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->position_views_, viewsOf(context, row->positions_, DataType::kInt64, {1, kUpdates},
                                                           kUpdates * 8, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->update_views_, viewsOf(context, row->updates_, DataType::kFloat32, {1, kUpdates},
                                                         kUpdates * 4, kBatchOps));
    // In index order, so a repeated position keeps its last update.
    for (int i = 0; i < kBatchOps; ++i) {
      for (int j = 0; j < kUpdates; ++j) {
        const size_t n = static_cast<size_t>(i * kUpdates + j);
        const uint64_t position = static_cast<uint64_t>(int64At(positions, n));
        std::memcpy(logits.data() + uint64_t(i) * logit_bytes + position * 4, updates.data() + n * 4, 4);
      }
    }
    row->expected_ = std::move(logits);
    return std::unique_ptr<LatencyCase>(std::move(row));
  }

  StatusOr<RecordedOp> record(Context& context, VkCommandBuffer cmd, int i) override {
    return recordScatterElements(context, cmd, cache_views_[i], position_views_[i], update_views_[i], 1,
                                 Reduction::kNone, cache_views_[i]);
  }
  Status call(Context& context) override {
    return scatterElementsInPlace(context, cache_views_[0], position_views_[0], update_views_[0], 1, Reduction::kNone);
  }
};

// One decode token into one layer's KV cache: TensorScatter in place, float16 cache [1, heads, max_seq,
// head_dim], update [1, heads, 1, head_dim] at an int64 write index (one per cache).
class TensorScatterToken : public CacheUpdate {
 public:
  static constexpr int64_t kHeads = 8, kHeadDim = 128;

  static StatusOr<std::unique_ptr<LatencyCase>> create(Context& context, int64_t max_seq) {
    auto row = std::make_unique<TensorScatterToken>();
    const Shape cache_shape = {1, kHeads, max_seq, kHeadDim};
    const Shape update_shape = {1, kHeads, 1, kHeadDim};
    const uint64_t head_row_bytes = kHeadDim * 2;
    const uint64_t cache_bytes = uint64_t(kHeads * max_seq) * head_row_bytes;
    row->describe("tensorscatter-1token", "TensorScatter",
                  "float16[1," + std::to_string(kHeads) + "," + std::to_string(max_seq) + "," +
                      std::to_string(kHeadDim) + "] x float16[1," + std::to_string(kHeads) + ",1," +
                      std::to_string(kHeadDim) + "] x int64[1], in place",
                  kHeads * head_row_bytes);
    std::vector<uint8_t> caches = randomBytes(kBatchOps * cache_bytes, 51);
    const std::vector<uint8_t> updates = randomBytes(kBatchOps * row->written_bytes, 52);
    const std::vector<uint8_t> positions = randomIndices(DataType::kInt64, kBatchOps, max_seq, 53);
    VKINDEX_ASSIGN_OR_RETURN(row->caches_,
                             Tensor::fromHost(context, DataType::kFloat16, {kBatchOps * kHeads * max_seq, kHeadDim},
                                              caches.data(), caches.size()));
    VKINDEX_ASSIGN_OR_RETURN(
        row->positions_, Tensor::fromHost(context, DataType::kInt64, {kBatchOps}, positions.data(), positions.size()));
    VKINDEX_ASSIGN_OR_RETURN(
        row->updates_,
        Tensor::fromHost(context, DataType::kFloat16, {kBatchOps * kHeads, kHeadDim}, updates.data(), updates.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->cache_views_,
                             viewsOf(context, row->caches_, DataType::kFloat16, cache_shape, cache_bytes, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->position_views_,
                             viewsOf(context, row->positions_, DataType::kInt64, {1}, 8, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->update_views_, viewsOf(context, row->updates_, DataType::kFloat16, update_shape,
                                                         row->written_bytes, kBatchOps));
    // Cache i, head h: row positions[i] becomes update i's head h.
    for (int i = 0; i < kBatchOps; ++i) {
      const uint64_t position = static_cast<uint64_t>(int64At(positions, static_cast<size_t>(i)));
      for (int64_t h = 0; h < kHeads; ++h) {
        std::memcpy(caches.data() + i * cache_bytes + (uint64_t(h * max_seq) + position) * head_row_bytes,
                    updates.data() + i * row->written_bytes + uint64_t(h) * head_row_bytes, head_row_bytes);
      }
    }
    row->expected_ = std::move(caches);
    return std::unique_ptr<LatencyCase>(std::move(row));
  }

  StatusOr<RecordedOp> record(Context& context, VkCommandBuffer cmd, int i) override {
    return recordTensorScatter(context, cmd, cache_views_[i], update_views_[i], &position_views_[i], {},
                               cache_views_[i]);
  }
  Status call(Context& context) override {
    return tensorScatterInPlace(context, cache_views_[0], update_views_[0], &position_views_[0]);
  }
};

}  // namespace

std::vector<std::unique_ptr<LatencyCase>> createLatencyCases(Context& context, bool quick,
                                                             std::vector<std::pair<std::string, Status>>& failures) {
  // Small tables keep the uploads cheap; the latency of one row does not depend on the table's size.
  const int64_t vocab = quick ? 1024 : 4096;
  const int64_t cache_rows = quick ? 16 : 64;
  const int64_t max_seq = quick ? 16 : 64;
  std::pair<const char*, StatusOr<std::unique_ptr<LatencyCase>>> created[] = {
      {"gather-1row", EmbeddingRows::create(context, "gather-1row", vocab, 1, Lookup::kGather)},
      {"gather-8rows", EmbeddingRows::create(context, "gather-8rows", vocab, 8, Lookup::kGather)},
      {"gather-1row-host", EmbeddingRows::create(context, "gather-1row-host", vocab, 1, Lookup::kHostIndices)},
      {"gathernd-1row", EmbeddingRows::create(context, "gathernd-1row", vocab, 1, Lookup::kGatherND)},
      {"scatternd-1row", ScatterRow::create(context, cache_rows)},
      {"scatterelements-8", ScatterElementsFew::create(context, vocab)},
      {"tensorscatter-1token", TensorScatterToken::create(context, max_seq)},
      {"gbq-1row", QuantizedRow::create(context, vocab)}};
  std::vector<std::unique_ptr<LatencyCase>> rows;
  for (auto& [name, row] : created) {
    if (row.ok()) {
      rows.push_back(std::move(*row));
    } else {
      failures.emplace_back(name, row.status());
    }
  }
  return rows;
}

StatusOr<std::unique_ptr<BareCopies>> BareCopies::create(Context& context, uint64_t bytes) {
  auto copies = std::unique_ptr<BareCopies>(new BareCopies());
  // Slots on the binding alignment (and whole quads, the copy kernel's unit).
  const uint64_t alignment = std::max<uint64_t>(implOf(context).device->info().min_storage_buffer_offset_alignment, 16);
  copies->bytes_ = bytes;
  copies->slot_bytes_ = plan::alignUp(bytes, alignment);
  const plan::Tuning& tuning = implOf(context).tuning.values;
  const uint64_t quads = (bytes + 15) / 16;
  const plan::SegmentLayout segments = plan::segmentLayout(tuning, tuning.workgroup_size, quads);
  copies->layout_ = CopyLayout{segments.lanes, segments.items};
  copies->layout_.workgroup =
      plan::workgroupForWork(segments.segmentsOf(quads) * segments.lanes, segments.lanes, tuning.workgroup_size,
                             implOf(context).device->info().subgroup_size);
  const std::vector<uint8_t> sources = randomBytes(kBatchOps * copies->slot_bytes_, 61);
  VKINDEX_ASSIGN_OR_RETURN(copies->sources_, Tensor::fromHost(context, DataType::kUInt8, {int64_t(sources.size())},
                                                              sources.data(), sources.size()));
  VKINDEX_ASSIGN_OR_RETURN(copies->targets_, Tensor::create(context, DataType::kUInt8, {int64_t(sources.size())}));
  return copies;
}

Status BareCopies::record(Context& context, VkCommandBuffer cmd, int i, bool host_barrier) {
  const uint64_t slot = slot_bytes_ * static_cast<uint64_t>(i);
  Context::Impl& impl = implOf(context);
  VKINDEX_ASSIGN_OR_RETURN(kernels::DescriptorPool pool,
                           recordComputeCopy(impl, cmd, sources_.buffer(), targets_.buffer(), bytes_, layout_,
                                             sources_.offset() + slot, targets_.offset() + slot));
  pools_.push_back(std::move(pool));
  if (host_barrier) {
    vk::recordBufferBarrier(impl.device->fn(), cmd, targets_.buffer(), targets_.offset() + slot, bytes_,
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  }
  return Status::Ok();
}

void BareCopies::clear() { pools_.clear(); }

Status BareCopies::check() const {
  VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> sources, sources_.toHost());
  VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> targets, targets_.toHost());
  for (uint64_t i = 0; i < kBatchOps; ++i) {
    const uint64_t slot = i * slot_bytes_;
    if (std::memcmp(sources.data() + slot, targets.data() + slot, bytes_) != 0) {
      return internalError("the bare-dispatch copy " + std::to_string(i) + " differs from its source");
    }
  }
  return Status::Ok();
}

}  // namespace vkindex::bench
