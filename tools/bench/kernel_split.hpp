// Counting an operation's dispatches: one run with the step-timestamp hook set (a timestamp after every
// dispatch vkindex records), for the sections that report how many dispatches a row takes.
#pragma once

#include <functional>
#include <vector>

#include "kernels/step_timestamps.hpp"
#include "vkindex/context.hpp"

namespace vkindex::bench {

// Sets the hook on `context`, calls `run` (which records the operations after stamps.begin(cmd) in its
// command buffer and waits for them), unsets the hook and returns the split by kernel.
StatusOr<std::vector<kernels::KernelTime>> splitByKernel(
    Context& context, const std::function<Status(kernels::StepTimestamps& stamps)>& run);

// The dispatches of a split, all kernels together.
int dispatchCount(const std::vector<kernels::KernelTime>& kernels);

}  // namespace vkindex::bench
