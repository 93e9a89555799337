// Where each update of a scatter lands, computed on the host: the walk of the one reduction that runs
// there (string add, ops/string_concatenation.hpp). Pure C++, like the rest of the planner.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/scatter_plan.hpp"

namespace vkindex::plan {

// What scatterDestinations gives an update that takes no part (the skip policy).
constexpr uint64_t kSkippedDestination = UINT64_MAX;

// The flat row-major position in the output of every element of updates, in updates' row-major order
// (the order the reductions apply them in). `index_bytes`: indices' elements, little-endian, of
// shape.check.index_type. Under shape.check.policy kError every value must already be checked against
// its extent (the device's index check), and negative values count from the end; under kSkip an update
// whose index (any component of its tuple) lies outside [0, s-1] gets kSkippedDestination. ScatterElements walks the
// coalesced dims the kernels walk (shape.dims); ScatterND one slice of shape.slice_elements per tuple.
std::vector<uint64_t> scatterDestinations(const ScatterShape& shape, const std::vector<uint8_t>& index_bytes);

}  // namespace vkindex::plan
