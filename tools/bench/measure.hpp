// Runs one workload: checks the operator's output (and both baselines') against the CPU reference, then
// times the operator, vkCmdCopyBuffer and the compute copy over the same bytes, interleaved run by run.
#pragma once

#include "command_timer.hpp"
#include "report.hpp"
#include "workloads.hpp"

namespace vkindex::bench {

struct MeasureOptions {
  int repeats = 0;               // fixed number of timed runs; 0: from row_budget_ms
  double row_budget_ms = 500.0;  // host time one row should take when repeats is 0
  int min_repeats = 5;
  int max_repeats = 50;
  bool steps = false;  // also split the operator's time by kernel (RowResult::steps)
  // Gather and GatherND rows also time the host's memcpy of their rows as copy regions
  // (RowResult::host_floor): on CPU devices, where the driver's copy commands and kernels run on the
  // host's cores and memory.
  bool host_floor = false;
};

// One run of the operator: record, submit, wait, then finish() to learn whether the device rejected an
// index (a benchmark must not time an operation that failed). With `steps`, its dispatches are stamped.
StatusOr<tools::Sample> runOperator(Context& context, tools::CommandTimer& timer, PreparedCase& prepared,
                                    kernels::StepTimestamps* steps = nullptr);

// Downloads `tensor` and compares it with the first `expected_size` bytes of `expected`, naming the first
// differing byte.
Status expectBytes(const Tensor& tensor, const std::vector<uint8_t>& expected, uint64_t expected_size,
                   const std::string& what);

// The median and the minimum of `times`.
Measurement summarize(const std::vector<double>& times);

StatusOr<RowResult> measureWorkload(Context& context, tools::CommandTimer& timer, const Workload& workload,
                                    const MeasureOptions& options);

}  // namespace vkindex::bench
