// The GatherElements checker and simulator (gather_elements_simulator.hpp) themselves: sound plans
// pass, and plans broken in the ways a planner could break them fail, the structural checker naming
// what broke, the simulator (run without the structural checks) by the bytes that came out wrong.
// No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gather_elements_simulator.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

struct Problem {
  ElementsCase c;
  GatherElementsShape shape;
  ElementsPlacements at;
  OpPlan plan;
};

Problem planned(const ElementsCase& c) {
  Problem p{c, {}, {}, {}};
  StatusOr<GatherElementsShape> shape =
      inferGatherElementsShape(c.data_shape, c.data_type, c.indices_shape, c.index_type, c.axis);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  if (!shape.ok()) return p;
  p.shape = *shape;
  p.at = placementsOf(p.shape, c.index_type, c.data_offset, c.indices_offset, c.output_offset);
  StatusOr<OpPlan> plan =
      planGatherElements(p.shape, c.index_type, p.at.data, p.at.indices, p.at.output, c.device, c.device);
  EXPECT_TRUE(plan.ok()) << plan.status().toString();
  if (plan.ok()) p.plan = *plan;
  return p;
}

// uint8 (40, 30) by int64 (10, 25) along axis 0 on a 1040-byte range: check, check, report, report, then
// four sub-word passes (two output chunks splitting a word, two data windows); see
// PlanGatherElementsTest.SubWordChunksSplitAnOutputWordAndDataTakesTwoWindows.
ElementsCase subWord() {
  return {{40, 30}, DataType::kUInt8, {10, 25}, DataType::kInt64, 0, 0, 12, 4, fakeDevice(1040, 16), {}};
}

// int64 (3, 50, 5) by int32 (4, 40, 5) along axis 0 at offsets 0: 8-byte units, several passes.
ElementsCase words() {
  return {{3, 50, 5}, DataType::kInt64, {4, 40, 5}, DataType::kInt32, 0, 0, 4, 0, fakeDevice(1024, 16), {}};
}

template <typename Edit>
void editPass(Step& step, Edit edit) {
  abi::GatherElementsParams params = pushOf<abi::GatherElementsParams>(step);
  edit(params);
  setPush(step, params);
}

std::string structureFailures(const Problem& p, const OpPlan& plan) {
  return failuresOf([&] { checkElementsStructure(plan, p.shape, p.c.index_type, p.at, p.c.device); });
}

// Breaks a copy of the plan with `mutate` and expects the structural checker to report `what`.
void expectRejected(const Problem& p, const std::function<void(OpPlan&)>& mutate, const std::string& what) {
  OpPlan broken = p.plan;
  mutate(broken);
  const std::string failures = structureFailures(p, broken);
  EXPECT_NE(failures.find(what), std::string::npos) << "expected a failure naming '" << what << "', got:\n" << failures;
}

// Breaks a copy of the plan with `mutate`, runs it on the simulator (with `bad` planted) and expects a
// failure naming `what` (or one of its '|'-separated alternatives).
void expectMiscomputed(const Problem& p, const std::function<void(OpPlan&)>& mutate, const std::string& what,
                       const BadIndices& bad = {}) {
  OpPlan broken = p.plan;
  mutate(broken);
  ElementsCase c = p.c;
  c.bad = bad;
  const std::string failures = failuresOf([&] { runElementsPlan(broken, c, 7); });
  // `what` lists alternatives, separated by '|'.
  bool named = false;
  for (size_t begin = 0; begin <= what.size();) {
    const size_t end = std::min(what.find('|', begin), what.size());
    named = named || failures.find(what.substr(begin, end - begin)) != std::string::npos;
    begin = end + 1;
  }
  EXPECT_TRUE(named) << "expected a failure naming '" << what << "', got:\n" << failures;
}

TEST(GatherElementsChecksTest, SoundPlansPassAndRunClean) {
  for (const ElementsCase& c : {subWord(), words()}) {
    const Problem p = planned(c);
    EXPECT_EQ(structureFailures(p, p.plan), "") << describe(c);
    EXPECT_EQ(failuresOf([&] { runElementsPlan(p.plan, c, 7); }), "") << describe(c);
    ElementsCase bad = c;
    bad.bad = {{130, 41}};
    EXPECT_EQ(failuresOf([&] { EXPECT_TRUE(runElementsPlan(p.plan, bad, 7).bad_found); }), "") << describe(c);
  }
  EXPECT_EQ(kernels(planned(subWord()).plan), "check_indices x2, report_index x2, gather_element_bytes x4");
  EXPECT_EQ(kernels(planned(words()).plan), "check_indices x4, report_index x4, gather_elements_8 x49");
}

TEST(GatherElementsChecksTest, BrokenPassesAreRejected) {
  const Problem p = planned(subWord());
  ASSERT_EQ(p.plan.steps.size(), 8u);
  // Barriers: the first pass waits for the checks, later sub-word passes for their output.
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[4].wait_for.clear(); }, "wait_for");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[6].wait_for.clear(); }, "wait_for");
  // Push constants locating the pass's elements, indices and data.
  expectRejected(
      p, [](OpPlan& plan) { editPass(plan.steps[5], [](auto& g) { ++g.data_unit_offset; }); }, "data_unit_offset");
  expectRejected(
      p, [](OpPlan& plan) { editPass(plan.steps[6], [](auto& g) { --g.out_unit_offset; }); }, "out_unit_offset");
  expectRejected(
      p, [](OpPlan& plan) { editPass(plan.steps[6], [](auto& g) { ++g.indices_word_offset; }); },
      "indices_word_offset");
  expectRejected(
      p, [](OpPlan& plan) { editPass(plan.steps[7], [](auto& g) { --g.out_word_count; }); }, "out_word_count");
  expectRejected(
      p, [](OpPlan& plan) { editPass(plan.steps[7], [](auto& g) { g.axis_dim = 1; }); }, "axis_dim");
  expectRejected(
      p, [](OpPlan& plan) { editPass(plan.steps[7], [](auto& g) { g.extents[1] = 26; }); }, "extents");
  expectRejected(
      p, [](OpPlan& plan) { editPass(plan.steps[7], [](auto& g) { g.data_strides[0] = 31; }); }, "data_strides");
  expectRejected(
      p, [](OpPlan& plan) { editPass(plan.steps[4], [](auto& g) { g.units_per_element = 2; }); }, "units_per_element");
  // Every output element from every data element it can reach, once.
  expectRejected(
      p, [](OpPlan& plan) { plan.steps.erase(plan.steps.begin() + 5); }, "data_ranges.back().second");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps.insert(plan.steps.begin() + 5, plan.steps[4]); }, "data_ranges[i - 1].second");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps.erase(plan.steps.begin() + 6, plan.steps.end()); }, "next");
  // Windows and dispatch shape.
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[5].bindings[0].window.size -= 4; }, "data_window.size");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[6].bindings[2].window.offset += 4; }, "invalid");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[4].spec[kSpecUnitBytes] = 2; }, "spec");
  expectRejected(
      p, [](OpPlan& plan) { ++plan.steps[7].groups; }, "groups");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[7].push_bytes = 108; }, "push_bytes");
}

TEST(GatherElementsChecksTest, TheSimulatorCatchesWrongBytes) {
  for (const ElementsCase& c : {subWord(), words()}) {
    SCOPED_TRACE(describe(c));
    const Problem p = planned(c);
    // The first pass: output chunk 0 from data window 0, which holds sources of many of its elements.
    const size_t first = checkSteps(p.plan).size() * 2;
    const std::string wrong = "output buffer byte|outside";  // wrong bytes, or read outside a window
    expectMiscomputed(
        p, [&](OpPlan& plan) { plan.steps.erase(plan.steps.begin() + static_cast<long>(first)); }, "written 0 times");
    expectMiscomputed(
        p, [&](OpPlan& plan) { plan.steps.push_back(plan.steps[first]); }, "written 2 times");
    expectMiscomputed(
        p, [&](OpPlan& plan) { editPass(plan.steps[first], [](auto& g) { ++g.data_unit_offset; }); }, wrong);
    expectMiscomputed(
        p, [&](OpPlan& plan) { editPass(plan.steps[first], [](auto& g) { ++g.indices_word_offset; }); }, wrong);
    expectMiscomputed(
        p,
        [&](OpPlan& plan) {
          const uint32_t last_dim = plan.steps[first].spec[kSpecDimCount] - 1;
          editPass(plan.steps[first], [&](auto& g) { g.data_strides[last_dim] += 1; });
        },
        wrong);
    expectMiscomputed(
        p, [&](OpPlan& plan) { editPass(plan.steps[first], [](auto& g) { --g.axis_size; }); }, wrong);
    // Accesses outside a window fail instead of touching memory.
    expectMiscomputed(
        p, [&](OpPlan& plan) { plan.steps[first].bindings[2].window.size = 16; }, "outside");
    expectMiscomputed(
        p, [&](OpPlan& plan) { plan.steps[first].bindings[0].window.size = 16; }, "outside");
    // Bad indices: without the checks nothing is found (and everything written); without the reports
    // nothing is recorded.
    const BadIndices bad = {{130, -41}};
    expectMiscomputed(
        p,
        [&](OpPlan& plan) { plan.steps.erase(plan.steps.begin(), plan.steps.begin() + static_cast<long>(first / 2)); },
        "expected_bad_", bad);
    expectMiscomputed(
        p,
        [&](OpPlan& plan) {
          plan.steps.erase(plan.steps.begin() + static_cast<long>(first / 2),
                           plan.steps.begin() + static_cast<long>(first));
        },
        "reporters_.size()", bad);
  }
}

}  // namespace
}  // namespace vkindex::plan::test
