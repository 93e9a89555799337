// A structural checker for any row-gather plan (Gather, and GatherND's batched k-component tuples), of
// any size: every step's generic parts (kernel, push block size, bindings, specialization, barriers);
// every window aligned, whole words, within maxStorageBufferRange and within its tensor; push
// constants locating exactly the rows and index tuples each step claims; check steps covering every
// index position once with whole tuples, and report steps mirroring them; output rows partitioned
// among copy passes, each row's possible source rows bound exactly once; exact fast-division
// constants. Failures are reported through GoogleTest expectations.
#pragma once

#include <cstdint>

#include "plan/gather_plan.hpp"
#include "plan/op_plan.hpp"
#include "plan/row_gather_plan.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan::test {

// fast_division.glsl, word for word, with the plan's constants.
uint32_t fastDivide(uint32_t n, uint32_t d, uint32_t multiplier, uint32_t shift);

// The check and report steps of `plan` for indices `check` placed at `indices`: one check step per
// window of whole tuples, together covering every index position once, then one report step per check
// step with the same window and push block, the first waiting for the status slot.
bool checkIndexSteps(const OpPlan& plan, const IndexCheck& check, const Placement& indices, const DeviceInfo& device);

// Checks everything about a row-gather plan that does not depend on the tensors' contents. Returns
// whether the plan is sound enough to run.
bool checkStructure(const OpPlan& plan, const RowGather& gather, const Placement& data, const Placement& indices,
                    const Placement& output, const DeviceInfo& device);

// Gather's plan describes its bad indices as one index per element into data dim `axis`.
void expectGatherReport(const OpPlan& plan, const GatherShape& shape);

// Plans a Gather problem and checks the plan's structure (for problems too large to simulate).
StatusOr<OpPlan> checkedPlan(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                             DataType index_type, int64_t axis, const DeviceInfo& device, uint64_t data_offset,
                             uint64_t indices_offset, uint64_t output_offset);

// Plans a row gather with its tensors at the given offsets and checks the plan's structure.
StatusOr<OpPlan> checkedRowPlan(const RowGather& gather, const DeviceInfo& device, uint64_t data_offset,
                                uint64_t indices_offset, uint64_t output_offset);

}  // namespace vkindex::plan::test
