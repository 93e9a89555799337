// A Tuning drawn at random for a device, for the random-tuning test mode (VKINDEX_TEST_DRIVER
// "<driver>+random_tuning", gpu_test.cpp): no tuning value may change a result's bytes, so the
// operator suites must match the CPU reference under any draw.
#pragma once

#include <cstdint>
#include <string>

#include "plan/tuning.hpp"

namespace vkindex::test {

// Every value drawn from its legal range on `device` (plan::tuningRange), then fitted (plan::fitTuning);
// the same seed and device give the same Tuning. The draw favours the values where planners change
// their course (thresholds of 0, 1, 2 and UINT64_MAX, powers of two), and draws the ones that make large
// calls slow on a CPU driver (workgroups below 32 invocations) less often, never not at all.
plan::Tuning randomTuning(const DeviceInfo& device, uint64_t seed);

// "workgroup_size=48 items_per_invocation=3 ... claim_by_store=1" (UINT64_MAX as "max"): for a log line.
std::string describeTuning(const plan::Tuning& tuning);

}  // namespace vkindex::test
