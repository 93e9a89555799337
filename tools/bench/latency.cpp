#include "latency.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "host_data.hpp"
#include "json_line.hpp"
#include "table_text.hpp"
#include "timing_math.hpp"

namespace vkindex::bench {
namespace {

// Operations per command buffer in the batched measurement: an engine's decode step records about one
// such operation per layer, and 100 is near the layer count of the largest common models (and far below
// the 1024 status slots a Context has for pending recorded operations).
constexpr int kBatchOps = 100;
// One embedding row: 1024 float32 = 4 KiB, the width of a 7B-class model's hidden state.
constexpr int64_t kHidden = 1024;

// kBatchOps operations of one shape, each on its own views of shared storage: disjoint outputs, so a
// batch needs no barriers between its operations. Operation 0 alone is the single-operation case.
class LatencyCase {
 public:
  virtual ~LatencyCase() = default;
  // Records operation `i` (0 <= i < kBatchOps) into `cmd`.
  virtual StatusOr<RecordedOp> record(Context& context, VkCommandBuffer cmd, int i) = 0;
  // Operation 0 through the synchronous API (its submit-and-wait form into an existing output).
  virtual Status call(Context& context) = 0;
  // Compares every operation's output with the CPU's. Every operation is idempotent, so any number of
  // runs leaves the same bytes.
  virtual Status check() const = 0;

  std::string name;
  std::string op;
  std::string shapes;
};

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

// One token's embedding row: Gather axis 0 of a float32 [vocab, 1024] table with one int64 index, in an
// indices tensor or (`host_indices`) in host memory, as a CPU sampler leaves it (HostIndices).
class GatherRow : public LatencyCase {
 public:
  static StatusOr<std::unique_ptr<LatencyCase>> create(Context& context, int64_t vocab, bool host_indices) {
    auto row = std::make_unique<GatherRow>();
    row->name = host_indices ? "gather-1row-host" : "gather-1row";
    row->op = "Gather";
    row->shapes = "float[" + std::to_string(vocab) + "," + std::to_string(kHidden) + "] x " +
                  (host_indices ? "host " : "") + "int64[1], axis 0";
    row->host_indices_ = host_indices;
    const Shape table_shape = {vocab, kHidden};
    const std::vector<uint8_t> table = randomBytes(uint64_t(vocab * kHidden) * 4, 21);
    const std::vector<uint8_t> indices = randomIndices(DataType::kInt64, kBatchOps, vocab, 22);
    row->expected_ = cpuGather(table, table_shape, 4, indices, DataType::kInt64, 0);
    VKINDEX_ASSIGN_OR_RETURN(row->table_,
                             Tensor::fromHost(context, DataType::kFloat32, table_shape, table.data(), table.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->indices_,
                             Tensor::fromHost(context, DataType::kInt64, {kBatchOps}, indices.data(), indices.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->outputs_, Tensor::create(context, DataType::kFloat32, {kBatchOps, kHidden}));
    VKINDEX_ASSIGN_OR_RETURN(row->index_views_, viewsOf(context, row->indices_, DataType::kInt64, {1}, 8, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->output_views_,
                             viewsOf(context, row->outputs_, DataType::kFloat32, {1, kHidden}, kHidden * 4, kBatchOps));
    row->index_values_ = indices;
    return std::unique_ptr<LatencyCase>(std::move(row));
  }

  StatusOr<RecordedOp> record(Context& context, VkCommandBuffer cmd, int i) override {
    if (host_indices_) return recordGather(context, cmd, table_, hostIndex(i), 0, output_views_[i]);
    return recordGather(context, cmd, table_, index_views_[i], 0, output_views_[i]);
  }
  Status call(Context& context) override {
    if (host_indices_) return gather(context, table_, hostIndex(0), 0, output_views_[0]);
    return gather(context, table_, index_views_[0], 0, output_views_[0]);
  }
  Status check() const override {
    VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> actual, outputs_.toHost());
    return expectEqual(actual, expected_, name + " output");
  }

 private:
  // Operation i's index, in host memory.
  HostIndices hostIndex(int i) const { return {DataType::kInt64, {1}, index_values_.data() + 8 * i}; }

  bool host_indices_ = false;
  Tensor table_, indices_, outputs_;
  std::vector<Tensor> index_views_, output_views_;
  std::vector<uint8_t> index_values_;
  std::vector<uint8_t> expected_;
};

// A KV-cache row update: ScatterND in place of one [1, 1024] row into a float32 [rows, 1024] cache at one
// int64 position. The batch updates kBatchOps caches (one per layer), each a view of one storage tensor.
class ScatterRow : public LatencyCase {
 public:
  static StatusOr<std::unique_ptr<LatencyCase>> create(Context& context, int64_t rows) {
    auto row = std::make_unique<ScatterRow>();
    row->name = "scatternd-1row";
    row->op = "ScatterND";
    row->shapes = "float[" + std::to_string(rows) + "," + std::to_string(kHidden) + "] x int64[1,1] x float[1," +
                  std::to_string(kHidden) + "], in place";
    const uint64_t row_bytes = kHidden * 4;
    std::vector<uint8_t> caches = randomBytes(uint64_t(kBatchOps * rows) * row_bytes, 31);
    const std::vector<uint8_t> updates = randomBytes(kBatchOps * row_bytes, 32);
    const std::vector<uint8_t> positions = randomIndices(DataType::kInt64, kBatchOps, rows, 33);
    VKINDEX_ASSIGN_OR_RETURN(row->caches_, Tensor::fromHost(context, DataType::kFloat32, {kBatchOps * rows, kHidden},
                                                            caches.data(), caches.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->positions_, Tensor::fromHost(context, DataType::kInt64, {kBatchOps, 1},
                                                               positions.data(), positions.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->updates_, Tensor::fromHost(context, DataType::kFloat32, {kBatchOps, kHidden},
                                                             updates.data(), updates.size()));
    VKINDEX_ASSIGN_OR_RETURN(row->cache_views_, viewsOf(context, row->caches_, DataType::kFloat32, {rows, kHidden},
                                                        rows * row_bytes, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->position_views_,
                             viewsOf(context, row->positions_, DataType::kInt64, {1, 1}, 8, kBatchOps));
    VKINDEX_ASSIGN_OR_RETURN(row->update_views_,
                             viewsOf(context, row->updates_, DataType::kFloat32, {1, kHidden}, row_bytes, kBatchOps));
    // Cache i's row positions[i] becomes update row i.
    for (int i = 0; i < kBatchOps; ++i) {
      int64_t position;
      std::memcpy(&position, positions.data() + 8 * i, 8);
      std::memcpy(caches.data() + (uint64_t(i * rows + position)) * row_bytes, updates.data() + i * row_bytes,
                  row_bytes);
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
  Status check() const override {
    VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> actual, caches_.toHost());
    return expectEqual(actual, expected_, name + " caches");
  }

 private:
  Tensor caches_, positions_, updates_;
  std::vector<Tensor> cache_views_, position_views_, update_views_;
  std::vector<uint8_t> expected_;
};

// Runs per measurement: single operations are cheap (~0.1 ms on the CPU drivers), batches 100x that.
int singleRuns(bool quick) { return quick ? 20 : 100; }
int batchRuns(bool quick) { return quick ? 3 : 10; }

struct LatencyResult {
  // Medians, in microseconds.
  double record_us = 0.0;        // host time of one record* call
  double device_us = 0.0;        // device time of one recorded operation (timestamps around it)
  double call_us = 0.0;          // host time of one synchronous call, submission and wait included
  double batch_record_us = 0.0;  // host time per operation when kBatchOps are recorded in a row
  double batch_device_us = 0.0;  // device time of the whole batch / kBatchOps
  int runs = 0;
  int batch_runs = 0;
};

// Records the operations [first, first + count) of `row` in one timed command buffer and finishes them.
// Returns the device time and (in `record_ms`) the host time spent in the record* calls.
StatusOr<tools::Sample> runRecorded(Context& context, tools::CommandTimer& timer, LatencyCase& row, int count,
                                    double& record_ms) {
  std::vector<RecordedOp> ops;
  ops.reserve(static_cast<size_t>(count));
  StatusOr<tools::Sample> sample = timer.run([&](VkCommandBuffer cmd) -> Status {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) {
      VKINDEX_ASSIGN_OR_RETURN(RecordedOp op, row.record(context, cmd, i));
      ops.push_back(std::move(op));
    }
    record_ms = tools::millisecondsSince(start);
    return Status::Ok();
  });
  // The timer returns once the commands completed (also on failure), so finishing is always allowed.
  Status finished;
  for (RecordedOp& op : ops) {
    Status status = op.finish();
    if (finished.ok()) finished = status;
  }
  VKINDEX_RETURN_IF_ERROR(sample.status());
  VKINDEX_RETURN_IF_ERROR(finished);
  return sample;
}

StatusOr<LatencyResult> measureLatency(Context& context, tools::CommandTimer& timer, LatencyCase& row, bool quick) {
  LatencyResult result;
  result.runs = singleRuns(quick);
  result.batch_runs = batchRuns(quick);
  std::vector<double> record, device, call, batch_record, batch_device;
  // Run -1 warms up, untimed: pipelines are created and the views' memory touched.
  for (int run = -1; run < result.runs; ++run) {
    double record_ms = 0.0;
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample sample, runRecorded(context, timer, row, 1, record_ms));
    const auto start = std::chrono::steady_clock::now();
    VKINDEX_RETURN_IF_ERROR(row.call(context));
    const double call_ms = tools::millisecondsSince(start);
    if (run < 0) continue;
    record.push_back(record_ms * 1e3);
    device.push_back(sample.device_ms * 1e3);
    call.push_back(call_ms * 1e3);
  }
  for (int run = 0; run < result.batch_runs; ++run) {
    double record_ms = 0.0;
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample sample, runRecorded(context, timer, row, kBatchOps, record_ms));
    batch_record.push_back(record_ms * 1e3 / kBatchOps);
    batch_device.push_back(sample.device_ms * 1e3 / kBatchOps);
  }
  VKINDEX_RETURN_IF_ERROR(row.check());
  result.record_us = tools::medianOf(record);
  result.device_us = tools::medianOf(device);
  result.call_us = tools::medianOf(call);
  result.batch_record_us = tools::medianOf(batch_record);
  result.batch_device_us = tools::medianOf(batch_device);
  return result;
}

double rounded1(double value) { return std::round(value * 10.0) / 10.0; }

constexpr int kLatencyNameWidth = -16;
constexpr int kLatencyWidths[] = {10, 10, 13, 19, 19, 9};
const char* const kLatencyHeadings[] = {"record us",          "device us",          "sync call us",
                                        "x100: record us/op", "x100: device us/op", "runs"};

void printSection(std::ostream& out, const std::vector<std::unique_ptr<LatencyCase>>& rows, bool quick) {
  out << "\nlatency: one small operation at a time; medians of " << singleRuns(quick) << " runs (" << batchRuns(quick)
      << " for batches); us = microseconds\n"
      << "         record = host time of the record* call; device = timestamps around the recorded operation;\n"
      << "         sync call = host time of the submit-and-wait call (gather / scatterNDInPlace into existing"
      << " tensors);\n"
      << "         -host = the indices in host memory (HostIndices): one vkCmdCopyBuffer region, no kernel\n"
      << "         x100 = " << kBatchOps << " such operations (distinct outputs) recorded into one command buffer,"
      << " per operation\n";
  for (const auto& row : rows)
    out << "  " << cell(row->name, kLatencyNameWidth) << " " << row->op << " " << row->shapes << "\n";
  out << "\n" << cell("latency", kLatencyNameWidth);
  for (size_t i = 0; i < std::size(kLatencyWidths); ++i) out << " " << cell(kLatencyHeadings[i], kLatencyWidths[i]);
  out << "\n";
}

void printLatency(std::ostream& out, const RunInfo& info, const LatencyCase& row, const LatencyResult& result,
                  bool json) {
  if (json) {
    tools::writeJsonLine(out, {{"section", "latency"},
                               {"device", info.device},
                               {"workload", row.name},
                               {"op", row.op},
                               {"shapes", row.shapes},
                               {"record_us", rounded1(result.record_us)},
                               {"device_us", rounded1(result.device_us)},
                               {"sync_call_us", rounded1(result.call_us)},
                               {"batch_ops", kBatchOps},
                               {"batch_record_us_per_op", rounded1(result.batch_record_us)},
                               {"batch_device_us_per_op", rounded1(result.batch_device_us)},
                               {"runs", result.runs},
                               {"batch_runs", result.batch_runs},
                               {"timing", info.timestamps ? "device_timestamps" : "host_wall_time"}});
    return;
  }
  const std::string cells[] = {
      formatNumber("%.1f", result.record_us),       formatNumber("%.1f", result.device_us),
      formatNumber("%.1f", result.call_us),         formatNumber("%.1f", result.batch_record_us),
      formatNumber("%.1f", result.batch_device_us), std::to_string(result.runs)};
  out << cell(row.name, kLatencyNameWidth);
  for (size_t i = 0; i < std::size(kLatencyWidths); ++i) out << " " << cell(cells[i], kLatencyWidths[i]);
  out << "\n";
}

void printLatencyFailure(std::ostream& out, const RunInfo& info, const std::string& name, const Status& status,
                         bool json) {
  if (json) {
    tools::writeJsonLine(
        out, {{"section", "latency"}, {"device", info.device}, {"workload", name}, {"error", status.toString()}});
    return;
  }
  out << cell(name, kLatencyNameWidth) << " FAILED: " << status.toString() << "\n";
}

}  // namespace

Status runLatency(Context& context, tools::CommandTimer& timer, const RunInfo& info, bool json, bool quick,
                  std::ostream& out) {
  // Small tables keep the uploads cheap; the latency of one row does not depend on the table's size.
  const int64_t vocab = quick ? 1024 : 4096;
  const int64_t cache_rows = quick ? 16 : 64;
  Status first_failure;
  auto remember = [&](const std::string& name, const Status& status) {
    printLatencyFailure(out, info, name, status, json);
    if (first_failure.ok()) first_failure = Status(status.code(), name + ": " + status.message());
  };
  std::vector<std::unique_ptr<LatencyCase>> rows;
  std::pair<const char*, StatusOr<std::unique_ptr<LatencyCase>>> created[] = {
      {"gather-1row", GatherRow::create(context, vocab, false)},
      {"gather-1row-host", GatherRow::create(context, vocab, true)},
      {"scatternd-1row", ScatterRow::create(context, cache_rows)}};
  std::vector<std::pair<const char*, Status>> failures;
  for (auto& [name, row] : created) {
    if (row.ok()) {
      rows.push_back(std::move(*row));
    } else {
      failures.emplace_back(name, row.status());
    }
  }
  if (!json) printSection(out, rows, quick);
  for (const auto& [name, status] : failures) remember(name, status);
  for (const auto& row : rows) {
    StatusOr<LatencyResult> result = measureLatency(context, timer, *row, quick);
    if (result.ok()) {
      printLatency(out, info, *row, *result, json);
    } else {
      remember(row->name, result.status());
    }
    out.flush();
  }
  return first_failure;
}

}  // namespace vkindex::bench
