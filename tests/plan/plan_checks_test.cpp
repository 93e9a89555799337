// The structural checker (plan_checks.hpp) itself: sound plans pass, and plans broken in each of the
// generic ways a planner could break them (a missing barrier, a report step that no longer mirrors its
// check, a push block of the wrong size, a lost check window, a misplaced tuple window) fail with a
// message naming what broke. No GPU needed.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "plan_checks.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

// 2 batches of 50 int64 pairs over two check windows (see PlanRowGatherTest.BatchedPairsOverTwoIndexWindows):
// check, check, report, report, copy, copy.
RowGather batchedPairs() { return rowGather(2, 50, 16, {3, 5}, DataType::kInt64, true); }

struct Problem {
  RowGather gather;
  Placement data, indices, output;
  FakeDevice device;
  OpPlan plan;
};

Problem planned(const RowGather& gather, uint64_t data_offset, uint64_t indices_offset, uint64_t output_offset) {
  Problem p{gather,
            placed(data_offset, dataBytes(gather)),
            placed(indices_offset, indicesBytes(gather)),
            placed(output_offset, outputBytes(gather)),
            fakeDevice(1024, 16),
            {}};
  StatusOr<OpPlan> plan = planRowGather(gather, p.data, p.indices, p.output, p.device, p.device);
  EXPECT_TRUE(plan.ok()) << plan.status().toString();
  if (plan.ok()) p.plan = *plan;
  return p;
}

// Breaks a copy of the plan with `mutate` and expects the checker to report `what`.
void expectRejected(const Problem& p, const std::function<void(OpPlan&)>& mutate, const std::string& what) {
  OpPlan broken = p.plan;
  mutate(broken);
  const std::string failures =
      failuresOf([&] { checkStructure(broken, p.gather, p.data, p.indices, p.output, p.device); });
  EXPECT_NE(failures.find(what), std::string::npos) << "expected a failure naming '" << what << "', got:\n" << failures;
}

template <typename Params, typename Edit>
void editPush(Step& step, Edit edit) {
  Params params = pushOf<Params>(step);
  edit(params);
  setPush(step, params);
}

TEST(PlanChecksTest, SoundPlansPass) {
  const Problem pairs = planned(batchedPairs(), 0, 12, 0);
  ASSERT_EQ(kernels(pairs.plan), "check_indices x2, report_index x2, gather_short_rows x2");
  EXPECT_EQ(failuresOf([&] {
              checkStructure(pairs.plan, pairs.gather, pairs.data, pairs.indices, pairs.output, pairs.device);
            }),
            "");
}

TEST(PlanChecksTest, BrokenGenericPartsAreRejected) {
  const Problem p = planned(batchedPairs(), 0, 12, 0);
  ASSERT_EQ(p.plan.steps.size(), 6u);
  // Barriers: the first copy must wait for the checks, the first report for the checks.
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[4].wait_for.clear(); }, "wait_for");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[2].wait_for.clear(); }, "wait_for");
  expectRejected(
      p, [](OpPlan& plan) { waitForChecks(plan.steps[5]); }, "wait_for");
  // Push blocks: their kernel's size, status slot left to the runner.
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[4].push_bytes = 64; }, "push_bytes");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[0].push[0] = 1; }, "status slot");
  // Report steps mirror their check step.
  expectRejected(
      p,
      [](OpPlan& plan) { editPush<abi::CheckParams>(plan.steps[3], [](abi::CheckParams& c) { ++c.position_base; }); },
      "report.push");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[3].bindings[0].window.offset = 0; }, "report.bindings");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps.erase(plan.steps.begin() + 3); }, "reports.size()");
  // Checks cover every position once, with the tuples' extents.
  expectRejected(
      p, [](OpPlan& plan) { plan.steps.erase(plan.steps.begin() + 1); }, "checked");
  expectRejected(
      p, [](OpPlan& plan) { editPush<abi::CheckParams>(plan.steps[1], [](abi::CheckParams& c) { c.extents[1] = 4; }); },
      "extent 1");
  // Copies locate their tuples and use the tuples' extents and stride.
  expectRejected(
      p,
      [](OpPlan& plan) {
        editPush<abi::GatherRowsParams>(plan.steps[5], [](abi::GatherRowsParams& g) { ++g.index_window_begin; });
      },
      "index_window_begin");
  expectRejected(
      p,
      [](OpPlan& plan) {
        editPush<abi::GatherRowsParams>(plan.steps[5], [](abi::GatherRowsParams& g) { g.index_outer_stride = 0; });
      },
      "index_outer_stride");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[5].spec[kSpecIndexWords] = 1; }, "spec");
  // Steps run checks, then reports, then copies.
  expectRejected(
      p, [](OpPlan& plan) { std::swap(plan.steps[1], plan.steps[2]); }, "out of order");
}

TEST(PlanChecksTest, SubWordCopiesAfterTheFirstMustWaitForTheirOutput) {
  // 1-byte rows reading two data windows (PlanGatherTest.SubWordRowsShareOutputWordsAcrossTwoDataWindows).
  const Problem p = planned(rowGather(4, 5, 1, {300}, DataType::kInt32, false), 4, 0, 12);
  ASSERT_EQ(kernels(p.plan), "check_indices x1, report_index x1, gather_row_bytes x2");
  expectRejected(
      p, [](OpPlan& plan) { plan.steps[3].wait_for.clear(); }, "wait_for");
}

}  // namespace
}  // namespace vkindex::plan::test
