// A byte-level CPU simulator of the steps a row-gather plan (Gather, and GatherND's k-component tuples
// with index_outer_stride 0 or N) dispatches: check_indices.comp, report_index.comp and
// gather_rows.comp, word for word (including the multiply-high division, the tuple reads and the
// sub-word fast path), run in plan order against one status slot. Kernels reach the tensors only
// through each step's windows and push constants: every access must stay inside its window; with
// valid indices every output byte must be written exactly once and no other byte at all, matching a
// direct reference gather; with planted bad indices the first bad position must be found, its value
// recorded by exactly the report step whose window holds it, and nothing written. Failures are
// reported through GoogleTest expectations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fake_device.hpp"
#include "plan/gather_plan.hpp"
#include "plan/op_plan.hpp"
#include "plan/row_gather_plan.hpp"
#include "plan/shape.hpp"
#include "simulator_support.hpp"

namespace vkindex::plan::test {

// A Gather problem, planned with planGather.
struct SimCase {
  Shape data_shape;
  DataType data_type = DataType::kFloat32;
  Shape indices_shape;
  DataType index_type = DataType::kInt32;
  int64_t axis = 0;
  uint64_t data_offset = 0, indices_offset = 0, output_offset = 0;
  FakeDevice device;
  BadIndices bad;
};

// A row gather (src/plan/row_gather_plan.hpp), planned directly with planRowGather. Tensors are
// data (outer, A, row_bytes), indices (tuple_count, k) and output (outer, index_count, row_bytes).
struct RowGatherCase {
  RowGather gather;
  uint64_t data_offset = 0, indices_offset = 0, output_offset = 0;
  FakeDevice device;
  BadIndices bad;  // positions count tuple components: tuple t's component c is position t * k + c
};

// The case in one line, for failure messages.
std::string describe(const SimCase& c);
std::string describe(const RowGatherCase& c);

// Plans `c`, checks the plan's structure, runs all of its steps on random tensors and compares with
// a reference. Returns the plan, or nullopt when planning failed (which it may only do for a slice
// larger than a window).
std::optional<OpPlan> simulate(const SimCase& c, uint32_t seed);
std::optional<OpPlan> simulate(const RowGatherCase& c, uint32_t seed);

// Runs `plan` (made for `gather` with the tensors at these placements) on random tensors with the bad
// indices planted, and checks the result as above. Returns whether everything held.
bool runRowGather(const OpPlan& plan, const RowGather& gather, const Placement& data, const Placement& indices,
                  const Placement& output, const FakeDevice& device, const BadIndices& bad, uint32_t seed);

}  // namespace vkindex::plan::test
