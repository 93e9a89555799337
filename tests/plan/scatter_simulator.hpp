// ScatterElements and ScatterND plans (src/plan/scatter_plan) checked without a GPU: a CPU simulator
// of the steps they dispatch, mirroring the kernels' loops and address arithmetic word for word
// (copy_words, scatter_elements, scatter_nd and its checked variant, the claim passes of both, the winner
// table's write passes, and the fold by owner's count, bucket and fold passes, whose buckets it fills
// in a random order), including the 32-bit wrap of word offsets in windows that start past their
// tensor's first byte. Kernels reach the tensors only through each step's windows and push constants:
// every access must stay inside its window and land on the byte the kernel means; an out-of-place
// copy must write each output byte exactly once; and every data element must receive exactly the
// updates that address it, in index order (the last one alone where a winner table decides). Scratch
// memory starts as random words: a pass that reads a word no pass wrote gets garbage.
// Failures are reported through GoogleTest expectations.
#pragma once

#include <cstdint>
#include <string>

#include "fake_device.hpp"
#include "plan/scatter_plan.hpp"

namespace vkindex::plan::test {

// A ScatterElements (nd false) or ScatterND problem, planned with planScatter.
struct ScatterCase {
  bool nd = false;
  Shape data_shape;
  DataType data_type = DataType::kFloat32;
  Shape indices_shape;
  DataType index_type = DataType::kInt32;
  int64_t axis = 0;  // ScatterElements
  Reduction reduction = Reduction::kNone;
  bool in_place = false;
  uint64_t data_offset = 0, indices_offset = 0, updates_offset = 0, output_offset = 0;
  FakeDevice device;
};

// The case in one line, for failure messages.
std::string describe(const ScatterCase& c);

// The update elements a plan's scatter passes visit, filtered out or not: what simulating it costs.
uint64_t scatterWork(const OpPlan& plan);

// Plans `c` and simulates the plan with random valid indices drawn from `seed`. Returns the planner's
// status (a refusal passes through without simulating).
Status simulateScatter(const ScatterCase& c, uint32_t seed);

}  // namespace vkindex::plan::test
