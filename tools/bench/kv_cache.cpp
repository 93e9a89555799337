#include "kv_cache.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <memory>
#include <utility>

#include "core/context_impl.hpp"
#include "json_line.hpp"
#include "kernel_split.hpp"
#include "kv_cache_rows.hpp"
#include "table_text.hpp"
#include "timing_math.hpp"
#include "vkindex/status_batch.hpp"

namespace vkindex::bench {
namespace {

// The operators' updates and the baseline's come from two streams, so that the check after the timed
// runs (the operators ran last) tells the operators' bytes from the baseline's.
constexpr uint64_t kKvOpsSourceSeed = 101;
constexpr uint64_t kKvCopySourceSeed = 102;
constexpr uint64_t kKvCachesSeed = 1;
constexpr uint64_t kKvPoolSeed = 2;

constexpr const char* kKvDecodeRow = "decode-step";
constexpr const char* kKvPrefillRow = "prefill-512";
constexpr const char* kKvCircularRow = "kv-circular";
constexpr const char* kKvPagedRow = "paged-kv";

struct KvTimes {
  double median_us = 0.0;
  double min_us = 0.0;
};

struct KvResult {
  int ops = 0;
  int dispatches = -1;  // -1: not counted (no timestamp queries)
  std::vector<kernels::KernelTime> kernels;
  uint64_t written_bytes = 0;
  uint64_t regions = 0;
  KvTimes device;  // timestamps around the command buffer's commands
  KvTimes host;    // record + submit + wait + finish, wall clock
  KvTimes record;  // the record* calls alone
  KvTimes copy;    // the vkCmdCopyBuffer baseline, as `device`
  int runs = 0;
};

KvTimes kvSummary(const std::vector<double>& us) {
  return {tools::medianOf(us), *std::min_element(us.begin(), us.end())};
}

// vkCmdCopyBuffer regions that write what `row` writes, from `source`'s slots: per cache and head, one
// region per run of consecutive positions fed by consecutive tokens.
std::vector<std::vector<VkBufferCopy>> kvCopyRegions(KvRow& row, const KvUpdateSource& source) {
  const KvCacheLayout& layout = row.caches->layout();
  const uint64_t tokens = row.positions.size();
  std::vector<std::vector<VkBufferCopy>> regions(static_cast<size_t>(row.caches->count()));
  for (int i = 0; i < row.caches->count(); ++i) {
    const VkDeviceSize source_base = source.storage().offset() + static_cast<uint64_t>(i) * source.slotBytes();
    const VkDeviceSize cache_base = row.caches->cache(i).offset();
    for (uint64_t h = 0; h < layout.heads; ++h) {
      for (uint64_t t = 0; t < tokens;) {
        if (row.positions[t] < 0) {  // padding: nothing to copy
          ++t;
          continue;
        }
        uint64_t run = 1;
        while (t + run < tokens && row.positions[t + run] == row.positions[t] + static_cast<int64_t>(run)) ++run;
        const auto position = static_cast<uint64_t>(row.positions[t]);
        regions[static_cast<size_t>(i)].push_back({source_base + (h * tokens + t) * layout.row_bytes,
                                                   cache_base + (h * layout.positions + position) * layout.row_bytes,
                                                   run * layout.row_bytes});
        t += run;
      }
    }
  }
  return regions;
}

// One run of the row's operators in one command buffer, finished. `record_ms`: the record* calls;
// `host_ms`: everything from recording to the last finish().
StatusOr<tools::Sample> runKvOps(Context& context, tools::CommandTimer& timer, KvRow& row, double& record_ms,
                                 double& host_ms, kernels::StepTimestamps* stamps = nullptr) {
  std::vector<RecordedOp> ops;
  ops.reserve(static_cast<size_t>(row.caches->count()));
  const auto start = std::chrono::steady_clock::now();
  StatusOr<tools::Sample> sample = timer.run([&](VkCommandBuffer cmd) -> Status {
    if (stamps != nullptr) stamps->begin(cmd);
    const auto record_start = std::chrono::steady_clock::now();
    // One status barrier for the command buffer's operations, as an engine records a decode step.
    VKINDEX_ASSIGN_OR_RETURN(StatusBatch batch, StatusBatch::begin(context, cmd));
    Status recorded = row.record(context, cmd, ops);
    if (recorded.ok()) recorded = batch.end();
    record_ms = tools::millisecondsSince(record_start);
    return recorded;
  });
  // The timer returns once the commands completed (also on failure), so finishing is always allowed.
  Status finished;
  for (RecordedOp& op : ops) {
    Status status = op.finish();
    if (finished.ok()) finished = status;
  }
  host_ms = tools::millisecondsSince(start);
  VKINDEX_RETURN_IF_ERROR(sample.status());
  VKINDEX_RETURN_IF_ERROR(finished);
  return sample;
}

StatusOr<tools::Sample> runKvCopy(Context& context, tools::CommandTimer& timer, KvRow& row,
                                  const KvUpdateSource& source, const std::vector<std::vector<VkBufferCopy>>& regions) {
  const vk::Device& device = *implOf(context).device;
  return timer.run([&](VkCommandBuffer cmd) {
    for (int i = 0; i < row.caches->count(); ++i) {
      const std::vector<VkBufferCopy>& cache_regions = regions[static_cast<size_t>(i)];
      device.fn().vkCmdCopyBuffer(cmd, source.storage().buffer(), row.caches->cache(i).buffer(),
                                  static_cast<uint32_t>(cache_regions.size()), cache_regions.data());
    }
    return Status::Ok();
  });
}

// The row's dispatches by kernel, from a run with a timestamp after every dispatch.
StatusOr<std::vector<kernels::KernelTime>> kvKernelSplit(Context& context, tools::CommandTimer& timer, KvRow& row) {
  return splitByKernel(context, [&](kernels::StepTimestamps& stamps) {
    double record_ms = 0.0, host_ms = 0.0;
    return runKvOps(context, timer, row, record_ms, host_ms, &stamps).status();
  });
}

StatusOr<KvResult> measureKvRow(Context& context, tools::CommandTimer& timer, KvRow& row,
                                const KvUpdateSource& copy_source, const RunInfo& info) {
  KvResult result;
  result.ops = row.caches->count();
  KvCacheSet& caches = *row.caches;
  const std::vector<std::vector<VkBufferCopy>> regions = kvCopyRegions(row, copy_source);
  for (const auto& cache_regions : regions) {
    result.regions += cache_regions.size();
    for (const VkBufferCopy& region : cache_regions) result.written_bytes += region.size;
  }

  // Checked runs, untimed. The operators' first run also creates the pipelines and, where the device has
  // timestamps, counts the dispatches. The baseline's is checked on the first and last cache only: the
  // check after the timed runs covers every cache again (a whole check downloads every cache).
  double record_ms = 0.0, host_ms = 0.0;
  if (info.timestamps) {
    VKINDEX_ASSIGN_OR_RETURN(result.kernels, kvKernelSplit(context, timer, row));
    result.dispatches = dispatchCount(result.kernels);
  } else {
    VKINDEX_RETURN_IF_ERROR(runKvOps(context, timer, row, record_ms, host_ms).status());
  }
  caches.wrote(*row.source, row.positions);
  VKINDEX_RETURN_IF_ERROR(caches.check(row.op + "'s first run"));
  VKINDEX_RETURN_IF_ERROR(runKvCopy(context, timer, row, copy_source, regions).status());
  caches.wrote(copy_source, row.positions);
  VKINDEX_RETURN_IF_ERROR(caches.check("the vkCmdCopyBuffer baseline", caches.count() > 1
                                                                           ? std::vector<int>{0, caches.count() - 1}
                                                                           : std::vector<int>{0}));

  // Baseline, then operators, run by run: the operators' bytes are the ones left for the last check.
  std::vector<double> device_us, host_us, record_us, copy_us;
  const double budget_ms = 2.0 * info.row_budget_ms;
  const int min_runs = 3;
  const int max_runs = 100;
  int runs = info.fixed_repeats;
  for (int run = 0; runs == 0 || run < runs; ++run) {
    const auto start = std::chrono::steady_clock::now();
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample copy, runKvCopy(context, timer, row, copy_source, regions));
    caches.wrote(copy_source, row.positions);
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample op, runKvOps(context, timer, row, record_ms, host_ms));
    caches.wrote(*row.source, row.positions);
    copy_us.push_back(copy.device_ms * 1e3);
    device_us.push_back(op.device_ms * 1e3);
    host_us.push_back(host_ms * 1e3);
    record_us.push_back(record_ms * 1e3);
    if (runs == 0) {
      const double estimate = std::round(budget_ms / std::max(tools::millisecondsSince(start), 1e-3));
      runs = static_cast<int>(std::clamp(estimate, double(min_runs), double(max_runs)));
    }
  }
  VKINDEX_RETURN_IF_ERROR(caches.check(row.op + " after the timed runs"));
  result.runs = runs;
  result.device = kvSummary(device_us);
  result.host = kvSummary(host_us);
  result.record = kvSummary(record_us);
  result.copy = kvSummary(copy_us);
  return result;
}

constexpr int kKvNameWidth = -21;
constexpr int kKvWidths[] = {4, 10, 11, 10, 9, 9, 9, 10, 13, 8, 13, 5};
const char* const kKvHeadings[] = {"ops",       "dispatches", "written KiB",   "device us", "(min us)",      "host us",
                                   "record us", "us/token",   "copyBuffer us", "regions",   "op/copyBuffer", "runs"};

void printKvSection(std::ostream& out, const std::vector<std::unique_ptr<KvRow>>& rows) {
  out << "\nkv-cache: KV-cache writes as an engine records them: one operator per cache, in place, all in one"
      << " command buffer;\n"
      << "          medians of each row's runs; us = microseconds; ops = operators per command buffer\n"
      << "          device = timestamps around the command buffer's commands; host = record + submit + wait +"
      << " finish(), wall clock;\n"
      << "          record = the record* calls alone; dispatches = counted by a timestamp after every dispatch"
      << " (in the first, untimed run)\n"
      << "          us/token = device us / tokens written into each cache; copyBuffer = vkCmdCopyBuffer of exactly"
      << " the written\n"
      << "          bytes to the same places (one region per cache, head and run of consecutive positions), in its"
      << " own command buffer\n";
  for (const auto& row : rows) {
    out << "  " << cell(row->name, kKvNameWidth) << " " << row->op << " " << row->shapes << "\n";
    if (!row->note.empty()) out << "  " << cell("", kKvNameWidth) << " note: " << row->note << "\n";
  }
  out << "\n" << cell("kv-cache", kKvNameWidth);
  for (size_t i = 0; i < std::size(kKvWidths); ++i) out << " " << cell(kKvHeadings[i], kKvWidths[i]);
  out << "\n";
}

void printKvRow(std::ostream& out, const RunInfo& info, const KvRow& row, const KvResult& result, bool json) {
  const double tokens = static_cast<double>(row.positions.size());
  const double ratio = result.device.median_us / result.copy.median_us;
  if (json) {
    tools::JsonDocument kernels = tools::JsonDocument::array();
    for (const kernels::KernelTime& kernel : result.kernels) {
      kernels.push_back({{"kernel", kernel.kernel}, {"dispatches", kernel.dispatches}});
    }
    tools::JsonDocument line = {{"section", "kv-cache"},
                                {"device", info.device},
                                {"workload", row.name},
                                {"op", row.op},
                                {"shapes", row.shapes},
                                {"ops_per_submit", result.ops},
                                {"dispatches", nullptr},
                                {"kernels", kernels},
                                {"tokens_per_cache", row.positions.size()},
                                {"written_bytes", result.written_bytes},
                                {"device_us", tools::jsonRounded(result.device.median_us, 2)},
                                {"device_min_us", tools::jsonRounded(result.device.min_us, 2)},
                                {"host_us", tools::jsonRounded(result.host.median_us, 2)},
                                {"record_us", tools::jsonRounded(result.record.median_us, 2)},
                                {"device_us_per_token", tools::jsonRounded(result.device.median_us / tokens, 2)},
                                {"copy_buffer_us", tools::jsonRounded(result.copy.median_us, 2)},
                                {"copy_buffer_regions", result.regions},
                                {"ratio_device_copy_buffer", std::round(ratio * 100.0) / 100.0},
                                {"runs", result.runs},
                                {"timing", info.timestamps ? "device_timestamps" : "host_wall_time"}};
    if (result.dispatches >= 0) line["dispatches"] = result.dispatches;
    if (!row.note.empty()) line["note"] = row.note;
    tools::writeJsonLine(out, line);
    return;
  }
  const std::string cells[] = {std::to_string(result.ops),
                               result.dispatches >= 0 ? std::to_string(result.dispatches) : "n/a",
                               formatNumber("%.1f", static_cast<double>(result.written_bytes) / 1024.0),
                               formatNumber("%.1f", result.device.median_us),
                               formatNumber("(%.1f)", result.device.min_us),
                               formatNumber("%.1f", result.host.median_us),
                               formatNumber("%.1f", result.record.median_us),
                               formatNumber("%.2f", result.device.median_us / tokens),
                               formatNumber("%.1f", result.copy.median_us),
                               std::to_string(result.regions),
                               formatNumber("%.2f", ratio),
                               std::to_string(result.runs)};
  out << cell(row.name, kKvNameWidth);
  for (size_t i = 0; i < std::size(kKvWidths); ++i) out << " " << cell(cells[i], kKvWidths[i]);
  out << "\n";
}

void printKvFailure(std::ostream& out, const RunInfo& info, const std::string& name, const Status& status, bool json) {
  if (json) {
    tools::writeJsonLine(
        out, {{"section", "kv-cache"}, {"device", info.device}, {"workload", name}, {"error", status.toString()}});
    return;
  }
  out << cell(name, kKvNameWidth) << " FAILED: " << status.toString() << "\n";
}

bool wants(const std::vector<std::string>& rows, const char* name) {
  return std::find(rows.begin(), rows.end(), name) != rows.end();
}

// The section's device memory: what it holds at once.
struct KvMemory {
  std::unique_ptr<KvUpdateSource> ops_source, copy_source;
  std::unique_ptr<KvCacheSet> caches, pool;
};

StatusOr<KvMemory> allocateKv(Context& context, const KvCacheSizes& sizes, bool with_caches, bool with_pool) {
  KvMemory memory;
  // One slot per cache, each holding the largest update (prefill's [1, heads, prefill_tokens, head_dim];
  // the paged row's fits in slot 0).
  const uint64_t slot_bytes =
      static_cast<uint64_t>(sizes.heads * std::max(sizes.prefill_tokens, sizes.paged_tokens)) * sizes.rowBytes();
  const auto slots = static_cast<uint64_t>(sizes.caches());
  VKINDEX_ASSIGN_OR_RETURN(KvUpdateSource ops_source,
                           KvUpdateSource::create(context, slots, slot_bytes, kKvOpsSourceSeed));
  VKINDEX_ASSIGN_OR_RETURN(KvUpdateSource copy_source,
                           KvUpdateSource::create(context, slots, slot_bytes, kKvCopySourceSeed));
  memory.ops_source = std::make_unique<KvUpdateSource>(std::move(ops_source));
  memory.copy_source = std::make_unique<KvUpdateSource>(std::move(copy_source));
  if (with_caches) {
    const KvCacheLayout layout{static_cast<uint64_t>(sizes.heads), static_cast<uint64_t>(sizes.max_seq),
                               sizes.rowBytes()};
    VKINDEX_ASSIGN_OR_RETURN(KvCacheSet caches,
                             KvCacheSet::create(context, sizes.caches(), layout, DataType::kFloat16,
                                                {1, sizes.heads, sizes.max_seq, sizes.head_dim}, kKvCachesSeed));
    memory.caches = std::make_unique<KvCacheSet>(std::move(caches));
  }
  if (with_pool) {
    const KvCacheLayout layout{1, static_cast<uint64_t>(sizes.pool_slots),
                               static_cast<uint64_t>(sizes.heads) * sizes.rowBytes()};
    VKINDEX_ASSIGN_OR_RETURN(KvCacheSet pool,
                             KvCacheSet::create(context, 1, layout, DataType::kFloat16,
                                                {sizes.pool_slots, sizes.heads, sizes.head_dim}, kKvPoolSeed));
    memory.pool = std::make_unique<KvCacheSet>(std::move(pool));
  }
  return memory;
}

}  // namespace

std::vector<std::string> kvCacheRowNames() { return {kKvDecodeRow, kKvPrefillRow, kKvCircularRow, kKvPagedRow}; }

Status runKvCache(Context& context, tools::CommandTimer& timer, const RunInfo& info,
                  const std::vector<std::string>& rows, bool json, bool quick, std::ostream& out) {
  const KvCacheSizes sizes = kvCacheSizes(quick);
  const bool with_caches = wants(rows, kKvDecodeRow) || wants(rows, kKvPrefillRow) || wants(rows, kKvCircularRow);
  StatusOr<KvMemory> memory = allocateKv(context, sizes, with_caches, wants(rows, kKvPagedRow));
  Status first_failure;
  auto remember = [&](const std::string& name, const Status& status) {
    printKvFailure(out, info, name, status, json);
    if (first_failure.ok()) first_failure = Status(status.code(), name + ": " + status.message());
  };
  if (!memory.ok()) {
    if (!json) out << "\nkv-cache: the caches could not be created\n";
    for (const std::string& name : rows) remember(name, memory.status());
    return first_failure;
  }
  KvMemory& kv = *memory;

  std::vector<std::unique_ptr<KvRow>> made;
  std::vector<std::pair<std::string, Status>> failures;
  auto add = [&](const char* name, StatusOr<std::unique_ptr<KvRow>> row) {
    if (row.ok()) {
      made.push_back(std::move(*row));
    } else {
      failures.emplace_back(name, row.status());
    }
  };
  if (wants(rows, kKvDecodeRow)) {
    add(kKvDecodeRow, makeTensorScatterRow(context, kKvDecodeRow, sizes, *kv.caches, *kv.ops_source, 1,
                                           sizes.decode_position, TensorScatterMode::kLinear));
  }
  if (wants(rows, kKvPrefillRow)) {
    add(kKvPrefillRow, makeTensorScatterRow(context, kKvPrefillRow, sizes, *kv.caches, *kv.ops_source,
                                            sizes.prefill_tokens, 0, TensorScatterMode::kLinear));
  }
  if (wants(rows, kKvCircularRow)) {
    add(kKvCircularRow,
        makeTensorScatterRow(context, kKvCircularRow, sizes, *kv.caches, *kv.ops_source, sizes.circular_tokens,
                             sizes.circular_index, TensorScatterMode::kCircular));
  }
  if (wants(rows, kKvPagedRow)) add(kKvPagedRow, makePagedRow(context, kKvPagedRow, sizes, *kv.pool, *kv.ops_source));

  if (!json) printKvSection(out, made);
  for (const auto& [name, status] : failures) remember(name, status);
  for (const auto& row : made) {
    StatusOr<KvResult> result = measureKvRow(context, timer, *row, *kv.copy_source, info);
    if (result.ok()) {
      printKvRow(out, info, *row, *result, json);
    } else {
      remember(row->name, result.status());
      // The model no longer knows what the caches hold: start the next row from the pattern again.
      Status reset = row->caches->reset();
      if (!reset.ok()) remember(row->name, reset);
    }
    out.flush();
  }
  return first_failure;
}

}  // namespace vkindex::bench
