// The probes of `vkindex tune`: for each group of tuning values that decide one crossover, the
// candidate settings to sweep and the benchmark rows whose time they change.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/tuning.hpp"
#include "workloads.hpp"

namespace vkindex::tune {

struct Probe {
  std::string name;                       // what it decides, in words
  std::vector<plan::TuningValue> values;  // the values each candidate sets, in this order
  // Each candidate: one setting per value. Candidates outside a value's range on the device are
  // dropped when the probe runs, and the setting in effect is always added.
  std::vector<std::vector<uint64_t>> candidates;
  std::vector<bench::Workload> rows;  // timed for every candidate, each checked against the CPU
};

// The probes in the order they run: each starts from the settings the ones before it chose. Values
// whose feature the device lacks (shaderInt64, float controls) have no probe there.
std::vector<Probe> tuningProbes(const DeviceInfo& device, bool quick);

}  // namespace vkindex::tune
