#include "bench.hpp"

#include <cstdio>
#include <utility>

#include "cold_start.hpp"
#include "command_timer.hpp"
#include "kv_cache.hpp"
#include "latency.hpp"
#include "measure.hpp"
#include "report.hpp"
#include "sweep.hpp"
#include "table_text.hpp"
#include "workloads.hpp"

namespace vkindex::bench {
namespace {

RunInfo describeRun(const Context& context, const tools::CommandTimer& timer, const BenchOptions& options,
                    const MeasureOptions& measure) {
  const DeviceInfo& device = context.device();
  RunInfo info;
  info.device = device.name;
  info.device_line = device.name + " (" + device.type + ", Vulkan " + apiVersionString(device.api_version) + ")";
  info.driver = device.driver_name.empty() ? "(driver does not report its name)" : device.driver_name;
  if (!device.driver_info.empty()) info.driver += " " + device.driver_info;
  char version[32];
  std::snprintf(version, sizeof(version), " [driverVersion 0x%08x]", device.driver_version);
  info.driver += version;
  const plan::Tuning& tuning = tuningOf(context);
  info.tuning = "workgroup size " + std::to_string(tuning.workgroup_size) + ", " +
                std::to_string(tuning.items_per_invocation) + " items per invocation";
  info.date = utcTime("%Y-%m-%d %H:%M:%S UTC");
  info.timing = timer.describe();
  info.timestamps = timer.usesTimestamps();
  info.fixed_repeats = options.repeats;
  info.row_budget_ms = measure.row_budget_ms;
  info.quick = options.quick;
  return info;
}

// Under VKINDEX_VALIDATION=1 a clean table is not enough: the layer must have stayed silent too.
Status checkValidation(const Context& context, Status first_failure) {
  if (first_failure.ok() && context.validationMessageCount() > 0) {
    return internalError("bench: the validation layer reported " + std::to_string(context.validationMessageCount()) +
                         " message(s); first: " + context.firstValidationMessage());
  }
  return first_failure;
}

// Whether `name` passes --only: no filter, or a filter word it contains.
bool selected(const std::vector<std::string>& only, const std::string& name) {
  if (only.empty()) return true;
  for (const std::string& word : only) {
    if (name.find(word) != std::string::npos) return true;
  }
  return false;
}

// The KV-cache rows --only keeps: all of them for a word in "kv-cache", else those whose names contain one.
std::vector<std::string> selectedKvRows(const std::vector<std::string>& only) {
  std::vector<std::string> rows;
  for (const std::string& name : kvCacheRowNames()) {
    if (selected(only, "kv-cache") || selected(only, name)) rows.push_back(name);
  }
  return rows;
}

std::vector<Workload> selectedWorkloads(std::vector<Workload> all, const std::vector<std::string>& only) {
  std::vector<Workload> rows;
  for (Workload& workload : all) {
    if (selected(only, workload.name)) rows.push_back(std::move(workload));
  }
  return rows;
}

}  // namespace

Status runBenchmarks(const BenchOptions& options, std::ostream& out) {
  if (options.repeats < 0) {
    return invalidArgument("bench: repeats must be positive (or 0 to choose per workload), got " +
                           std::to_string(options.repeats));
  }
  // The cold-start modes make their own Contexts (the parent none at all).
  if (options.cold_start_child) return runColdStartChild(options, out);
  if (options.cold_start) return runColdStart(options, out);
  if (!options.only.empty() && selectedWorkloads(workloads(options.quick), options.only).empty() &&
      !selected(options.only, "latency") && selectedKvRows(options.only).empty()) {
    return invalidArgument("bench: --only matched no row (the table's rows are named in its first column)");
  }
  ContextOptions context_options;
  context_options.device = options.device;
  context_options.tuning_profile = options.tuning_profile;
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<Context> context, Context::create(context_options));
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<tools::CommandTimer> timer, tools::CommandTimer::create(*context));
  MeasureOptions measure;
  measure.repeats = options.repeats;
  measure.steps = options.steps;
  // --quick is a smoke test: rows a fifth as long, still at least min_repeats runs.
  measure.row_budget_ms = options.quick ? 100.0 : 500.0;
  const RunInfo info = describeRun(*context, *timer, options, measure);
  if (options.sweep) {
    // 17 points: a shorter budget per point than per row keeps the whole sweep near the table's length.
    measure.row_budget_ms = options.quick ? 30.0 : 300.0;
    // 16 MiB per point is well past launch overhead on the CPU drivers and still verifies in about a
    // second on the host; --quick keeps 1 MiB.
    const int64_t point_bytes = int64_t(options.sweep_mib > 0 ? options.sweep_mib : options.quick ? 1 : 16) << 20;
    return checkValidation(*context,
                           runSweep(*context, *timer, info, measure, options.json, options.quick, point_bytes, out));
  }
  // A CPU driver runs vkCmdCopyBuffer's regions and the kernels on the host: there the host's memcpy of
  // a row gather's rows is the floor under its copy path and what its access pattern costs.
  measure.host_floor = context->device().type == "cpu";
  const std::vector<Workload> rows = selectedWorkloads(workloads(options.quick), options.only);
  if (!options.json) printHeader(out, info, rows);
  out.flush();

  Status first_failure;
  for (const Workload& workload : rows) {
    StatusOr<RowResult> row = measureWorkload(*context, *timer, workload, measure);
    if (row.ok()) {
      printRow(out, info, workload, *row, options.json);
    } else if (workload.skip_when_unsupported && row.status().code() == StatusCode::kUnsupported) {
      printSkip(out, info, workload, row.status(), options.json);
    } else {
      printFailure(out, info, workload, row.status(), options.json);
      if (first_failure.ok()) {
        first_failure = Status(row.status().code(), workload.name + ": " + row.status().message());
      }
    }
    out.flush();
  }
  Status latency;
  if (selected(options.only, "latency")) latency = runLatency(*context, *timer, info, options.json, options.quick, out);
  if (first_failure.ok()) first_failure = latency;
  const std::vector<std::string> kv_rows = selectedKvRows(options.only);
  if (!kv_rows.empty()) {
    Status kv_cache = runKvCache(*context, *timer, info, kv_rows, options.json, options.quick, out);
    if (first_failure.ok()) first_failure = kv_cache;
  }
  return checkValidation(*context, first_failure);
}

}  // namespace vkindex::bench
