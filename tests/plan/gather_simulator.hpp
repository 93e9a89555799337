// A byte-level CPU simulator of check_indices.comp and gather.comp (word for word, including the
// multiply-high division and the sub-word fast path) that reaches the tensors only through each
// dispatch's windows and push constants: every access must stay inside its window, every output
// byte must be written exactly once and no other byte at all, the result must match a direct
// reference gather, and a planted bad index must be found at its position and reported with its
// value. Failures are reported through GoogleTest expectations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plan/gather_plan.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan::test {

struct SimCase {
  Shape data_shape;
  DataType data_type = DataType::kFloat32;
  Shape indices_shape;
  DataType index_type = DataType::kInt32;
  int64_t axis = 0;
  uint64_t data_offset = 0, indices_offset = 0, output_offset = 0;
  DeviceInfo device;
  std::vector<std::pair<uint64_t, int64_t>> bad;  // (position, value) planted among random valid indices
};

// The case in one line, for failure messages.
std::string describe(const SimCase& c);

// Plans `c`, checks the plan's structure, runs its check passes and then either its copy passes (all
// indices valid) or its bad-index reports, and compares with a reference. Returns the plan, or
// nullopt when planning failed (which it may only do for a slice larger than a window).
std::optional<GatherPlan> simulate(const SimCase& c, uint32_t seed);

}  // namespace vkindex::plan::test
