// GatherElements plans (src/plan/gather_elements_plan) checked without a GPU: a structural checker
// for plans of any size, and a byte-level CPU simulator of the steps they dispatch
// (check_indices.comp, report_index.comp and gather_elements.comp, word for word: the coordinate
// walk over the coalesced dims, whole units, sub-word words assembled from owned bytes and stored
// through storeOwnedBits' atomics when partly owned), run in plan order against one status slot.
// Kernels reach the tensors only through each step's windows and push constants: every access must
// stay inside its window; with valid indices every output byte must be written exactly once and no
// other byte at all, matching a direct GatherElements over the uncoalesced shapes; with planted bad
// indices the first bad position must be found, its value recorded by exactly the report step whose
// window holds it, and nothing written. Failures are reported through GoogleTest expectations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "fake_device.hpp"
#include "plan/gather_elements_plan.hpp"
#include "plan/op_plan.hpp"
#include "plan/shape.hpp"
#include "simulator_support.hpp"

namespace vkindex::plan::test {

// A GatherElements problem, planned with planGatherElements.
struct ElementsCase {
  Shape data_shape;
  DataType data_type = DataType::kFloat32;
  Shape indices_shape;
  DataType index_type = DataType::kInt32;
  int64_t axis = 0;
  uint64_t data_offset = 0, indices_offset = 0, output_offset = 0;
  FakeDevice device;
  BadIndices bad;  // flat positions in indices
};

// A simulated plan and what its element passes did.
struct ElementsRun {
  OpPlan plan;
  bool bad_found = false;      // a bad index was planted and (unless a failure says otherwise) found
  uint64_t whole_stores = 0;   // output words stored whole (units of 4 bytes or more, fully owned sub-word words)
  uint64_t masked_stores = 0;  // partly owned sub-word words stored through atomicAnd/atomicOr
};

// The coalesced dims, "(extent/data_extent: data_stride, ...)" with the axis dim's extents starred:
// "(2/2: 60, 3/3*: 20, 20/20: 1)".
std::string dimsString(const GatherElementsShape& shape);

// The case in one line, for failure messages.
std::string describe(const ElementsCase& c);

// The tensors' byte ranges for `shape` at the given offsets.
struct ElementsPlacements {
  Placement data, indices, output;
};
ElementsPlacements placementsOf(const GatherElementsShape& shape, DataType index_type, uint64_t data_offset,
                                uint64_t indices_offset, uint64_t output_offset);

// Checks everything about a GatherElements plan that does not depend on the tensors' contents:
// generic step parts; check and report steps covering every index once; one kind of element pass
// (unit, specialization) with valid windows locating exactly the output elements, indices and data
// elements its push block names; the first pass waiting for the checks, later sub-word passes for
// their output; output ranges tiling the output, each with data ranges tiling every data element
// its elements can reach. Returns whether the plan is sound enough to run.
bool checkElementsStructure(const OpPlan& plan, const GatherElementsShape& shape, DataType index_type,
                            const ElementsPlacements& at, const FakeDevice& device);

// GatherElements' plan describes its bad indices as one index per element into data dim `axis`.
void expectElementsReport(const OpPlan& plan, const GatherElementsShape& shape);

// Plans `c`, checks the plan's structure, runs all of its steps on random tensors and compares with
// a reference. Returns nullopt when inference or planning failed (planning may only fail, with its
// exact message, for more than VKINDEX_MAX_ELEMENT_DIMS coalesced dims).
std::optional<ElementsRun> simulate(const ElementsCase& c, uint32_t seed);

// Runs `plan` (any plan made for `c`, sound or not: its structure is not checked) on random tensors
// with c's bad indices planted, and checks the result as above.
ElementsRun runElementsPlan(OpPlan plan, const ElementsCase& c, uint32_t seed);

}  // namespace vkindex::plan::test
