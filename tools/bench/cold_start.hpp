// `vkindex bench --cold-start`: how long a fresh process takes from its start to its first Gather result,
// without a pipeline cache file and with one. Each measurement is a child process (this executable,
// run with the hidden --cold-start-child), so everything a real first call pays is inside it: loading,
// instance and device creation, pipeline creation, the upload, the operation and the download.
#pragma once

#include <ostream>

#include "bench.hpp"

namespace vkindex::bench {

// Starts the children, each with VKINDEX_PIPELINE_CACHE_DIR pointing into a temporary directory this
// creates and removes: the "cold" runs start with it empty, the "warm" ones with the file an earlier
// child saved. Prints a small table (or one JSON object per case with "section": "cold_start").
Status runColdStart(const BenchOptions& options, std::ostream& out);

// The child's side: creates the Context, gathers once, checks the result against the CPU and prints one
// JSON line with its own timings, the device's name and whether the pipeline cache file was loaded.
Status runColdStartChild(const BenchOptions& options, std::ostream& out);

}  // namespace vkindex::bench
