// Unit tests for the scatter planner (src/plan/scatter_plan), no GPU: the step sequence of each form,
// its barriers, the kernel's specialization (element size, reduction, arithmetic, dims), and the
// limits it refuses. The heavy runs' passes and the row segments are in scatter_plan_passes_test.cpp.
#include <gtest/gtest.h>

#include "common/copy_words_params.h"
#include "common/scatter_buckets_params.h"
#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"
#include "common/spec_ids.h"
#include "plan/scatter_fold_plan.hpp"
#include "plan/scatter_plan.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

ScatterShape elementsShape(DataType type, Reduction reduction) {
  StatusOr<ScatterShape> shape =
      inferScatterElementsShape({6, 5}, type, {4, 5}, DataType::kInt64, {4, 5}, type, 0, reduction);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  return shape.ok() ? *shape : ScatterShape{};
}

// The kernel of the last step that `device` plans for 64 `reduction` updates scattered in place into a
// vector of 40 `type` elements (a single line): which walk, fold or atomic pass serves it.
std::string vectorScatterKernel(DataType type, Reduction reduction, const FakeDevice& device) {
  StatusOr<ScatterShape> vector =
      inferScatterElementsShape({40}, type, {64}, DataType::kInt64, {64}, type, 0, reduction);
  EXPECT_TRUE(vector.ok());
  const uint64_t bytes = elementSize(type);
  StatusOr<OpPlan> plan = planScatter(*vector, placed(0, 40 * bytes), placed(1024, 512), placed(2048, 64 * bytes),
                                      placed(0, 40 * bytes), true, device, device);
  EXPECT_TRUE(plan.ok()) << plan.status().toString();
  return plan.ok() ? kernelName(plan->steps.back().kernel) : "";
}

// The kernels of a ScatterElements `reduction` of `type` along dim 0 of a [20, 2] tensor: two lines
// of 16 updates each, in place.
std::string twoLineScatterKernels(DataType type, Reduction reduction, const FakeDevice& device) {
  StatusOr<ScatterShape> two_lines =
      inferScatterElementsShape({20, 2}, type, {16, 2}, DataType::kInt64, {16, 2}, type, 0, reduction);
  EXPECT_TRUE(two_lines.ok());
  const uint64_t bytes = elementSize(type);
  StatusOr<OpPlan> plan = planScatter(*two_lines, placed(0, 40 * bytes), placed(1024, 256), placed(2048, 32 * bytes),
                                      placed(0, 40 * bytes), true, device, device);
  EXPECT_TRUE(plan.ok()) << plan.status().toString();
  return plan.ok() ? kernels(*plan) : "";
}

// The CPU drivers' tuning of float reductions: every line walked (min_walk_lines 1), on a roomy device.
FakeDevice walksEveryLine() {
  FakeDevice device = fakeDevice(uint64_t(1) << 30, 16);
  device.min_walk_lines = 1;
  return device;
}

TEST(PlanScatterTest, OutOfPlaceChecksThenCopiesThenScattersBehindBarriers) {
  const ScatterShape shape = elementsShape(DataType::kFloat32, Reduction::kAdd);
  EXPECT_EQ(shape.lines, 5u) << "one line per column: the axis is dim 0";
  EXPECT_EQ(shape.axis_extent, 4u);
  StatusOr<OpPlan> plan = planScatter(shape, placed(0, 120), placed(128, 160), placed(0, 80), placed(256, 120), false,
                                      fakeDevice(1024, 16), fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, copy_words x1, scatter_elements_float32_add x1");
  const Step& copy = plan->steps[2];
  EXPECT_EQ(str(copy.wait_for), "status") << "the copy into the caller's output waits for the checks";
  const Step& scatter = plan->steps[3];
  EXPECT_EQ(str(scatter.wait_for), "output {256, 120}") << "the scatter reads what the copy wrote";
  EXPECT_EQ(scatter.spec[kSpecUnitBytes], 4u);
  EXPECT_EQ(scatter.spec[kSpecReduction], static_cast<uint32_t>(Reduction::kAdd));
  EXPECT_EQ(scatter.spec[kSpecElementKind], 3u) << "float32 arithmetic";
  EXPECT_EQ(scatter.push_bytes, sizeof(abi::ScatterElementsParams));
}

TEST(PlanScatterTest, InPlaceHasNoCopyAndWaitsOnlyForTheChecks) {
  StatusOr<ScatterShape> shape = inferScatterNDShape({8, 3}, DataType::kUInt8, {2, 1}, DataType::kInt32, {2, 3},
                                                     DataType::kUInt8, Reduction::kMax);
  ASSERT_TRUE(shape.ok()) << shape.status().toString();
  EXPECT_EQ(shape->slice_elements, 3u);
  StatusOr<OpPlan> plan = planScatter(*shape, placed(0, 24), placed(32, 8), placed(64, 6), placed(0, 24), true,
                                      fakeDevice(1024, 16), fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, scatter_nd_integers x1");
  EXPECT_EQ(str(plan->steps.back().wait_for), "status");
  EXPECT_EQ(plan->steps.back().spec[kSpecUnitBytes], 1u) << "sub-word elements, masked stores";
  EXPECT_EQ(plan->steps.back().spec[kSpecTupleLength], 1u) << "tuple length";
}

TEST(PlanScatterTest, DevicesWithSlowAtomicsClaimTheTableByStoreThenFixup) {
  // Tuning::claim_by_store: each claim pass becomes a store pass, then a fixup pass over the same
  // tuples that waits for the stores (the table it raises), for ScatterND ...
  StatusOr<ScatterShape> nd = inferScatterNDShape({8, 3}, DataType::kInt16, {8, 1}, DataType::kInt64, {8, 3},
                                                  DataType::kInt16, Reduction::kNone);
  ASSERT_TRUE(nd.ok()) << nd.status().toString();
  FakeDevice device = fakeDevice(1024, 16);
  device.claim_by_store = true;
  StatusOr<OpPlan> plan =
      planScatter(*nd, placed(0, 48), placed(64, 64), placed(128, 48), placed(256, 48), false, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, copy_words x1, clear_words x1, scatter_nd_claim_store x1, "
            "scatter_nd_claim_fixup x1, scatter_nd_write_by_target x1");
  for (size_t step : {4u, 5u}) {
    EXPECT_EQ(str(plan->steps[step].wait_for), "scratch {0, 32}") << "after the clear, then after the stores";
    EXPECT_EQ(str(plan->steps[step].bindings), "indices {64, 64}, scratch {0, 32}, status");
    EXPECT_EQ(pushOf<abi::ScatterNDParams>(plan->steps[step]).end_tuple, 8u);
  }
  // ... and for ScatterElements, after the clear of the words it claims.
  const ScatterShape elements = elementsShape(DataType::kInt8, Reduction::kNone);
  FakeDevice never_walks = fakeDevice(1024, 16, 8, 2);
  never_walks.min_walk_lines = UINT64_MAX;
  never_walks.claim_by_store = true;
  plan = planScatter(elements, placed(0, 30), placed(64, 160), placed(256, 20), placed(512, 30), false, never_walks,
                     never_walks);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, copy_words x1, scatter_elements_clear_claims x1, "
            "scatter_elements_claim_store x1, scatter_elements_claim_fixup x1, scatter_elements_write x1");
  EXPECT_EQ(str(plan->steps[5].wait_for), "scratch {0, 120}");
  EXPECT_EQ(plan->steps[5].groups, plan->steps[4].groups) << "the same updates";
}

TEST(PlanScatterTest, LastWinsThroughAWinnerTable) {
  // ScatterND none: zero one scratch word per data row (8 rows of 3), claim, then write all at once.
  // 8 tuples zero the whole table, and the write of its 6-byte slices then runs per data element ...
  StatusOr<ScatterShape> all = inferScatterNDShape({8, 3}, DataType::kInt16, {8, 1}, DataType::kInt64, {8, 3},
                                                   DataType::kInt16, Reduction::kNone);
  ASSERT_TRUE(all.ok()) << all.status().toString();
  StatusOr<OpPlan> plan = planScatter(*all, placed(0, 48), placed(64, 64), placed(128, 48), placed(256, 48), false,
                                      fakeDevice(1024, 16), fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, copy_words x1, clear_words x1, scatter_nd_claim x1, "
            "scatter_nd_write_by_target x1");
  EXPECT_TRUE(plan->steps[3].wait_for.empty()) << "scratch is new to the recording";
  EXPECT_EQ(pushOf<abi::ScatterNDParams>(plan->steps.back()).target_end, 24u) << "8 rows of 3 elements";
  // ... where slices wider than 16 bytes keep the write per tuple (here 5 floats: the rows kernel).
  StatusOr<ScatterShape> wide = inferScatterNDShape({8, 5}, DataType::kFloat32, {8, 1}, DataType::kInt64, {8, 5},
                                                    DataType::kFloat32, Reduction::kNone);
  ASSERT_TRUE(wide.ok()) << wide.status().toString();
  plan = planScatter(*wide, placed(0, 160), placed(256, 64), placed(512, 160), placed(768, 160), false,
                     fakeDevice(1024, 16), fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, copy_words x1, clear_words x1, scatter_nd_claim x1, "
            "scatter_nd_rows_4 x1");
  // ... 5 zero only the rows they claim, as the claim reads them (after the checks, as the copy is).
  StatusOr<ScatterShape> shape = inferScatterNDShape({8, 3}, DataType::kInt16, {5, 1}, DataType::kInt64, {5, 3},
                                                     DataType::kInt16, Reduction::kNone);
  ASSERT_TRUE(shape.ok()) << shape.status().toString();
  plan = planScatter(*shape, placed(0, 48), placed(64, 40), placed(128, 30), placed(256, 48), false,
                     fakeDevice(1024, 16), fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, copy_words x1, scatter_nd_clear_claims x1, scatter_nd_claim x1, "
            "scatter_nd_write x1");
  EXPECT_EQ(plan->scratch_bytes, 32u);
  const Step& clear = plan->steps[3];
  EXPECT_EQ(str(clear.bindings), "indices {64, 40}, scratch {0, 32}, status");
  EXPECT_TRUE(clear.wait_for.empty()) << "scratch is new, and the copy already waited for the checks";
  EXPECT_EQ(pushOf<abi::ScatterNDParams>(clear).end_tuple, 5u);
  const Step& claim = plan->steps[4];
  EXPECT_EQ(str(claim.wait_for), "scratch {0, 32}") << "the copy already waited for the checks";
  EXPECT_EQ(pushOf<abi::ScatterNDParams>(claim).end_tuple, 5u);
  const Step& write = plan->steps[5];
  EXPECT_EQ(str(write.wait_for), "scratch {0, 32}, output {256, 48}");
  EXPECT_EQ(write.groups, 1u) << "15 update elements, one invocation each";

  // A table of more than 64 MiB (rows of one element in a huge tensor) walks instead.
  StatusOr<ScatterShape> huge = inferScatterNDShape({int64_t(1) << 25}, DataType::kUInt8, {5, 1}, DataType::kInt64, {5},
                                                    DataType::kUInt8, Reduction::kNone);
  ASSERT_TRUE(huge.ok());
  StatusOr<OpPlan> walk =
      planScatter(*huge, placed(0, uint64_t(1) << 25), placed(0, 40), placed(0, 8), placed(0, uint64_t(1) << 25), true,
                  fakeDevice(uint64_t(1) << 30, 16), fakeDevice(uint64_t(1) << 30, 16));
  ASSERT_TRUE(walk.ok()) << walk.status().toString();
  EXPECT_EQ(kernels(*walk), "scatter_nd_move_checked x1") << "5 tuples in place: one self-checking walk";

  // One tuple walks: it cannot collide, and the walk checks its own index in the same dispatch.
  StatusOr<ScatterShape> one = inferScatterNDShape({8, 3}, DataType::kInt16, {1, 1}, DataType::kInt64, {1, 3},
                                                   DataType::kInt16, Reduction::kNone);
  ASSERT_TRUE(one.ok());
  plan = planScatter(*one, placed(0, 48), placed(64, 8), placed(128, 6), placed(0, 48), true, fakeDevice(1024, 16),
                     fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "scatter_nd_move_checked x1");
  EXPECT_EQ(str(plan->steps[0].wait_for), "none") << "it writes its own status: nothing resets the slot first";
  EXPECT_TRUE(plan->writes_own_status);
  // Out of place the copy must wait for the checks: three passes and the copy.
  plan = planScatter(*one, placed(0, 48), placed(64, 8), placed(128, 6), placed(192, 48), false, fakeDevice(1024, 16),
                     fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, copy_words x1, scatter_nd_move x1");
  // 17 components (tuples of one) are more than one self-checking dispatch reads.
  StatusOr<ScatterShape> many =
      inferScatterNDShape({40}, DataType::kInt16, {17, 1}, DataType::kInt64, {17}, DataType::kInt16, Reduction::kMax);
  ASSERT_TRUE(many.ok());
  plan = planScatter(*many, placed(0, 80), placed(128, 136), placed(512, 34), placed(0, 80), true, fakeDevice(1024, 16),
                     fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, scatter_nd_integers x1")
      << "a reduction: not move-only";
}

TEST(PlanScatterTest, FewLinesOfScatterElementsNoneGoThroughAWinnerTable) {
  // [6, 5] int8 data, indices [4, 5] along axis 0: 5 lines. A device that walks from 6 lines claims one
  // scratch word per data element (30; the 20 updates zero theirs first) and writes every update at
  // once; one that walks from 5 walks.
  const ScatterShape shape = elementsShape(DataType::kInt8, Reduction::kNone);
  FakeDevice device = fakeDevice(1024, 16, 8, 2);
  device.min_walk_lines = 6;
  StatusOr<OpPlan> plan =
      planScatter(shape, placed(0, 30), placed(64, 160), placed(256, 20), placed(512, 30), false, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, copy_words x1, scatter_elements_clear_claims x1, "
            "scatter_elements_claim x1, scatter_elements_write x1");
  EXPECT_EQ(plan->scratch_bytes, 120u);
  const Step& claim = plan->steps[4];
  EXPECT_EQ(str(claim.wait_for), "scratch {0, 120}") << "the copy already waited for the checks";
  EXPECT_EQ(claim.groups, 2u) << "20 updates, 8-wide groups of 2 items each";
  EXPECT_EQ(claim.spec[kSpecDimCount], 2u);
  const abi::ScatterElementsParams params = pushOf<abi::ScatterElementsParams>(claim);
  EXPECT_EQ(params.line_count * (params.axis_end - params.axis_begin), 20u) << "every update in one pass";
  const Step& write = plan->steps[5];
  EXPECT_EQ(str(write.wait_for), "scratch {0, 120}, output {512, 32}") << "the output's words";
  EXPECT_EQ(write.spec[kSpecUnitBytes], 1u) << "sub-word elements, masked atomic stores";

  device.min_walk_lines = 5;
  plan = planScatter(shape, placed(0, 30), placed(64, 160), placed(256, 20), placed(512, 30), false, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, copy_words x1, scatter_elements_move x1");
  // A reduction walks from the same threshold (below it, it folds by owner: the next test).
  plan = planScatter(elementsShape(DataType::kInt8, Reduction::kMax), placed(0, 30), placed(64, 160), placed(256, 20),
                     placed(512, 30), false, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, copy_words x1, scatter_elements_integers x1");
  // A table larger than one binding (120 bytes here) walks too, a window at a time.
  device.max_storage_buffer_range = 112;
  plan = planScatter(shape, placed(0, 30), placed(64, 160), placed(256, 20), placed(512, 30), false, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x2, report_index x2, copy_words x1, scatter_elements_move x2");
}

TEST(PlanScatterTest, AWinnerTableZeroedWholeIsWrittenByTarget) {
  // [10] int16 data, 24 updates along its one line: more updates than data elements, so the table is
  // zeroed whole and its write runs over the 10 data elements, not the 24 updates; the push block's
  // target range is those elements.
  StatusOr<ScatterShape> vector = inferScatterElementsShape({10}, DataType::kInt16, {24}, DataType::kInt32, {24},
                                                            DataType::kInt16, 0, Reduction::kNone);
  ASSERT_TRUE(vector.ok());
  FakeDevice device = fakeDevice(1024, 16, 8, 1);
  device.min_walk_lines = 2;
  StatusOr<OpPlan> plan =
      planScatter(*vector, placed(0, 20), placed(64, 96), placed(256, 48), placed(512, 20), false, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, copy_words x1, clear_words x1, scatter_elements_claim x1, "
            "scatter_elements_write_by_target x1");
  const Step& write = plan->steps.back();
  EXPECT_EQ(write.groups, 2u) << "10 data elements, 8-wide groups of one item each";
  EXPECT_EQ(str(write.wait_for), "scratch {0, 40}, output {512, 20}");
  const abi::ScatterElementsParams params = pushOf<abi::ScatterElementsParams>(write);
  EXPECT_EQ(params.target_begin, 0u);
  EXPECT_EQ(params.target_end, 10u);

  // Fewer updates than data elements: the table is zeroed only where they claim, so the write runs
  // per update and reads only claimed entries.
  vector = inferScatterElementsShape({30}, DataType::kInt16, {24}, DataType::kInt32, {24}, DataType::kInt16, 0,
                                     Reduction::kNone);
  ASSERT_TRUE(vector.ok());
  plan = planScatter(*vector, placed(0, 60), placed(64, 96), placed(256, 48), placed(512, 60), false, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, copy_words x1, scatter_elements_clear_claims x1, "
            "scatter_elements_claim x1, scatter_elements_write x1");
}

TEST(PlanScatterTest, ReductionsOnFewLinesFoldByOwner) {
  // [6, 5] int8 data, indices [4, 5] along axis 0, max: 5 lines of 4 updates. A device that walks from
  // 6 lines locates each update's target, counts it there, gives light targets buckets, fills them,
  // sorts them and folds them by owner; 20 updates cannot make a target heavy, or a bucket longer than
  // the register network (VKINDEX_REGISTER_BUCKET), so no heavy pass and one sort pass are planned.
  FakeDevice device = fakeDevice(1024, 16, 8, 2);
  device.min_walk_lines = 6;
  StatusOr<OpPlan> plan = planScatter(elementsShape(DataType::kInt8, Reduction::kMax), placed(0, 30), placed(64, 160),
                                      placed(256, 20), placed(512, 30), false, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, copy_words x1, scatter_elements_locate x1, bucket_count x1, "
            "bucket_alloc x1, bucket_fill x1, bucket_sort x1, scatter_fold_integers x1");
  // Scratch: counts (30 + 6 control words) at 0, cursors (30) at 144, targets (20) at 272, buckets (20) at 352,
  // owners (20, no more than the updates) at 432.
  EXPECT_EQ(plan->scratch_bytes, 512u);
  const Step& locate = plan->steps[3];
  EXPECT_EQ(str(locate.bindings), "indices {64, 160}, scratch {272, 80}, scratch {0, 144}, status");
  EXPECT_TRUE(locate.wait_for.empty()) << "scratch is new, and the copy already waited for the checks";
  EXPECT_EQ(locate.groups, 2u) << "20 updates, 8-wide groups of 2 items each";
  for (size_t i = 4; i < 9; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(str(plan->steps[i].wait_for), i == 8 ? "scratch {0, 512}, output {512, 32}" : "scratch {0, 512}");
    EXPECT_EQ(plan->steps[i].groups, 2u) << "every pass runs over the 20 updates, not the 30 data elements";
  }
  const abi::BucketParams fill = pushOf<abi::BucketParams>(plan->steps[6]);
  EXPECT_EQ(fill.target_count, 30u);
  EXPECT_EQ(fill.update_count, 20u);
  EXPECT_EQ(fill.cursors_at * 4, 144u);
  EXPECT_EQ(fill.targets_at * 4, 272u);
  EXPECT_EQ(fill.buckets_at * 4, 352u);
  EXPECT_EQ(fill.owners_at * 4, 432u);
  const Step& sort = plan->steps[7];
  EXPECT_EQ(str(sort.bindings), "scratch {0, 512}, status") << "the sort moves positions, not elements";
  EXPECT_FALSE(sort.indirect_scratch_offset);
  const Step& light = plan->steps[8];
  EXPECT_EQ(str(light.bindings), "updates {256, 20}, output {512, 32}, scratch {0, 512}, status");
  EXPECT_EQ(str(light.wait_for), "scratch {0, 512}, output {512, 32}");
  EXPECT_EQ(pushOf<abi::BucketParams>(light).pass, VKINDEX_NO_PASS) << "the light buckets";
  EXPECT_FALSE(light.indirect_scratch_offset) << "the light fold runs whatever the counts";

  // The fold's arithmetic variants are the walk's; ScatterND folds below min_walk_lines slice elements.
  struct Case {
    DataType type;
    Reduction reduction;
    const char* fold;
  };
  const Case cases[] = {{DataType::kFloat32, Reduction::kAdd, "scatter_fold_float32_add"},
                        {DataType::kFloat32, Reduction::kMax, "scatter_fold_order32"},
                        {DataType::kInt32, Reduction::kMul, "scatter_fold_int32"},
                        {DataType::kFloat16, Reduction::kMul, "scatter_fold_float32"},
                        {DataType::kFloat64, Reduction::kAdd, "scatter_fold_float64_add"},
                        {DataType::kBFloat16, Reduction::kAdd, "scatter_fold_half_add"},
                        {DataType::kComplex128, Reduction::kMul, "scatter_fold_float64"},
                        {DataType::kInt64, Reduction::kMin, "scatter_fold_integers"}};
  device.min_walk_lines = 2;
  for (const Case& c : cases) {
    SCOPED_TRACE(dataTypeName(c.type));
    StatusOr<ScatterShape> nd = inferScatterNDShape({40}, c.type, {17, 1}, DataType::kInt64, {17}, c.type, c.reduction);
    ASSERT_TRUE(nd.ok());
    const uint64_t bytes = elementSize(c.type);
    plan = planScatter(*nd, placed(0, 40 * bytes), placed(512, 136), placed(768, 17 * bytes), placed(0, 40 * bytes),
                       true, device, device);
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    EXPECT_EQ(kernels(*plan), std::string("check_indices x1, report_index x1, scatter_nd_locate x1, bucket_count x1, "
                                          "bucket_alloc x1, bucket_fill x1, bucket_sort x1, ") +
                                  c.fold + " x1");
  }
  // A few updates into a large vector (1M elements, 20 updates) cost what the updates do: no pass of
  // the fold runs over the data.
  StatusOr<ScatterShape> few = inferScatterElementsShape({1 << 20}, DataType::kInt32, {20}, DataType::kInt32, {20},
                                                         DataType::kInt32, 0, Reduction::kMul);
  ASSERT_TRUE(few.ok());
  FakeDevice large = fakeDevice(uint64_t(1) << 30, 16, 8, 2);
  large.min_walk_lines = 2;
  plan = planScatter(*few, placed(0, 4 << 20), placed(4 << 20, 80), placed((4 << 20) + 256, 80), placed(0, 4 << 20),
                     true, large, large);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, scatter_elements_locate x1, bucket_count x1, "
            "bucket_alloc x1, bucket_fill x1, bucket_sort x1, scatter_fold_int32 x1");
  for (const Step& step : plan->steps) EXPECT_LE(step.groups, 2u) << str(step);
  // One tuple cannot collide: it walks.
  StatusOr<ScatterShape> one =
      inferScatterNDShape({40}, DataType::kInt32, {1, 1}, DataType::kInt64, {1}, DataType::kInt32, Reduction::kAdd);
  ASSERT_TRUE(one.ok());
  plan = planScatter(*one, placed(0, 160), placed(512, 8), placed(768, 4), placed(0, 160), true, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, scatter_nd_int32 x1");
  // Tensors larger than one binding walk, a window at a time.
  device.min_walk_lines = 6;
  device.max_storage_buffer_range = 112;
  plan = planScatter(elementsShape(DataType::kInt8, Reduction::kMax), placed(0, 30), placed(64, 160), placed(256, 20),
                     placed(512, 30), false, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x2, report_index x2, copy_words x1, scatter_elements_integers x2");
}

TEST(PlanScatterTest, OnlyASingleLineOfManyUpdatesLeavesTheWalkForTheTable) {
  // SwiftShader's tuning: every line walked (min_walk_lines 1), but a vector of more than
  // max_single_line_walk_updates updates goes through the winner table.
  FakeDevice device = walksEveryLine();
  device.max_single_line_walk_updates = 63;
  EXPECT_EQ(vectorScatterKernel(DataType::kFloat32, Reduction::kNone, device), "scatter_elements_write_by_target")
      << "64 updates in one line";
  EXPECT_EQ(vectorScatterKernel(DataType::kFloat32, Reduction::kAdd, device), "scatter_elements_float32_add")
      << "reductions walk or fold by their own thresholds";
  device.max_single_line_walk_updates = 64;
  EXPECT_EQ(vectorScatterKernel(DataType::kFloat32, Reduction::kNone, device), "scatter_elements_move");
  // Two lines of 16 updates each walk.
  device.max_single_line_walk_updates = 1;
  EXPECT_EQ(twoLineScatterKernels(DataType::kFloat32, Reduction::kNone, device),
            "check_indices x1, report_index x1, scatter_elements_move x1");
}

TEST(PlanScatterTest, DuplicateRichSoftFloat32AddsOnOneLineFold) {
  // SwiftShader's tuning: every line walked (min_walk_lines 1), but a single line of float32 or
  // complex64 adds by the soft-float adder with min_float32_add_fold_duplicates updates per element
  // folds by owner. vectorScatterKernel: 64 updates onto 40 elements, 1.6 each.
  FakeDevice device = walksEveryLine();
  device.min_float32_add_fold_duplicates = 1;
  EXPECT_EQ(vectorScatterKernel(DataType::kFloat32, Reduction::kAdd, device), "scatter_fold_float32_add");
  EXPECT_EQ(vectorScatterKernel(DataType::kComplex64, Reduction::kAdd, device), "scatter_fold_float32_add");
  StatusOr<ScatterShape> tuples = inferScatterNDShape({40}, DataType::kFloat32, {64, 1}, DataType::kInt64, {64},
                                                      DataType::kFloat32, Reduction::kAdd);
  ASSERT_TRUE(tuples.ok());
  StatusOr<OpPlan> plan =
      planScatter(*tuples, placed(0, 160), placed(1024, 512), placed(2048, 256), placed(0, 160), true, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(plan->steps.back().kernel, Kernel::kScatterFoldFloat32Add) << "ScatterND's one-element slices";
  // Other reductions keep their own thresholds: float32 max and int32 mul walk.
  EXPECT_EQ(vectorScatterKernel(DataType::kFloat32, Reduction::kMax, device), "scatter_elements_order32");
  EXPECT_EQ(vectorScatterKernel(DataType::kInt32, Reduction::kMul, device), "scatter_elements_int32");
  // Too few duplicates, a native adder, or two lines: the walk.
  device.min_float32_add_fold_duplicates = 2;
  EXPECT_EQ(vectorScatterKernel(DataType::kFloat32, Reduction::kAdd, device), "scatter_elements_float32_add");
  device.min_float32_add_fold_duplicates = 1;
  device.native_float32_add = true;
  EXPECT_EQ(vectorScatterKernel(DataType::kFloat32, Reduction::kAdd, device), "scatter_elements_float32_add_native");
  device.native_float32_add = false;
  EXPECT_EQ(twoLineScatterKernels(DataType::kFloat32, Reduction::kAdd, device),
            "check_indices x1, report_index x1, scatter_elements_float32_add x1");
  device.min_float32_add_fold_duplicates = 0;
  EXPECT_EQ(vectorScatterKernel(DataType::kFloat32, Reduction::kAdd, device), "scatter_elements_float32_add")
      << "0: never";
}

TEST(PlanScatterTest, AtomicIntegerReductionsWalkFromTheirOwnThreshold) {
  // The CPU drivers' tuning: every line of a float reduction walked (min_walk_lines 1), but a single
  // line of an integer reduction that atomics apply in any order through them (min_atomic_walk_lines 2).
  FakeDevice device = walksEveryLine();
  device.min_atomic_walk_lines = 2;
  EXPECT_EQ(vectorScatterKernel(DataType::kInt32, Reduction::kAdd, device), "scatter_elements_atomic");
  EXPECT_EQ(vectorScatterKernel(DataType::kUInt32, Reduction::kMax, device), "scatter_elements_atomic");
  EXPECT_EQ(vectorScatterKernel(DataType::kInt64, Reduction::kAdd, device), "scatter_elements_atomic");
  EXPECT_EQ(vectorScatterKernel(DataType::kInt32, Reduction::kMul, device), "scatter_elements_int32")
      << "no atomic multiply";
  EXPECT_EQ(vectorScatterKernel(DataType::kFloat32, Reduction::kAdd, device), "scatter_elements_float32_add");
  EXPECT_EQ(vectorScatterKernel(DataType::kFloat32, Reduction::kMax, device), "scatter_elements_order32");
  // Two lines walk, as every other reduction does from min_walk_lines.
  EXPECT_EQ(twoLineScatterKernels(DataType::kInt32, Reduction::kAdd, device),
            "check_indices x1, report_index x1, scatter_elements_int32 x1");
  // The larger threshold counts: a device that takes atomics below 8 lines takes them there too.
  device.min_walk_lines = 8;
  EXPECT_EQ(twoLineScatterKernels(DataType::kInt32, Reduction::kAdd, device),
            "check_indices x1, report_index x1, scatter_elements_atomic x1");
}

TEST(PlanScatterTest, SoftFloatReductionsFoldFromTheirOwnThreshold) {
  // SwiftShader's tuning: every line walked (min_walk_lines 1) but a single line of soft-float
  // arithmetic folded by owner (min_soft_float_walk_lines 2), where the walk's steps each cost a
  // soft-float operation one after another.
  FakeDevice device = walksEveryLine();
  device.min_soft_float_walk_lines = 2;
  struct Case {
    DataType type;
    Reduction reduction;
    const char* last_kernel;
  };
  const Case cases[] = {{DataType::kFloat16, Reduction::kAdd, "scatter_fold_half_add"},
                        {DataType::kFloat16, Reduction::kMul, "scatter_fold_float32"},
                        {DataType::kBFloat16, Reduction::kMax, "scatter_fold"},
                        {DataType::kFloat32, Reduction::kMul, "scatter_fold_float32"},
                        {DataType::kFloat64, Reduction::kAdd, "scatter_fold_float64_add"},
                        {DataType::kComplex128, Reduction::kAdd, "scatter_fold_float64_add"},
                        {DataType::kComplex128, Reduction::kMul, "scatter_fold_float64"},
                        {DataType::kFloat32, Reduction::kAdd, "scatter_elements_float32_add"},
                        {DataType::kComplex64, Reduction::kAdd, "scatter_elements_float32_add"},
                        {DataType::kFloat32, Reduction::kMin, "scatter_elements_order32"},
                        {DataType::kInt32, Reduction::kAdd, "scatter_elements_int32"},
                        {DataType::kInt64, Reduction::kMul, "scatter_elements_integers"},
                        {DataType::kFloat16, Reduction::kNone, "scatter_elements_move"}};
  for (const Case& c : cases) {
    EXPECT_EQ(vectorScatterKernel(c.type, c.reduction, device), c.last_kernel)
        << dataTypeName(c.type) << " " << reductionName(c.reduction);
  }
  // One target per line leaves the fold nothing to share out: a one-element vector walks.
  StatusOr<ScatterShape> one_target = inferScatterElementsShape({1}, DataType::kFloat64, {64}, DataType::kInt64, {64},
                                                                DataType::kFloat64, 0, Reduction::kAdd);
  ASSERT_TRUE(one_target.ok());
  StatusOr<OpPlan> walked =
      planScatter(*one_target, placed(0, 8), placed(1024, 512), placed(2048, 512), placed(0, 8), true, device, device);
  ASSERT_TRUE(walked.ok()) << walked.status().toString();
  EXPECT_EQ(kernels(*walked), "check_indices x1, report_index x1, scatter_elements_float64_add x1");
  // Two lines of soft-float arithmetic walk, as every other reduction does from min_walk_lines.
  EXPECT_EQ(twoLineScatterKernels(DataType::kFloat16, Reduction::kAdd, device),
            "check_indices x1, report_index x1, scatter_elements_half_add x1");
  // The larger threshold counts: a device that folds below 8 lines folds soft float there too.
  device.min_walk_lines = 8;
  const std::string folded = twoLineScatterKernels(DataType::kFloat16, Reduction::kAdd, device);
  EXPECT_NE(folded.find("scatter_fold_half_add"), std::string::npos) << folded;
}

TEST(PlanScatterTest, OrderFreeIntegerReductionsOnFewLinesUseAtomics) {
  // Below min_walk_lines, the integer reductions whose bits do not depend on the order (4-byte add,
  // max and min; 8-byte add) apply every update at once with atomics, one pass per window pair; the
  // others fold by owner.
  FakeDevice device = fakeDevice(uint64_t(1) << 30, 16);
  device.min_walk_lines = 2;
  struct Case {
    DataType type;
    Reduction reduction;
    const char* last_kernel;
  };
  const Case cases[] = {{DataType::kInt32, Reduction::kAdd, "scatter_elements_atomic"},
                        {DataType::kUInt32, Reduction::kMax, "scatter_elements_atomic"},
                        {DataType::kInt32, Reduction::kMin, "scatter_elements_atomic"},
                        {DataType::kInt64, Reduction::kAdd, "scatter_elements_atomic"},
                        {DataType::kUInt64, Reduction::kAdd, "scatter_elements_atomic"},
                        {DataType::kInt32, Reduction::kMul, "scatter_fold_int32"},
                        {DataType::kInt64, Reduction::kMax, "scatter_fold_integers"},
                        {DataType::kInt16, Reduction::kAdd, "scatter_fold_integers"},
                        {DataType::kFloat32, Reduction::kAdd, "scatter_fold_float32_add"},
                        {DataType::kInt32, Reduction::kNone, "scatter_elements_write_by_target"}};
  for (const Case& c : cases) {
    EXPECT_EQ(vectorScatterKernel(c.type, c.reduction, device), c.last_kernel)
        << dataTypeName(c.type) << " " << reductionName(c.reduction);
  }
  // Out of place: the copy of data, then one atomic pass over the 64 updates that waits for it; its
  // push block is the walk's over the whole axis, its bindings the walk's.
  StatusOr<ScatterShape> vector = inferScatterElementsShape({40}, DataType::kInt32, {64}, DataType::kInt64, {64},
                                                            DataType::kInt32, 0, Reduction::kAdd);
  ASSERT_TRUE(vector.ok());
  StatusOr<OpPlan> plan = planScatter(*vector, placed(0, 160), placed(1024, 512), placed(2048, 256), placed(4096, 160),
                                      false, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, copy_words x1, scatter_elements_atomic x1");
  const Step& atomic = plan->steps.back();
  EXPECT_EQ(str(atomic.bindings), "updates {2048, 256}, indices {1024, 512}, output {4096, 160}, status");
  EXPECT_EQ(str(atomic.wait_for), "output {4096, 160}") << "after the copy of data";
  const auto p = pushOf<abi::ScatterElementsParams>(atomic);
  EXPECT_EQ(p.axis_end - p.axis_begin, 64u);
  EXPECT_EQ(atomic.spec[kSpecReduction], static_cast<uint32_t>(Reduction::kAdd));
  // ScatterND: [N, 1] tuples into a vector (slices of one element).
  StatusOr<ScatterShape> nd =
      inferScatterNDShape({40}, DataType::kUInt32, {17, 1}, DataType::kInt64, {17}, DataType::kUInt32, Reduction::kMin);
  ASSERT_TRUE(nd.ok());
  plan = planScatter(*nd, placed(0, 160), placed(512, 136), placed(768, 68), placed(0, 160), true, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, scatter_nd_atomic x1");
  // From min_walk_lines walkers they walk, as before.
  device.min_walk_lines = 1;
  plan = planScatter(*nd, placed(0, 160), placed(512, 136), placed(768, 68), placed(0, 160), true, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, scatter_nd_order32 x1");
}

// ScatterND's element passes (the fold's locate, the atomics) take one slice element per item, so
// their groups follow the update elements, not the tuples.
TEST(PlanScatterTest, ScatterNDElementPassesAreSizedByElements) {
  FakeDevice device = fakeDevice(uint64_t(1) << 30, 16, 64, 4);
  device.min_walk_lines = uint64_t(1) << 20;
  const uint64_t elements = 17 * 64, groups = (elements + 64 * device.row_items - 1) / (64 * device.row_items);
  ASSERT_GT(groups, 1u);
  StatusOr<ScatterShape> add = inferScatterNDShape({40, 64}, DataType::kFloat32, {17, 1}, DataType::kInt64, {17, 64},
                                                   DataType::kFloat32, Reduction::kAdd);
  ASSERT_TRUE(add.ok());
  StatusOr<OpPlan> plan = planScatter(*add, placed(0, 40 * 256), placed(16384, 136), placed(16640, elements * 4),
                                      placed(0, 40 * 256), true, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  ASSERT_EQ(plan->steps[2].kernel, Kernel::kScatterNDLocate) << kernels(*plan);
  EXPECT_EQ(plan->steps[2].groups, groups);
  StatusOr<ScatterShape> min = inferScatterNDShape({40, 64}, DataType::kUInt32, {17, 1}, DataType::kInt64, {17, 64},
                                                   DataType::kUInt32, Reduction::kMin);
  ASSERT_TRUE(min.ok());
  plan = planScatter(*min, placed(0, 40 * 256), placed(16384, 136), placed(16640, elements * 4), placed(0, 40 * 256),
                     true, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  ASSERT_EQ(plan->steps.back().kernel, Kernel::kScatterNDAtomic) << kernels(*plan);
  EXPECT_EQ(plan->steps.back().groups, groups);
}

TEST(PlanScatterTest, SoftFloatKernelsOnlyForFloatAddAndMulAndMoveOnlyKernelsWithoutAReduction) {
  const auto walk = [](DataType type, Reduction reduction) {
    const ScatterShape shape = elementsShape(type, reduction);
    const uint64_t e = elementSize(type);
    StatusOr<OpPlan> plan = planScatter(shape, placed(0, 30 * e), placed(0, 160), placed(0, 20 * e), placed(0, 30 * e),
                                        true, fakeDevice(1024, 16), fakeDevice(1024, 16));
    EXPECT_TRUE(plan.ok()) << plan.status().toString();
    return plan.ok() ? std::string(kernelName(plan->steps.back().kernel)) : std::string();
  };
  EXPECT_EQ(walk(DataType::kFloat32, Reduction::kMax), "scatter_elements_order32") << "compares as integers";
  EXPECT_EQ(walk(DataType::kInt32, Reduction::kMin), "scatter_elements_order32");
  EXPECT_EQ(walk(DataType::kUInt32, Reduction::kMax), "scatter_elements_order32");
  EXPECT_EQ(walk(DataType::kFloat16, Reduction::kMin), "scatter_elements");
  EXPECT_EQ(walk(DataType::kInt64, Reduction::kMax), "scatter_elements_integers") << "no float compares";
  EXPECT_EQ(walk(DataType::kInt32, Reduction::kAdd), "scatter_elements_int32") << "32-bit integer arithmetic alone";
  EXPECT_EQ(walk(DataType::kUInt32, Reduction::kMul), "scatter_elements_int32");
  EXPECT_EQ(walk(DataType::kInt64, Reduction::kMul), "scatter_elements_integers");
  EXPECT_EQ(walk(DataType::kInt16, Reduction::kAdd), "scatter_elements_integers");
  EXPECT_EQ(walk(DataType::kUInt8, Reduction::kMin), "scatter_elements_integers");
  EXPECT_EQ(walk(DataType::kFloat64, Reduction::kMax), "scatter_elements") << "float compares: the plain module";
  EXPECT_EQ(walk(DataType::kFloat64, Reduction::kNone), "scatter_elements_move");
  EXPECT_EQ(walk(DataType::kInt8, Reduction::kNone), "scatter_elements_move") << "sub-word elements too";
  EXPECT_EQ(walk(DataType::kBFloat16, Reduction::kAdd), "scatter_elements_half_add") << "half-float add alone";
  EXPECT_EQ(walk(DataType::kFloat16, Reduction::kAdd), "scatter_elements_half_add");
  EXPECT_EQ(walk(DataType::kBFloat16, Reduction::kMul), "scatter_elements_float32");
  EXPECT_EQ(walk(DataType::kComplex64, Reduction::kMul), "scatter_elements_float32");
  EXPECT_EQ(walk(DataType::kFloat32, Reduction::kMul), "scatter_elements_float32");
  EXPECT_EQ(walk(DataType::kFloat32, Reduction::kAdd), "scatter_elements_float32_add") << "float32 add alone";
  EXPECT_EQ(walk(DataType::kComplex64, Reduction::kAdd), "scatter_elements_float32_add");
  EXPECT_EQ(walk(DataType::kFloat64, Reduction::kAdd), "scatter_elements_float64_add") << "float64 add alone";
  EXPECT_EQ(walk(DataType::kComplex128, Reduction::kAdd), "scatter_elements_float64_add");
  EXPECT_EQ(walk(DataType::kFloat64, Reduction::kMul), "scatter_elements_float64");
  EXPECT_EQ(walk(DataType::kComplex128, Reduction::kMul), "scatter_elements_float64");
}

// A device whose float adder can round to nearest even (Tuning::native_float32_add) gets the
// native-add twins of the float32-add modules, in the walks and in the fold; no other arithmetic
// changes, and without the flag the soft modules stay.
TEST(PlanScatterTest, NativeFloat32AddModulesOnlyForFloat32AndComplex64AddOnDevicesThatRoundToNearestEven) {
  const auto last = [](const ScatterShape& shape, bool native, uint64_t min_walk_lines) {
    FakeDevice device = fakeDevice(1024, 16);
    device.native_float32_add = native;
    device.min_walk_lines = min_walk_lines;
    const uint64_t e = shape.element_bytes;
    StatusOr<OpPlan> plan = planScatter(shape, placed(0, 40 * e), placed(0, 160), placed(0, 20 * e), placed(0, 40 * e),
                                        true, device, device);
    EXPECT_TRUE(plan.ok()) << plan.status().toString();
    return plan.ok() ? std::string(kernelName(plan->steps.back().kernel)) : std::string();
  };
  const auto elements = [](DataType type, Reduction reduction) { return elementsShape(type, reduction); };
  const auto nd = [](DataType type, Reduction reduction) {
    StatusOr<ScatterShape> shape = inferScatterNDShape({40}, type, {17, 1}, DataType::kInt64, {17}, type, reduction);
    EXPECT_TRUE(shape.ok());
    return *shape;
  };
  EXPECT_EQ(last(elements(DataType::kFloat32, Reduction::kAdd), true, 1), "scatter_elements_float32_add_native");
  EXPECT_EQ(last(elements(DataType::kComplex64, Reduction::kAdd), true, 1), "scatter_elements_float32_add_native");
  EXPECT_EQ(last(elements(DataType::kFloat32, Reduction::kAdd), false, 1), "scatter_elements_float32_add");
  EXPECT_EQ(last(nd(DataType::kFloat32, Reduction::kAdd), true, 1), "scatter_nd_float32_add_native");
  EXPECT_EQ(last(nd(DataType::kComplex64, Reduction::kAdd), false, 1), "scatter_nd_float32_add");
  // Below the walk threshold: the fold by owner.
  EXPECT_EQ(last(nd(DataType::kFloat32, Reduction::kAdd), true, 2), "scatter_fold_float32_add_native");
  EXPECT_EQ(last(nd(DataType::kFloat32, Reduction::kAdd), false, 2), "scatter_fold_float32_add");
  // Everything else keeps its module.
  EXPECT_EQ(last(elements(DataType::kFloat32, Reduction::kMul), true, 1), "scatter_elements_float32");
  EXPECT_EQ(last(elements(DataType::kFloat32, Reduction::kMax), true, 1), "scatter_elements_order32");
  EXPECT_EQ(last(elements(DataType::kFloat64, Reduction::kAdd), true, 1), "scatter_elements_float64_add");
  EXPECT_EQ(last(elements(DataType::kFloat16, Reduction::kAdd), true, 1), "scatter_elements_half_add");
  EXPECT_EQ(last(elements(DataType::kFloat32, Reduction::kNone), true, 1), "scatter_elements_move");
  EXPECT_EQ(last(nd(DataType::kFloat32, Reduction::kMul), true, 2), "scatter_fold_float32");
}

TEST(PlanScatterTest, LargeAlignedDataCopiesMoveInUnitsAndTheTailByWord) {
  // Out of place, data [65539] uint8: 4096 16-byte units in row segments (a CPU's 1 lane x 256: 16
  // segments, one 256-wide group), then the 3-byte tail word by word, both behind the checks.
  FakeDevice device = fakeDevice(uint64_t(1) << 20, 16, 256, 4);
  device.row_lanes = 1;
  device.row_items = 256;
  const auto plan = [&](uint64_t data_offset, int64_t bytes) {
    StatusOr<ScatterShape> shape = inferScatterNDShape({bytes}, DataType::kUInt8, {2, 1}, DataType::kInt32, {2},
                                                       DataType::kUInt8, Reduction::kNone);
    EXPECT_TRUE(shape.ok());
    return planScatter(*shape, placed(data_offset, uint64_t(bytes)), placed(0, 8), placed(0, 2),
                       placed(uint64_t(1) << 17, uint64_t(bytes)), false, device, device);
  };
  StatusOr<OpPlan> aligned = plan(0, 65539);
  ASSERT_TRUE(aligned.ok()) << aligned.status().toString();
  EXPECT_EQ(kernels(*aligned),
            "check_indices x1, report_index x1, copy_words_16 x1, copy_words x1, scatter_nd_clear_claims x1, "
            "scatter_nd_claim x1, scatter_nd_write x1");
  const Step& bulk = aligned->steps[2];
  EXPECT_EQ(pushOf<abi::CopyWordsParams>(bulk).byte_count, 65536u);
  EXPECT_EQ(bulk.spec[kSpecItems], 256u);
  EXPECT_EQ(bulk.spec[kSpecRowLanes], 1u);
  EXPECT_EQ(bulk.groups, 1u);
  EXPECT_EQ(str(bulk.wait_for), "status");
  const Step& tail = aligned->steps[3];
  EXPECT_EQ(pushOf<abi::CopyWordsParams>(tail).byte_count, 3u);
  EXPECT_EQ(pushOf<abi::CopyWordsParams>(tail).source_word_offset, 16384u);
  EXPECT_EQ(pushOf<abi::CopyWordsParams>(tail).target_word_offset, 16384u);
  EXPECT_EQ(str(tail.wait_for), "status");
  // Data that starts 4 bytes into a 16-byte boundary, or a copy under 64 KiB: one word pass.
  StatusOr<OpPlan> unaligned = plan(4, 65539);
  ASSERT_TRUE(unaligned.ok());
  EXPECT_EQ(kernels(*unaligned).substr(0, 48), "check_indices x1, report_index x1, copy_words x1");
  StatusOr<OpPlan> small = plan(0, 65535);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(kernels(*small).substr(0, 48), "check_indices x1, report_index x1, copy_words x1");
  // With Tuning::int64_units the bulk moves 64-bit components; the tail stays word by word.
  device.int64_units = true;
  StatusOr<OpPlan> wide = plan(0, 65539);
  ASSERT_TRUE(wide.ok()) << wide.status().toString();
  EXPECT_EQ(kernels(*wide).substr(0, 81),
            "check_indices x1, report_index x1, copy_words_int64 x1, copy_words x1, scatter_nd");
  EXPECT_EQ(str(wide->steps[2]), str(aligned->steps[2]).replace(0, 13, "copy_words_int64"));
}

TEST(PlanScatterTest, NoIndicesMeansACopyAlone) {
  StatusOr<ScatterShape> shape = inferScatterElementsShape({6, 5}, DataType::kInt32, {0, 5}, DataType::kInt32, {0, 5},
                                                           DataType::kInt32, 1, Reduction::kNone);
  ASSERT_TRUE(shape.ok());
  StatusOr<OpPlan> plan = planScatter(*shape, placed(0, 120), placed(0, 0), placed(0, 0), placed(128, 120), false,
                                      fakeDevice(1024, 16), fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "copy_words x1");
  EXPECT_EQ(str(plan->steps[0].wait_for), "none");
}

TEST(PlanScatterTest, ReductionsPerType) {
  const auto kind = [](DataType type, Reduction reduction) -> StatusOr<uint32_t> {
    StatusOr<ScatterShape> shape = inferScatterNDShape({4}, type, {2, 1}, DataType::kInt64, {2}, type, reduction);
    if (!shape.ok()) return shape.status();
    return shape->element_kind;
  };
  EXPECT_EQ(*kind(DataType::kInt64, Reduction::kMul), 4u);
  EXPECT_EQ(*kind(DataType::kUInt64, Reduction::kMax), 5u);
  EXPECT_EQ(*kind(DataType::kFloat16, Reduction::kNone), 0u);
  expectError(kind(DataType::kBool, Reduction::kMax).status(), StatusCode::kInvalidArgument,
              "ScatterND: reduction 'max' is not defined for bool (bool allows none, add as OR, mul as AND)");
  expectError(kind(DataType::kComplex64, Reduction::kMin).status(), StatusCode::kInvalidArgument,
              "ScatterND: reduction 'min' is not defined for complex64 (complex allows none, add, mul)");
  EXPECT_EQ(*kind(DataType::kInt8, Reduction::kMax), 6u);
  EXPECT_EQ(*kind(DataType::kUInt16, Reduction::kMin), 9u);
  EXPECT_EQ(*kind(DataType::kFloat16, Reduction::kAdd), 10u);
  EXPECT_EQ(*kind(DataType::kBFloat16, Reduction::kMul), 11u);
  EXPECT_EQ(*kind(DataType::kFloat64, Reduction::kMul), 12u);
  EXPECT_EQ(*kind(DataType::kComplex64, Reduction::kAdd), 13u);
  EXPECT_EQ(*kind(DataType::kComplex128, Reduction::kMul), 14u);
  expectError(kind(DataType::kString, Reduction::kMax).status(), StatusCode::kInvalidArgument,
              "ScatterND: reduction 'max' is not defined for string (string allows none, add as concatenation)");
}

// bool add and mul run as uint8 max and min (OR and AND on bytes 0 and 1), so every strategy the planner
// picks for them is one it picks, and the tests run, for uint8; string add moves ids on the device (the
// host concatenates), so its kind is MOVE.
TEST(PlanScatterTest, BoolAndStringReductionsRunAsTheirDeviceEquivalents) {
  for (const auto& [reduction, runs_as] :
       {std::pair{Reduction::kAdd, Reduction::kMax}, std::pair{Reduction::kMul, Reduction::kMin}}) {
    SCOPED_TRACE(reductionName(reduction));
    StatusOr<ScatterShape> elements = inferScatterElementsShape({5, 3}, DataType::kBool, {7, 3}, DataType::kInt32,
                                                                {7, 3}, DataType::kBool, 0, reduction);
    ASSERT_TRUE(elements.ok()) << elements.status().toString();
    EXPECT_EQ(elements->element_kind, uint32_t{VKINDEX_KIND_UINT8});
    EXPECT_EQ(elements->reduction, runs_as);
    StatusOr<ScatterShape> nd =
        inferScatterNDShape({4, 2}, DataType::kBool, {3, 1}, DataType::kInt64, {3, 2}, DataType::kBool, reduction);
    ASSERT_TRUE(nd.ok()) << nd.status().toString();
    EXPECT_EQ(nd->element_kind, uint32_t{VKINDEX_KIND_UINT8});
    EXPECT_EQ(nd->reduction, runs_as);
  }
  StatusOr<ScatterShape> strings =
      inferScatterNDShape({4}, DataType::kString, {2, 1}, DataType::kInt64, {2}, DataType::kString, Reduction::kAdd);
  ASSERT_TRUE(strings.ok()) << strings.status().toString();
  EXPECT_EQ(strings->element_kind, uint32_t{VKINDEX_KIND_MOVE});
  EXPECT_EQ(strings->reduction, Reduction::kAdd);
}

TEST(PlanScatterTest, TensorsBeyondOneBindingRunAWindowAtATime) {
  // 96-byte bindings (64 bytes of capacity): the 120-byte output splits into target ranges of 16
  // elements, and the int64 indices (8 bytes per position, 5 lines of 4 along axis 0) into runs of
  // one axis position over every line: 4 runs x 2 ranges, in run order.
  const ScatterShape shape = elementsShape(DataType::kFloat32, Reduction::kNone);
  StatusOr<OpPlan> plan = planScatter(shape, placed(0, 120), placed(0, 160), placed(0, 80), placed(0, 120), true,
                                      fakeDevice(96, 16), fakeDevice(96, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x3, report_index x3, scatter_elements_move x8");
  const abi::ScatterElementsParams later = pushOf<abi::ScatterElementsParams>(plan->steps[9]);
  EXPECT_EQ(later.first_line, 0u);
  EXPECT_EQ(later.line_count, 5u);
  EXPECT_EQ(later.axis_begin, 1u);
  EXPECT_EQ(later.axis_end, 2u);
  EXPECT_EQ(later.target_begin, 16u);
  EXPECT_EQ(later.target_end, 30u);
  EXPECT_EQ(str(plan->steps[9].wait_for), "output {64, 56}");
  EXPECT_EQ(later.out_word_offset, 0xFFFFFFF0u) << "the window starts 16 words past the tensor: -16 modulo 2^32";
}

TEST(PlanScatterTest, BindingsTooSmallForAnyWindowAreRefused) {
  // 155-byte bindings at a 64-byte offset alignment hold no window (found by fuzz_planners: the copy
  // of data into the output looped forever on windows of no bytes).
  StatusOr<ScatterShape> shape = inferScatterNDShape({7, 7, 7}, DataType::kFloat32, {1, 0, 2}, DataType::kInt32,
                                                     {1, 0, 7}, DataType::kFloat32, Reduction::kAdd);
  ASSERT_TRUE(shape.ok());
  StatusOr<OpPlan> plan = planScatter(*shape, placed(1644, 1372), placed(616, 0), placed(132, 0), placed(1984, 1372),
                                      false, fakeDevice(155, 64), fakeDevice(155, 64));
  expectError(plan.status(), StatusCode::kUnsupported,
              "ScatterND: tensors larger than one binding are bound a window at a time, and bindings of 155 bytes at "
              "an offset alignment of 64 leave no room for one");
}

TEST(PlanScatterTest, TensorsOf2To32ElementsAreRefused) {
  StatusOr<ScatterShape> shape = inferScatterNDShape({65536, 65536}, DataType::kUInt8, {1, 1}, DataType::kInt32,
                                                     {1, 65536}, DataType::kUInt8, Reduction::kNone);
  ASSERT_TRUE(shape.ok());
  StatusOr<OpPlan> plan =
      planScatter(*shape, placed(0, uint64_t(1) << 32), placed(0, 4), placed(0, 65536), placed(0, uint64_t(1) << 32),
                  true, fakeDevice(uint64_t(1) << 27, 16), fakeDevice(uint64_t(1) << 27, 16));
  expectError(plan.status(), StatusCode::kUnsupported, "ScatterND: tensors of 2^32 or more elements are not supported");
}

}  // namespace
}  // namespace vkindex::plan::test
