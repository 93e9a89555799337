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
// point is reported and the sweep goes on; the first failure is returned. `quick`: 1 MiB per point
// instead of 16 MiB.
Status runSweep(Context& context, tools::CommandTimer& timer, const RunInfo& info, const MeasureOptions& measure,
                bool json, bool quick, std::ostream& out);

}  // namespace vkindex::bench
