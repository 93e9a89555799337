// A structural checker for any gather plan, of any size: every window aligned, whole words, within
// maxStorageBufferRange and within its tensor; push constants locating exactly the rows and indices
// each pass claims; check passes covering every index position once; output rows partitioned among
// passes, each row's possible source rows bound exactly once; exact fast-division constants.
// Failures are reported through GoogleTest expectations.
#pragma once

#include <cstdint>

#include "plan/gather_plan.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan::test {

// fast_division.glsl, word for word, with the plan's constants.
uint32_t fastDivide(uint32_t n, uint32_t d, uint32_t multiplier, uint32_t shift);

// Checks everything about a plan that does not depend on the tensors' contents. Returns whether the
// plan is sound enough to run.
bool checkStructure(const GatherPlan& plan, const GatherShape& s, DataType index_type, const Placement& data,
                    const Placement& indices, const Placement& output, const DeviceInfo& device);

// Plans a problem and checks the plan's structure (for problems too large to simulate).
StatusOr<GatherPlan> checkedPlan(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                                 DataType index_type, int64_t axis, const DeviceInfo& device, uint64_t data_offset,
                                 uint64_t indices_offset, uint64_t output_offset);

}  // namespace vkindex::plan::test
