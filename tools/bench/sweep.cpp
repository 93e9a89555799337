#include "sweep.hpp"

#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "json_line.hpp"
#include "table_text.hpp"

namespace vkindex::bench {
namespace {

// Row sizes 2^0 .. 2^16 bytes: from the sub-word byte-assembly path to rows far wider than a workgroup.
constexpr int kLargestRowLog2 = 16;
// One point of the sweep: `rows` rows of `row_bytes` bytes gathered from a table with as many rows.
struct SweepPoint {
  int64_t row_bytes;
  int64_t rows;
  DataType type;  // the widest of uint8, uint16, float32 that divides the row: how models store such rows
};

// Elements per row, and a workload label for the point ("row 64 B" plus what is measured).
int64_t rowElements(const SweepPoint& point) { return point.row_bytes / static_cast<int64_t>(elementSize(point.type)); }
std::string pointLabel(const SweepPoint& point, const std::string& what) {
  return "row " + std::to_string(point.row_bytes) + " B" + (what.empty() ? "" : ", " + what);
}

SweepPoint pointFor(int64_t row_bytes, int64_t output_bytes) {
  const DataType type = row_bytes % 4 == 0 ? DataType::kFloat32 : row_bytes == 2 ? DataType::kUInt16 : DataType::kUInt8;
  return {row_bytes, output_bytes / row_bytes, type};
}

// Gather along axis 0 of data[rows, elements per row] with int32 indices (int64 would make the index
// stream 8x the output at 1-byte rows; int32 is the narrower choice every exporter allows).
Workload sweepWorkload(const SweepPoint& point) {
  return gatherWorkload(pointLabel(point, ""), point.type, {point.rows, rowElements(point)}, DataType::kInt32,
                        {point.rows}, 0, static_cast<uint64_t>(100 + point.row_bytes));
}

// The same rows through GatherND, addressed by two-component tuples (a, b) into data[rows / 16, 16, row]:
// the tuple walk GatherND adds to Gather's row copy. rows is a multiple of 16 at every point (at least
// 1 MiB out, rows of at most 64 KiB).
constexpr int64_t kGatherNDInnerRows = 16;
Workload gatherNDSweepWorkload(const SweepPoint& point) {
  return gatherNDWorkload(pointLabel(point, "GatherND"), point.type,
                          {point.rows / kGatherNDInnerRows, kGatherNDInnerRows, rowElements(point)}, DataType::kInt32,
                          {point.rows, 2}, 0, static_cast<uint64_t>(200 + point.row_bytes));
}

// ScatterND in place: every row of data[rows, row] written once, in random order (the inverse move of
// the Gather's: rows scattered rather than gathered).
Workload scatterNDSweepWorkload(const SweepPoint& point) {
  return scatterNDRowsWorkload(pointLabel(point, "ScatterND"), point.type, {point.rows, rowElements(point)},
                               static_cast<uint64_t>(300 + point.row_bytes));
}

// Copy regions are timed for points of at most this many rows (--quick: kMaxQuickTimedRegions). More
// regions make a point of small rows take minutes on a driver like lavapipe (docs/measurements/), and
// the validation layer's checks of one vkCmdCopyBuffer grow with the square of its region count (the
// --quick sweep is a CI test, run under validation).
constexpr int64_t kMaxTimedRegions = 65536;
constexpr int64_t kMaxQuickTimedRegions = 1024;

// The same point with the indices in host memory, forced onto vkCmdCopyBuffer regions (one per row,
// random indices rarely form runs): where its line crosses the kernel's, the planner's threshold.
Workload regionsWorkload(const SweepPoint& point) {
  return hostIndexGatherWorkload(pointLabel(point, "regions"), point.type, {point.rows, rowElements(point)},
                                 DataType::kInt32, {point.rows}, plan::HostIndexPath::kCopyRegions,
                                 static_cast<uint64_t>(100 + point.row_bytes));
}

// 2 x bytes per median second (one read and one write of every output byte), as the main table counts.
double gigabytesPerSecond(uint64_t bytes, const Measurement& time) {
  return time.median_ms > 0.0 ? 2.0 * static_cast<double>(bytes) / (time.median_ms * 1e6) : 0.0;
}

// One point's measurements: the Gather's row carries the copy baselines (the other operators move the
// same bytes); `regions` is empty (median 0) beyond max_timed_regions rows.
struct PointResults {
  RowResult gather;
  RowResult gather_nd;
  RowResult scatter_nd;
  RowResult regions;
};

constexpr int kSweepWidths[] = {10, 8, 9, 8, 12, 14, 15, 13, 16, 18, 18, 5};
const char* const kSweepHeadings[] = {"row bytes",
                                      "type",
                                      "rows",
                                      "out MiB",
                                      "gather GB/s",
                                      "gathernd GB/s",
                                      "scatternd GB/s",
                                      "regions GB/s",
                                      "copyBuffer GB/s",
                                      "compute-copy GB/s",
                                      "gather/copyBuffer",
                                      "runs"};

void printCells(std::ostream& out, const std::string (&cells)[std::size(kSweepWidths)]) {
  for (size_t i = 0; i < std::size(kSweepWidths); ++i) out << (i ? " " : "") << cell(cells[i], kSweepWidths[i]);
  out << "\n";
}

// The date alone (YYYY-MM-DD): RunInfo::date also carries the time of day, which plots do not need.
std::string day(const RunInfo& info) { return info.date.substr(0, 10); }

void printSweepHeader(std::ostream& out, const RunInfo& info, int64_t output_bytes, int64_t max_timed_regions) {
  out << "vkindex bench --sweep: Gather, GatherND and ScatterND GB/s against row size, beside the copy ceilings"
      << (info.quick ? " (--quick sizes)" : "") << "\n"
      << "device:  " << info.device_line << "\n"
      << "driver:  " << info.driver << "\n"
      << "date:    " << day(info) << " (UTC)\n"
      << "timing:  " << info.timing << "\n";
  if (!info.timestamps) out << "WARNING: no device timestamps; the times below are host wall times\n";
  out << "points:  Gather axis 0 of data[rows, row] with int32 indices[rows] (random, table as large as the "
      << "output), " << output_bytes / (1 << 20) << " MiB out per point; baselines copy the same output bytes\n"
      << "gathernd: GatherND of the same rows from data[rows/16, 16, row] by int32 tuples[rows, 2]\n"
      << "scatternd: ScatterND in place onto every row of data[rows, row] once, in random order, by int32 "
      << "tuples[rows, 1]\n"
      << "regions: the same Gather with the indices in host memory, as vkCmdCopyBuffer regions (one per row; "
      << "timed up to " << max_timed_regions << " rows)\n"
      << "note:    GB/s = 2 x output bytes / median time (1 GB = 1e9 B); index reads are not counted, so small "
      << "rows understate the bytes Gather moves\n\n";
  std::string headings[std::size(kSweepWidths)];
  for (size_t i = 0; i < std::size(kSweepWidths); ++i) headings[i] = kSweepHeadings[i];
  printCells(out, headings);
}

void printPoint(std::ostream& out, const RunInfo& info, const SweepPoint& point, const PointResults& results,
                bool json) {
  const RowResult& row = results.gather;
  const RowResult& regions_row = results.regions;
  const double gather = gigabytesPerSecond(row.output_bytes, row.op);
  const double gather_nd = gigabytesPerSecond(results.gather_nd.output_bytes, results.gather_nd.op);
  const double scatter_nd = gigabytesPerSecond(results.scatter_nd.output_bytes, results.scatter_nd.op);
  const double regions = gigabytesPerSecond(row.output_bytes, regions_row.op);
  const bool has_regions = regions_row.op.median_ms > 0.0;  // beyond max_timed_regions: not measured
  const double copy = gigabytesPerSecond(row.output_bytes, row.copy_buffer);
  const double compute = gigabytesPerSecond(row.output_bytes, row.compute_copy);
  if (json) {
    tools::JsonDocument line = {
        {"device", info.device},
        {"date", day(info)},
        {"row_bytes", point.row_bytes},
        {"element_type", dataTypeName(point.type)},
        {"rows", point.rows},
        {"output_bytes", row.output_bytes},
        {"gather_gb_per_s", tools::jsonRounded(gather, 3)},
        {"gathernd_gb_per_s", tools::jsonRounded(gather_nd, 3)},
        {"scatternd_gb_per_s", tools::jsonRounded(scatter_nd, 3)},
        {"regions_gb_per_s", has_regions ? tools::JsonDocument(tools::jsonRounded(regions, 3)) : tools::JsonDocument()},
        {"copy_buffer_gb_per_s", tools::jsonRounded(copy, 3)},
        {"compute_copy_gb_per_s", tools::jsonRounded(compute, 3)},
        {"gather_ms", tools::jsonRounded(row.op.median_ms, 4)},
        {"gathernd_ms", tools::jsonRounded(results.gather_nd.op.median_ms, 4)},
        {"scatternd_ms", tools::jsonRounded(results.scatter_nd.op.median_ms, 4)},
        {"regions_ms",
         has_regions ? tools::JsonDocument(tools::jsonRounded(regions_row.op.median_ms, 4)) : tools::JsonDocument()},
        {"copy_buffer_ms", tools::jsonRounded(row.copy_buffer.median_ms, 4)},
        {"compute_copy_ms", tools::jsonRounded(row.compute_copy.median_ms, 4)},
        {"repeats", row.repeats},
        {"timing", info.timestamps ? "device_timestamps" : "host_wall_time"}};
    tools::writeJsonLine(out, line);
    return;
  }
  const std::string cells[] = {std::to_string(point.row_bytes),
                               dataTypeName(point.type),
                               std::to_string(point.rows),
                               formatNumber("%.2f", static_cast<double>(row.output_bytes) / double(1 << 20)),
                               formatNumber("%.2f", gather),
                               formatNumber("%.2f", gather_nd),
                               formatNumber("%.2f", scatter_nd),
                               has_regions ? formatNumber("%.2f", regions) : "-",
                               formatNumber("%.2f", copy),
                               formatNumber("%.2f", compute),
                               formatNumber("%.2f", copy > 0.0 ? gather / copy : 0.0),
                               std::to_string(row.repeats)};
  printCells(out, cells);
}

void printPointFailure(std::ostream& out, const RunInfo& info, const SweepPoint& point, const Status& status,
                       bool json) {
  if (json) {
    tools::writeJsonLine(
        out,
        {{"device", info.device}, {"date", day(info)}, {"row_bytes", point.row_bytes}, {"error", status.toString()}});
    return;
  }
  out << cell(std::to_string(point.row_bytes), kSweepWidths[0]) << " FAILED: " << status.toString() << "\n";
}

// Every measurement of one point, or the first that failed. Regions are timed up to max_timed_regions
// rows (printed "-" beyond).
StatusOr<PointResults> measurePoint(Context& context, tools::CommandTimer& timer, const SweepPoint& point,
                                    const MeasureOptions& measure, int64_t max_timed_regions) {
  PointResults results;
  VKINDEX_ASSIGN_OR_RETURN(results.gather, measureWorkload(context, timer, sweepWorkload(point), measure));
  VKINDEX_ASSIGN_OR_RETURN(results.gather_nd, measureWorkload(context, timer, gatherNDSweepWorkload(point), measure));
  VKINDEX_ASSIGN_OR_RETURN(results.scatter_nd, measureWorkload(context, timer, scatterNDSweepWorkload(point), measure));
  if (point.rows <= max_timed_regions) {
    VKINDEX_ASSIGN_OR_RETURN(results.regions, measureWorkload(context, timer, regionsWorkload(point), measure));
  }
  return results;
}

}  // namespace

Status runSweep(Context& context, tools::CommandTimer& timer, const RunInfo& info, const MeasureOptions& measure,
                bool json, bool quick, int64_t output_bytes, std::ostream& out) {
  const int64_t max_timed_regions = quick ? kMaxQuickTimedRegions : kMaxTimedRegions;
  if (!json) printSweepHeader(out, info, output_bytes, max_timed_regions);
  out.flush();
  Status first_failure;
  for (int log2 = 0; log2 <= kLargestRowLog2; ++log2) {
    const SweepPoint point = pointFor(int64_t(1) << log2, output_bytes);
    StatusOr<PointResults> results = measurePoint(context, timer, point, measure, max_timed_regions);
    if (results.ok()) {
      printPoint(out, info, point, *results, json);
    } else {
      printPointFailure(out, info, point, results.status(), json);
      if (first_failure.ok()) {
        first_failure = Status(results.status().code(), "sweep, " + std::to_string(point.row_bytes) +
                                                            "-byte rows: " + results.status().message());
      }
    }
    out.flush();
  }
  return first_failure;
}

}  // namespace vkindex::bench
