// Printing: the header (device, driver, date, timing method and conventions), one table row or one JSON
// object per workload, and failed rows. Rows are printed as they complete.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kernels/step_timestamps.hpp"
#include "vkindex/status.hpp"
#include "workloads.hpp"

namespace vkindex::bench {

struct Measurement {
  double median_ms = 0.0;
  double min_ms = 0.0;
};

// The host CPU's memcpy of a Gather or GatherND row's copy regions (host_floor.hpp).
struct HostFloor {
  uint64_t regions = 0;
  Measurement region_copies;  // a memcpy per region, in the planner's order
  Measurement one_copy;       // one memcpy of the same bytes
};

struct RowResult {
  uint64_t output_bytes = 0;   // the bytes the baselines copy: the output's, or an in-place row's updates
  uint64_t traffic_bytes = 0;  // the operator's bytes read and written (PreparedCase::traffic_bytes)
  int repeats = 0;
  Measurement op;  // the row's operator
  Measurement copy_buffer;
  Measurement compute_copy;
  // With --steps: each kernel's median device time over as many extra runs, in dispatch order.
  std::vector<kernels::KernelTime> steps;
  // Gather and GatherND rows on CPU devices (MeasureOptions::host_floor).
  std::optional<HostFloor> host_floor;
};

// Facts about the run that every row shares.
struct RunInfo {
  std::string device;       // name
  std::string device_line;  // name, type and Vulkan version
  std::string driver;
  std::string tuning;  // the workgroup size and items per invocation the kernels (and the compute copy) use
  std::string date;
  std::string timing;          // how times were taken, in words
  bool timestamps = true;      // false: host wall time fallback
  int fixed_repeats = 0;       // BenchOptions::repeats (0: chosen per row)
  double row_budget_ms = 0.0;  // host time per row when repeats are chosen per row
  bool quick = false;
};

void printHeader(std::ostream& out, const RunInfo& info, const std::vector<Workload>& workloads);
void printRow(std::ostream& out, const RunInfo& info, const Workload& workload, const RowResult& row, bool json);
void printFailure(std::ostream& out, const RunInfo& info, const Workload& workload, const Status& status, bool json);
// A row the device cannot hold (Workload::skip_when_unsupported): its reason, not a failure.
void printSkip(std::ostream& out, const RunInfo& info, const Workload& workload, const Status& status, bool json);

}  // namespace vkindex::bench
