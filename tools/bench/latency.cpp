#include "latency.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "json_line.hpp"
#include "kernel_split.hpp"
#include "latency_cases.hpp"
#include "table_text.hpp"
#include "timing_math.hpp"
#include "vkindex/status_batch.hpp"

namespace vkindex::bench {
namespace {

// Runs per measurement: single operations are cheap (~0.1 ms on the CPU drivers), batches 100x that.
int singleRuns(bool quick) { return quick ? 20 : 100; }
int batchRuns(bool quick) { return quick ? 3 : 10; }

struct LatencyResult {
  int dispatches = -1;  // of one operation; -1: not counted (no timestamp queries)
  // Medians, in microseconds.
  double record_us = 0.0;        // host time of one record* call
  double device_us = 0.0;        // device time of one recorded operation (timestamps around it)
  double bare_us = 0.0;          // the same for one bare dispatch moving the same bytes
  double bare_host_us = 0.0;     // the same for the bare dispatch and a barrier to the host after it
  double call_us = 0.0;          // host time of one synchronous call, submission and wait included
  double batch_record_us = 0.0;  // host time per operation when kBatchOps are recorded in a row
  double batch_device_us = 0.0;  // device time of the whole batch / kBatchOps
  double batch_bare_us = 0.0;    // the same for kBatchOps bare dispatches
  int runs = 0;
  int batch_runs = 0;
};

// Records the operations [0, count) of `row` in one timed command buffer and finishes them: one alone,
// more in a StatusBatch, as an engine records a decode step. Returns the device time and (in
// `record_ms`) the host time spent in the record* calls (and the batch's). With `stamps`, the split's
// start is stamped first (the dispatch count).
StatusOr<tools::Sample> runRecorded(Context& context, tools::CommandTimer& timer, LatencyCase& row, int count,
                                    double& record_ms, kernels::StepTimestamps* stamps = nullptr) {
  std::vector<RecordedOp> ops;
  ops.reserve(static_cast<size_t>(count));
  StatusOr<tools::Sample> sample = timer.run([&](VkCommandBuffer cmd) -> Status {
    if (stamps != nullptr) stamps->begin(cmd);
    const auto start = std::chrono::steady_clock::now();
    StatusBatch batch;
    if (count > 1) {
      VKINDEX_ASSIGN_OR_RETURN(batch, StatusBatch::begin(context, cmd));
    }
    for (int i = 0; i < count; ++i) {
      VKINDEX_ASSIGN_OR_RETURN(RecordedOp op, row.record(context, cmd, i));
      ops.push_back(std::move(op));
    }
    if (count > 1) VKINDEX_RETURN_IF_ERROR(batch.end());
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

// The baseline's [0, count) in one timed command buffer, each followed by a barrier to the host with
// `host_barrier`.
StatusOr<tools::Sample> runBare(Context& context, tools::CommandTimer& timer, BareCopies& bare, int count,
                                bool host_barrier = false) {
  StatusOr<tools::Sample> sample = timer.run([&](VkCommandBuffer cmd) -> Status {
    for (int i = 0; i < count; ++i) VKINDEX_RETURN_IF_ERROR(bare.record(context, cmd, i, host_barrier));
    return Status::Ok();
  });
  bare.clear();
  return sample;
}

StatusOr<LatencyResult> measureLatency(Context& context, tools::CommandTimer& timer, LatencyCase& row,
                                       const RunInfo& info, bool quick) {
  LatencyResult result;
  result.runs = singleRuns(quick);
  result.batch_runs = batchRuns(quick);
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<BareCopies> bare, BareCopies::create(context, row.written_bytes));
  if (info.timestamps) {
    // Untimed: also creates the pipelines.
    VKINDEX_ASSIGN_OR_RETURN(std::vector<kernels::KernelTime> kernels,
                             splitByKernel(context, [&](kernels::StepTimestamps& stamps) {
                               double record_ms = 0.0;
                               return runRecorded(context, timer, row, 1, record_ms, &stamps).status();
                             }));
    result.dispatches = dispatchCount(kernels);
  }
  std::vector<double> record, device, bare_device, bare_host_device, call, batch_record, batch_device, batch_bare;
  // Run -1 warms up, untimed: pipelines are created and the views' memory touched. The operation and
  // its baseline alternate run by run, so that the machine's load changes reach both alike.
  for (int run = -1; run < result.runs; ++run) {
    double record_ms = 0.0;
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample sample, runRecorded(context, timer, row, 1, record_ms));
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample bare_sample, runBare(context, timer, *bare, 1));
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample bare_host_sample, runBare(context, timer, *bare, 1, true));
    const auto start = std::chrono::steady_clock::now();
    VKINDEX_RETURN_IF_ERROR(row.call(context));
    const double call_ms = tools::millisecondsSince(start);
    if (run < 0) continue;
    record.push_back(record_ms * 1e3);
    device.push_back(sample.device_ms * 1e3);
    bare_device.push_back(bare_sample.device_ms * 1e3);
    bare_host_device.push_back(bare_host_sample.device_ms * 1e3);
    call.push_back(call_ms * 1e3);
  }
  for (int run = 0; run < result.batch_runs; ++run) {
    double record_ms = 0.0;
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample sample, runRecorded(context, timer, row, kBatchOps, record_ms));
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample bare_sample, runBare(context, timer, *bare, kBatchOps));
    batch_record.push_back(record_ms * 1e3 / kBatchOps);
    batch_device.push_back(sample.device_ms * 1e3 / kBatchOps);
    batch_bare.push_back(bare_sample.device_ms * 1e3 / kBatchOps);
  }
  VKINDEX_RETURN_IF_ERROR(row.check());
  VKINDEX_RETURN_IF_ERROR(bare->check());
  result.record_us = tools::medianOf(record);
  result.device_us = tools::medianOf(device);
  result.bare_us = tools::medianOf(bare_device);
  result.bare_host_us = tools::medianOf(bare_host_device);
  result.call_us = tools::medianOf(call);
  result.batch_record_us = tools::medianOf(batch_record);
  result.batch_device_us = tools::medianOf(batch_device);
  result.batch_bare_us = tools::medianOf(batch_bare);
  return result;
}

double ratioOf(double value, double baseline) { return baseline > 0.0 ? value / baseline : 0.0; }

constexpr int kLatencyNameWidth = -20;
constexpr int kLatencyWidths[] = {10, 10, 9, 9, 10, 10, 13, 10, 10, 9, 9, 6};
const char* const kLatencyHeadings[] = {"dispatches", "device us",  "bare us",      "op/bare",
                                        "bare+hb us", "op/bare+hb", "sync call us", "x100: rec",
                                        "x100: dev",  "x100: bare", "op/bare",      "runs"};

void printSection(std::ostream& out, const std::vector<std::unique_ptr<LatencyCase>>& rows, bool quick) {
  out << "\nlatency: one small operation at a time; medians of " << singleRuns(quick) << " runs (" << batchRuns(quick)
      << " for batches); us = microseconds\n"
      << "         dispatches = of one operation, counted by a timestamp after every dispatch;\n"
      << "         device = timestamps around the recorded operation; bare = the same around one dispatch of\n"
      << "         vkindex's copy kernel moving the operation's written bytes (no status, no checks, no barrier);\n"
      << "         bare+hb = the bare dispatch and a barrier to the host after it, as a checked operation alone ends;\n"
      << "         sync call = host time of the submit-and-wait call (into existing tensors, in place where so);\n"
      << "         -host = the indices in host memory (HostIndices): one vkCmdCopyBuffer region, no kernel;\n"
      << "         x100 = " << kBatchOps << " such operations (distinct outputs) recorded into one command buffer,"
      << " per operation: rec(ord) host us, dev(ice) us, bare us\n";
  for (const auto& row : rows)
    out << "  " << cell(row->name, kLatencyNameWidth) << " " << row->op << " " << row->shapes << "\n";
  out << "\n" << cell("latency", kLatencyNameWidth);
  for (size_t i = 0; i < std::size(kLatencyWidths); ++i) out << " " << cell(kLatencyHeadings[i], kLatencyWidths[i]);
  out << "\n";
}

void printLatency(std::ostream& out, const RunInfo& info, const LatencyCase& row, const LatencyResult& result,
                  bool json) {
  if (json) {
    tools::JsonDocument line = {
        {"section", "latency"},
        {"device", info.device},
        {"workload", row.name},
        {"op", row.op},
        {"shapes", row.shapes},
        {"written_bytes", row.written_bytes},
        {"dispatches", nullptr},
        {"record_us", tools::jsonRounded(result.record_us, 1)},
        {"device_us", tools::jsonRounded(result.device_us, 1)},
        {"bare_dispatch_us", tools::jsonRounded(result.bare_us, 1)},
        {"ratio_device_bare", tools::jsonRounded(ratioOf(result.device_us, result.bare_us), 2)},
        {"bare_dispatch_host_barrier_us", tools::jsonRounded(result.bare_host_us, 1)},
        {"ratio_device_bare_host_barrier", tools::jsonRounded(ratioOf(result.device_us, result.bare_host_us), 2)},
        {"sync_call_us", tools::jsonRounded(result.call_us, 1)},
        {"batch_ops", kBatchOps},
        {"batch_record_us_per_op", tools::jsonRounded(result.batch_record_us, 1)},
        {"batch_device_us_per_op", tools::jsonRounded(result.batch_device_us, 1)},
        {"batch_bare_dispatch_us_per_op", tools::jsonRounded(result.batch_bare_us, 1)},
        {"ratio_batch_device_bare", tools::jsonRounded(ratioOf(result.batch_device_us, result.batch_bare_us), 2)},
        {"runs", result.runs},
        {"batch_runs", result.batch_runs},
        {"timing", info.timestamps ? "device_timestamps" : "host_wall_time"}};
    if (result.dispatches >= 0) line["dispatches"] = result.dispatches;
    tools::writeJsonLine(out, line);
    return;
  }
  const std::string cells[] = {result.dispatches >= 0 ? std::to_string(result.dispatches) : "n/a",
                               formatNumber("%.1f", result.device_us),
                               formatNumber("%.1f", result.bare_us),
                               formatNumber("%.2f", ratioOf(result.device_us, result.bare_us)),
                               formatNumber("%.1f", result.bare_host_us),
                               formatNumber("%.2f", ratioOf(result.device_us, result.bare_host_us)),
                               formatNumber("%.1f", result.call_us),
                               formatNumber("%.1f", result.batch_record_us),
                               formatNumber("%.1f", result.batch_device_us),
                               formatNumber("%.1f", result.batch_bare_us),
                               formatNumber("%.2f", ratioOf(result.batch_device_us, result.batch_bare_us)),
                               std::to_string(result.runs)};
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
  Status first_failure;
  auto remember = [&](const std::string& name, const Status& status) {
    printLatencyFailure(out, info, name, status, json);
    if (first_failure.ok()) first_failure = Status(status.code(), name + ": " + status.message());
  };
  std::vector<std::pair<std::string, Status>> failures;
  std::vector<std::unique_ptr<LatencyCase>> rows = createLatencyCases(context, quick, failures);
  if (!json) printSection(out, rows, quick);
  for (const auto& [name, status] : failures) remember(name, status);
  for (const auto& row : rows) {
    StatusOr<LatencyResult> result = measureLatency(context, timer, *row, info, quick);
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
