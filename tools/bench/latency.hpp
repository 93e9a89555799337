// The latency rows of `vkindex bench`: what one small operation costs, where a throughput row cannot
// tell. A 1-row Gather (an embedding lookup of one token) and a 1-row in-place ScatterND (a KV-cache
// row update), each measured four ways: host time to record it, device time, end-to-end time of the
// synchronous API call, and per-op host and device time when 100 of them share one command buffer.
#pragma once

#include <ostream>

#include "command_timer.hpp"
#include "report.hpp"

namespace vkindex::bench {

// Measures both latency rows on `context` and prints them as a table section (or JSON objects with
// "section": "latency") to `out`. Outputs are checked against the CPU reference after the runs; the
// first failure is returned and the other row still runs. `quick`: fewer runs.
Status runLatency(Context& context, tools::CommandTimer& timer, const RunInfo& info, bool json, bool quick,
                  std::ostream& out);

}  // namespace vkindex::bench
