// `vkindex bench --sweep`: Gather throughput against the size of one gathered row (1 byte to 64 KiB),
// beside vkCmdCopyBuffer and the compute copy moving the same bytes, to show where Gather stops paying
// per row and starts running at copy bandwidth.
#pragma once

#include <ostream>

#include "command_timer.hpp"
#include "measure.hpp"
#include "report.hpp"

namespace vkindex::bench {

// Measures every sweep point on `context` and prints a table (or one JSON object per point) to `out` as
// points complete. Each point's output is checked against the CPU reference before it is timed; a failed
// point is reported and the sweep goes on; the first failure is returned. `output_bytes` per point
// (BenchOptions::sweep_mib); `quick`: copy regions timed for fewer rows.
Status runSweep(Context& context, tools::CommandTimer& timer, const RunInfo& info, const MeasureOptions& measure,
                bool json, bool quick, int64_t output_bytes, std::ostream& out);

}  // namespace vkindex::bench
