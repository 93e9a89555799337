// `vkindex tune`: measures on one device the tuning values that decide vkindex's strategies (probes.hpp)
// and writes them as a tuning profile (src/plan/tuning_profile.hpp) that Contexts on that device then
// take over the built-in table. docs/tuning.md#profiles.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "vkindex/status.hpp"

namespace vkindex::tune {

struct TuneOptions {
  std::string device;  // as ContextOptions::device; empty for the default
  // Smaller workloads, fewer candidates and runs: a profile in under a minute on a CPU driver.
  bool quick = false;
  // Where the profile goes; nullopt: the file a Context looks for in the pipeline cache folder.
  std::optional<std::string> output;
  // Show a progress bar on stderr (when it is a terminal: the bar redraws one line).
  bool progress = true;
};

// Runs every probe that applies to the device, checks each run's output against the CPU reference,
// prints one line per probe to `out` and writes the profile.
Status runTune(const TuneOptions& options, std::ostream& out);

}  // namespace vkindex::tune
