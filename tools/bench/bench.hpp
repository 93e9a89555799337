// vkindex-bench: times the operators against two copy baselines (vkCmdCopyBuffer and vkindex's own
// compute copy shader) on one device, in one process, so the ratios compare like with like.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "vkindex/status.hpp"

namespace vkindex::bench {

struct BenchOptions {
  // Device selector, as ContextOptions::device: an index or a name substring; empty for the default.
  std::string device;
  // As ContextOptions::tuning_profile: a profile from `vkindex tune` (nullopt: where a Context looks).
  std::optional<std::string> tuning_profile;
  // One JSON object per row instead of the table.
  bool json = false;
  // Timed runs per measurement. 0: chosen per workload so each row takes about 0.5 s, at least 5 and at
  // most 50.
  int repeats = 0;
  // Only the table rows whose names contain one of these (all rows where empty); the latency rows run
  // only where one of them is "latency", the KV-cache rows where one names them or is in "kv-cache". For
  // A/B runs of a few rows.
  std::vector<std::string> only;
  // Smaller sizes, for a smoke test.
  bool quick = false;
  // Under each table row, the operator's device time split by kernel (extra runs with a timestamp after
  // every dispatch, apart from the timed ones).
  bool steps = false;
  // Instead of the operator table: Gather GB/s against row size (sweep.hpp).
  bool sweep = false;
  // The sweep's output per point in MiB, 1 to 256 (0: 16, or 1 with --quick). A GPU whose L2 cache holds 16 MiB
  // twice over (an NVIDIA H200's holds 60 MB) needs more to time its memory rather than its cache.
  int sweep_mib = 0;
  // Instead of the operator table: process start to the first Gather result, with and without a pipeline
  // cache file (cold_start.hpp).
  bool cold_start = false;
  // Internal: this process is one of --cold-start's children.
  bool cold_start_child = false;
};

// Runs every workload on the selected device and prints the table (or one JSON object per line) to
// `out` as rows complete, then the latency rows (latency.hpp) and the KV-cache rows (kv_cache.hpp); with
// options.sweep or cold_start, that mode instead.
// Every workload's output is checked against a CPU reference before it is timed; a mismatch aborts
// that row, the remaining rows still run, and the first failure is returned.
Status runBenchmarks(const BenchOptions& options, std::ostream& out);

}  // namespace vkindex::bench
