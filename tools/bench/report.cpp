#include "report.hpp"

#include <cmath>
#include <iterator>

#include "json_line.hpp"
#include "table_text.hpp"

namespace vkindex::bench {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// A ratio of times; 0 when the baseline measured nothing, which only a broken timer produces (JSON has
// no infinity).
double ratio(double numerator, double denominator) { return denominator > 0.0 ? numerator / denominator : 0.0; }

// The operator's bytes per median second: 2 x the output's (each read once and written once), or
// what a row says it moves (GatherBlockQuantized: quantized bytes read plus output bytes written).
double gigabytesPerSecond(const RowResult& row) {
  return row.op.median_ms > 0.0 ? static_cast<double>(row.traffic_bytes) / (row.op.median_ms * 1e6) : 0.0;
}

// What a row's JSON line and a failed row's share.
tools::JsonDocument rowIdentity(const RunInfo& info, const Workload& workload) {
  return {{"device", info.device}, {"workload", workload.name}, {"op", workload.op}, {"shapes", workload.shapes}};
}

// Column widths; negative: left-aligned.
constexpr int kNameWidth = -23;
constexpr int kWidths[] = {8, 10, 10, 14, 16, 10, 14, 16, 5};
// "op" is the row's operator (Gather, ..., ScatterND). The JSON keys keep their first names
// ("gather_ms", ...) for every operator, so existing readers of the JSON lines go on working.
const char* const kHeadings[] = {"out MiB", "op ms",         "(min ms)",        "copyBuffer ms", "compute-copy ms",
                                 "op GB/s", "op/copyBuffer", "op/compute-copy", "runs"};

}  // namespace

void printHeader(std::ostream& out, const RunInfo& info, const std::vector<Workload>& workloads) {
  std::string runs = info.fixed_repeats > 0 ? "N = " + std::to_string(info.fixed_repeats)
                                            : "N per row in the runs column, chosen for ~" +
                                                  formatNumber("%g", info.row_budget_ms / 1000.0) + " s per row, 5..50";
  out << "vkindex benchmark: operators against copy baselines" << (info.quick ? " (--quick sizes)" : "") << "\n"
      << "device:  " << info.device_line << "\n"
      << "driver:  " << info.driver << "\n"
      << "kernels: " << info.tuning << "\n"
      << "date:    " << info.date << "\n"
      << "timing:  " << info.timing << "\n";
  if (!info.timestamps) out << "WARNING: no device timestamps; the times below are host wall times\n";
  out << "note:    medians of N runs (" << runs << "), measured in one process on this device, the operator and"
      << " both baselines interleaved run by run\n"
      << "bytes:   baselines copy exactly the operator's output bytes (in-place rows: only the bytes it writes);"
      << " GB/s = 2 x those bytes (one read + one write) / median time (gbq rows: quantized bytes read + output"
      << " bytes written), 1 GB = 1e9 B; ratios = operator time /"
      << " baseline time (> 1: slower)\n"
      << "workloads:\n";
  for (const Workload& workload : workloads) {
    out << "  " << cell(workload.name, kNameWidth) << " " << workload.op << " " << workload.shapes << "\n";
  }
  out << "\n" << cell("workload", kNameWidth);
  for (size_t i = 0; i < std::size(kWidths); ++i) out << " " << cell(kHeadings[i], kWidths[i]);
  out << "\n";
}

void printRow(std::ostream& out, const RunInfo& info, const Workload& workload, const RowResult& row, bool json) {
  const double mib = static_cast<double>(row.output_bytes) / kMiB;
  const double gbps = gigabytesPerSecond(row);
  const double vs_copy = ratio(row.op.median_ms, row.copy_buffer.median_ms);
  const double vs_compute = ratio(row.op.median_ms, row.compute_copy.median_ms);
  if (json) {
    tools::JsonDocument line = rowIdentity(info, workload);
    line["output_mib"] = tools::jsonRounded(mib, 3);
    line["gather_ms"] = tools::jsonRounded(row.op.median_ms, 4);
    line["gather_min_ms"] = tools::jsonRounded(row.op.min_ms, 4);
    line["copy_buffer_ms"] = tools::jsonRounded(row.copy_buffer.median_ms, 4);
    line["copy_buffer_min_ms"] = tools::jsonRounded(row.copy_buffer.min_ms, 4);
    line["compute_copy_ms"] = tools::jsonRounded(row.compute_copy.median_ms, 4);
    line["compute_copy_min_ms"] = tools::jsonRounded(row.compute_copy.min_ms, 4);
    line["gather_gb_per_s"] = tools::jsonRounded(gbps, 3);
    line["traffic_bytes"] = row.traffic_bytes;
    line["ratio_gather_copy_buffer"] = tools::jsonRounded(vs_copy, 3);
    line["ratio_gather_compute_copy"] = tools::jsonRounded(vs_compute, 3);
    line["repeats"] = row.repeats;
    line["timing"] = info.timestamps ? "device_timestamps" : "host_wall_time";
    if (row.host_floor) {
      line["host_floor"] = {{"regions", row.host_floor->regions},
                            {"regions_ms", tools::jsonRounded(row.host_floor->region_copies.median_ms, 4)},
                            {"one_copy_ms", tools::jsonRounded(row.host_floor->one_copy.median_ms, 4)}};
    }
    if (!row.steps.empty()) {
      tools::JsonDocument& steps = line["steps"] = tools::JsonDocument::array();
      for (const kernels::KernelTime& step : row.steps) {
        steps.push_back(
            {{"kernel", step.kernel}, {"dispatches", step.dispatches}, {"ms", tools::jsonRounded(step.device_ms, 4)}});
      }
    }
    tools::writeJsonLine(out, line);
    return;
  }
  const std::string cells[] = {formatNumber("%.2f", mib),
                               formatNumber("%.3f", row.op.median_ms),
                               formatNumber("%.3f", row.op.min_ms),
                               formatNumber("%.3f", row.copy_buffer.median_ms),
                               formatNumber("%.3f", row.compute_copy.median_ms),
                               formatNumber("%.2f", gbps),
                               formatNumber("%.2f", vs_copy),
                               formatNumber("%.2f", vs_compute),
                               std::to_string(row.repeats)};
  out << cell(workload.name, kNameWidth);
  for (size_t i = 0; i < std::size(kWidths); ++i) out << " " << cell(cells[i], kWidths[i]);
  out << "\n";
  // Gather and GatherND rows on CPU devices: the host's memcpy of the same rows (host_floor.hpp).
  if (row.host_floor) {
    const HostFloor& floor = *row.host_floor;
    out << "    host memcpy, one thread: " << floor.regions << " regions "
        << formatNumber("%.3f", floor.region_copies.median_ms) << " ms, the bytes at once "
        << formatNumber("%.3f", floor.one_copy.median_ms) << " ms, regions / at once "
        << formatNumber("%.2f", ratio(floor.region_copies.median_ms, floor.one_copy.median_ms)) << "\n";
  }
  // --steps: a line per kernel, its median time and share of the operator's median.
  for (const kernels::KernelTime& step : row.steps) {
    out << "    " << cell(step.kernel, kNameWidth) << " " << cell(formatNumber("%.3f", step.device_ms), kWidths[1])
        << "  x" << step.dispatches << "  " << formatNumber("%.0f%%", 100.0 * ratio(step.device_ms, row.op.median_ms))
        << "\n";
  }
}

void printFailure(std::ostream& out, const RunInfo& info, const Workload& workload, const Status& status, bool json) {
  if (json) {
    tools::JsonDocument line = rowIdentity(info, workload);
    line["error"] = status.toString();
    tools::writeJsonLine(out, line);
    return;
  }
  out << cell(workload.name, kNameWidth) << " FAILED: " << status.toString() << "\n";
}

void printSkip(std::ostream& out, const RunInfo& info, const Workload& workload, const Status& status, bool json) {
  if (json) {
    tools::JsonDocument line = rowIdentity(info, workload);
    line["skipped"] = status.toString();
    tools::writeJsonLine(out, line);
    return;
  }
  out << cell(workload.name, kNameWidth) << " SKIPPED: " << status.toString() << "\n";
}

}  // namespace vkindex::bench
