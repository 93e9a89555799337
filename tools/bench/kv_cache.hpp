// The KV-cache section of `vkindex bench`: the cache writes of LLM inference recorded as an engine records
// them, every layer's K and V cache written in place by one operator each, all into one command buffer,
// beside vkCmdCopyBuffer of exactly the bytes written (the same regions, from other update bytes).
// Rows: decode-step (one token), prefill-512 (a 512-token prompt), kv-circular (a circular write that
// wraps) and paged-kv (ScatterND into a paged pool, padding slots -1 skipped). docs/benchmarks.md explains the columns.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "command_timer.hpp"
#include "report.hpp"

namespace vkindex::bench {

// The section's row names, in the order they run.
std::vector<std::string> kvCacheRowNames();

// Measures the rows named in `rows` (a subset of kvCacheRowNames()) on `context` and prints them as a
// table section (or JSON objects with "section": "kv-cache") to `out`. Every cache is checked whole
// against the CPU's model after the operators' first run and after the timed runs (the operators ran
// last), the first and last cache after the baseline's first run; the first failure is returned and the
// other rows still run. `quick`: smaller caches (kvCacheSizes) and fewer runs.
Status runKvCache(Context& context, tools::CommandTimer& timer, const RunInfo& info,
                  const std::vector<std::string>& rows, bool json, bool quick, std::ostream& out);

}  // namespace vkindex::bench
