// The vkindex CLI's subcommands: each one's options, as main.cpp's command line fills them in, and its
// run...Command, which does the work and returns the exit code: 0 success, 1 a test failed or an
// operation errored. Usage errors (2) come from parsing, in main.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench.hpp"
#include "tune.hpp"

namespace vkindex::tools {

struct DevicesOptions {
  bool json = false;  // one JSON document instead of the text list
  // The tuning overrides a Context would be given (ContextOverrides; VKINDEX_GPU_TUNING=1 also sets
  // gpu_tuning): the tuning printed is the one such a Context would run with, each value's source said.
  uint32_t workgroup_size = 0;
  uint32_t items_per_invocation = 0;
  uint64_t min_walk_lines = 0;
  bool gpu_tuning = false;
  // As ContextOptions::tuning_profile: nullopt looks where a Context would.
  std::optional<std::string> tuning_profile;
};
int runDevicesCommand(const DevicesOptions& options);

struct OnnxTestOptions {
  std::string device;                         // as ContextOptions::device; empty for the default
  bool json = false;                          // one JSON object per directory instead of text lines and a summary
  int repeat = 0;                             // > 0: also time the operator this many times (NodeTestOptions::repeat)
  std::optional<std::string> tuning_profile;  // as ContextOptions::tuning_profile
  std::vector<std::string> dirs;
};
int runOnnxTestCommand(const OnnxTestOptions& options);

int runBenchCommand(const bench::BenchOptions& options);

int runTuneCommand(const tune::TuneOptions& options);

}  // namespace vkindex::tools
