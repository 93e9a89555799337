// The latency rows of `vkindex bench`: what one small operation costs, where a throughput row cannot
// tell. The operations of a decode step (latency_cases.hpp: embedding rows, a KV row update, a token
// write), each measured as its dispatch count, host time to record it, device time, end-to-end time of
// the synchronous API call, and per-op host and device time when 100 of them share one command buffer,
// beside a bare dispatch of the copy kernel moving the same bytes, alone and 100 at a time.
#pragma once

#include <ostream>

#include "command_timer.hpp"
#include "report.hpp"

namespace vkindex::bench {

// Measures the latency rows on `context` and prints them as a table section (or JSON objects with
// "section": "latency") to `out`. Outputs are checked against the CPU reference after the runs; the
// first failure is returned and the other rows still run. `quick`: fewer runs.
Status runLatency(Context& context, tools::CommandTimer& timer, const RunInfo& info, bool json, bool quick,
                  std::ostream& out);

}  // namespace vkindex::bench
