// Unit tests for the scatter planner (src/plan/scatter_plan), no GPU: the shape of particular passes,
// the fold by owner's heavy runs (a workgroup each where a call has few, else sorted and folded run by
// run) and winning ScatterND slices of whole units moved in row segments. The step sequences, paths and
// limits are in scatter_plan_test.cpp.
#include <gtest/gtest.h>

#include "common/copy_words_params.h"
#include "common/scatter_buckets_params.h"
#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"
#include "plan/scatter_fold_plan.hpp"
#include "plan/scatter_plan.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

// kHeavyVectorUpdates updates of 4-byte `type` (int32 indices) into a vector of 600, in place: up to
// 600 heavy targets (more than VKINDEX_MAX_BUCKET updates each).
constexpr uint64_t kHeavyVectorUpdates = 600 * (VKINDEX_MAX_BUCKET + 1);  // 154200

StatusOr<OpPlan> planHeavyVector(DataType type, Reduction reduction, const FakeDevice& device) {
  constexpr int64_t updates = kHeavyVectorUpdates;
  StatusOr<ScatterShape> shape =
      inferScatterElementsShape({600}, type, {updates}, DataType::kInt32, {updates}, type, 0, reduction);
  if (!shape.ok()) return shape.status();
  return planScatter(*shape, placed(0, 2400), placed(4096, updates * 4), placed(uint64_t(1) << 20, updates * 4),
                     placed(0, 2400), true, device, device);
}

// The fake device of the heavy vector tests: 8-wide groups of 2 items, walks of 2^17 steps a pass (so
// that the runs, up to kHeavyVectorUpdates, take two fold passes).
FakeDevice heavyVectorDevice() {
  FakeDevice device = fakeDevice(uint64_t(1) << 30, 16, 8, 2);
  device.min_walk_lines = 2;
  device.max_walk_steps = uint64_t(1) << 17;
  return device;
}

// A device that gives heavy runs workgroups where a call has few (Tuning::most_workgroup_runs):
// the heavy folds carry that count to heavy_plan.comp, which sizes them by the heavy targets it finds,
// so they reserve the larger of a workgroup per possible heavy target (600, at most 1024) and an
// invocation per one (75 8-wide groups). Add and mul runs are staged (STAGED_RUNS), max and min
// reduced. Every pass covers max_walk_steps items of a run.
TEST(PlanScatterTest, HeavyRunsTakeAWorkgroupEachWhereACallHasFew) {
  FakeDevice device = heavyVectorDevice();
  device.most_workgroup_runs = 1024;
  for (const Reduction reduction : {Reduction::kMax, Reduction::kAdd}) {
    SCOPED_TRACE(reductionName(reduction));
    StatusOr<OpPlan> plan = planHeavyVector(DataType::kFloat32, reduction, device);
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    const Kernel kernel = reduction == Reduction::kMax ? Kernel::kScatterFoldOrder32 : Kernel::kScatterFoldFloat32Add;
    // The light fold, then two passes of 2^17 items over runs of up to kHeavyVectorUpdates.
    ASSERT_GE(plan->steps.size(), 3u);
    const Step& light = plan->steps[plan->steps.size() - 3];
    ASSERT_EQ(light.kernel, kernel) << kernels(*plan);
    EXPECT_EQ(pushOf<abi::BucketParams>(light).pass, VKINDEX_NO_PASS);
    EXPECT_EQ(light.spec[kSpecStagedRuns], 0u) << "the light fold never stages";
    for (size_t k = 0; k < 2; ++k) {
      const Step& heavy = plan->steps[plan->steps.size() - 2 + k];
      ASSERT_EQ(heavy.kernel, kernel) << kernels(*plan);
      EXPECT_EQ(pushOf<abi::BucketParams>(heavy).pass, k);
      EXPECT_EQ(pushOf<abi::BucketParams>(heavy).most_group_runs, 1024u);
      EXPECT_EQ(pushOf<abi::BucketParams>(heavy).walk_items, 131072u);
      EXPECT_EQ(heavy.groups, 600u) << "a workgroup per possible heavy target";
      EXPECT_EQ(heavy.spec[kSpecStagedRuns], reduction == Reduction::kAdd ? 1u : 0u) << "STAGED_RUNS";
    }
  }
  device.most_workgroup_runs = 16;
  StatusOr<OpPlan> plan = planHeavyVector(DataType::kFloat32, Reduction::kAdd, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(plan->steps.back().groups, 75u) << "an invocation per possible heavy target, more than 16 workgroups";
  device.most_workgroup_runs = 0;
  plan = planHeavyVector(DataType::kFloat32, Reduction::kAdd, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(pushOf<abi::BucketParams>(plan->steps.back()).most_group_runs, 0u);
  EXPECT_EQ(plan->steps.back().spec[kSpecStagedRuns], 0u);
  EXPECT_EQ(plan->steps.back().groups, 75u);
}

TEST(PlanScatterTest, HeavyTargetsAreSortedThenFoldedRunByRun) {
  // 154200 int32 products into a vector of 600 on 8-wide groups of 2 items: up to 600 heavy targets,
  // whose ids take three 4-bit digit passes; tiles of 8 x 16 items (1205); and two fold passes over the
  // runs (DeviceInfo::max_walk_steps = 2^17 items each).
  FakeDevice device = heavyVectorDevice();
  StatusOr<OpPlan> plan = planHeavyVector(DataType::kInt32, Reduction::kMul, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, scatter_elements_locate x1, bucket_count x1, bucket_alloc x1, "
            "bucket_fill x1, heavy_plan x1, heavy_scan x1, heavy_sort_count x1, heavy_scan x1, "
            "heavy_sort_scatter x1, heavy_sort_count x1, heavy_scan x1, heavy_sort_scatter x1, heavy_sort_count x1, "
            "heavy_scan x1, heavy_sort_scatter x1, bucket_sort x2, scatter_fold_int32 x3");
  const std::vector<Step>& steps = plan->steps;
  const abi::BucketParams p = pushOf<abi::BucketParams>(steps[6]);
  EXPECT_EQ(p.digit_passes, 3u);
  EXPECT_EQ(p.tile_count, 1205u);
  EXPECT_EQ(p.command_count, 9u) << "the runs' scan, 3 x (sort, scan), 2 fold passes";
  EXPECT_EQ(p.walk_items, device.max_walk_steps);
  EXPECT_EQ(p.heavy_targets_at - p.runs_at, 600u) << "a run per possible heavy target";
  EXPECT_EQ(p.sorted_at - p.heavy_targets_at, 600u) << "a target element per possible heavy id";
  EXPECT_EQ(p.keys_at - p.sorted_at, kHeavyVectorUpdates) << "the positions (the other array is the end of buckets)";
  EXPECT_EQ(p.tiles_at - p.keys_at, kHeavyVectorUpdates) << "the positions' heavy ids (the other array is targets)";
  EXPECT_EQ(p.commands_at - p.tiles_at, 16u * 1205u);
  EXPECT_EQ(plan->scratch_bytes, uint64_t(p.commands_at) * 4 + 9 * 12);
  EXPECT_EQ(steps[6].groups, 1u);
  EXPECT_FALSE(steps[6].indirect_scratch_offset) << "heavy_plan runs whatever the status";
  // Every later heavy pass dispatches command [n], at most the planned groups.
  const auto command = [&](uint64_t n) { return std::optional<uint64_t>(uint64_t(p.commands_at) * 4 + n * 12); };
  EXPECT_EQ(steps[7].indirect_scratch_offset, command(0)) << "the runs' scan";
  EXPECT_EQ(pushOf<abi::BucketParams>(steps[7]).pass, VKINDEX_NO_PASS);
  for (uint32_t digit = 0; digit < 3; ++digit) {
    SCOPED_TRACE(digit);
    const size_t count = 8 + 3 * digit;
    for (size_t i = count; i < count + 3; ++i) {
      EXPECT_EQ(pushOf<abi::BucketParams>(steps[i]).pass, digit);
      EXPECT_EQ(steps[i].indirect_scratch_offset, command(1 + 2 * digit + (i == count + 1 ? 1 : 0)));
      EXPECT_EQ(steps[i].groups, i == count + 1 ? 1u : 1205u) << "one workgroup per tile; the scan is one";
      EXPECT_EQ(steps[i].spec[kSpecWorkgroupSize], 8u);
    }
  }
  for (size_t i = 17; i < 20; ++i) {
    EXPECT_EQ(pushOf<abi::BucketParams>(steps[i]).pass, VKINDEX_NO_PASS) << "the light buckets' sorts and fold";
    EXPECT_FALSE(steps[i].indirect_scratch_offset);
  }
  // The sorts: buckets of up to VKINDEX_REGISTER_BUCKET positions among every owner, then the longer
  // ones among the long owners, at most one per 33 updates (4672), 16 to an 8-wide group.
  EXPECT_EQ(steps[17].spec[kSpecLongBuckets], 0u);
  EXPECT_EQ(steps[18].spec[kSpecLongBuckets], 1u) << "LONG_BUCKETS";
  EXPECT_EQ(steps[18].groups, 292u);
  EXPECT_EQ(p.runs_at - p.long_owners_at, 4672u) << "a long owner per 33 updates";
  for (size_t i = 20; i < 22; ++i) {
    EXPECT_EQ(pushOf<abi::BucketParams>(steps[i]).pass, i - 20);
    EXPECT_EQ(steps[i].indirect_scratch_offset, command(7 + (i - 20)));
    EXPECT_EQ(steps[i].groups, 75u) << "an invocation per possible heavy target";
    EXPECT_EQ(str(steps[i].wait_for), "scratch {0, " + std::to_string(plan->scratch_bytes) + "}, output {0, 2400}");
  }
  // A GPU's walks (2^24 steps a pass) fold the same runs in one pass: one dispatch, not one per 2^17.
  FakeDevice gpu = device;
  gpu.max_walk_steps = uint64_t(1) << 24;
  plan = planHeavyVector(DataType::kInt32, Reduction::kMul, gpu);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_NE(kernels(*plan).find("bucket_sort x2, scatter_fold_int32 x2"), std::string::npos)
      << "the light fold and one heavy pass: " << kernels(*plan);
  EXPECT_EQ(pushOf<abi::BucketParams>(plan->steps.back()).walk_items, uint64_t(1) << 24);
  EXPECT_EQ(pushOf<abi::BucketParams>(plan->steps.back()).command_count, 8u) << "the runs' scan, 3 x 2, one fold";
  // Wider workgroups sort in workgroups of 256 (heavy_sort_scatter.comp's shared counts), tiles of 4096.
  device.workgroup_size = 1024;
  plan = planHeavyVector(DataType::kInt32, Reduction::kMul, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(pushOf<abi::BucketParams>(plan->steps[8]).tile_count, 38u);
  EXPECT_EQ(plan->steps[8].spec[kSpecWorkgroupSize], 256u);
  EXPECT_EQ(plan->steps[9].spec[kSpecWorkgroupSize], 1024u) << "the scan keeps the fold's workgroup";
  // Updates that cannot make a target heavy (VKINDEX_MAX_BUCKET at most on one) plan none of the heavy
  // passes.
  constexpr int64_t most_light = VKINDEX_MAX_BUCKET;
  StatusOr<ScatterShape> light = inferScatterElementsShape({600}, DataType::kInt32, {most_light}, DataType::kInt32,
                                                           {most_light}, DataType::kInt32, 0, Reduction::kMul);
  ASSERT_TRUE(light.ok());
  plan = planScatter(*light, placed(0, 2400), placed(4096, most_light * 4), placed(8192, most_light * 4),
                     placed(0, 2400), true, device, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan),
            "check_indices x1, report_index x1, scatter_elements_locate x1, bucket_count x1, bucket_alloc x1, "
            "bucket_fill x1, bucket_sort x2, scatter_fold_int32 x1");
}

TEST(PlanScatterTest, WinningSlicesOfWholeUnitsMoveInRowSegments) {
  // 16385 slices of 256 floats (1 KiB) into [20000, 256]: the widest unit dividing the slice and both
  // offsets, segments as the row gathers lay them out (a CPU's 1 lane x 256 units, a GPU's 32 x 4).
  struct Case {
    uint64_t updates_offset;
    uint32_t lanes, items;
    const char* kernel;
    uint64_t groups;
    bool int64_units;  // Tuning::int64_units: 16- and 8-byte units in 64-bit components
  };
  // 256-wide workgroups: 256 segments per group of 1 lane, 8 of 32 lanes.
  const Case cases[] = {{0, 1, 256, "scatter_nd_rows", 65, false},       // 64 units: 1 segment per slice
                        {8, 1, 256, "scatter_nd_rows_8", 65, false},     // 128 units: still 1 segment
                        {4, 32, 4, "scatter_nd_rows_4", 4097, false},    // 256 units: 2 segments of 128 per slice
                        {0, 32, 4, "scatter_nd_rows", 2049, false},      // 64 units: 1 (partial) segment per slice
                        {0, 1, 256, "scatter_nd_rows_int64", 65, true},  // the same units, 64-bit components
                        {8, 1, 256, "scatter_nd_rows_int64_8", 65, true},
                        {4, 1, 256, "scatter_nd_rows_4", 65, true}};  // 4-byte units have no 64-bit module
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.kernel) + " at offset " + std::to_string(c.updates_offset));
    FakeDevice device = fakeDevice(uint64_t(1) << 30, 16, 256, 4);
    device.row_lanes = c.lanes;
    device.row_items = c.items;
    device.int64_units = c.int64_units;
    const int64_t tuples = 16385;
    StatusOr<ScatterShape> rows = inferScatterNDShape({20000, 256}, DataType::kFloat32, {tuples, 1}, DataType::kInt32,
                                                      {tuples, 256}, DataType::kFloat32, Reduction::kNone);
    ASSERT_TRUE(rows.ok());
    StatusOr<OpPlan> plan =
        planScatter(*rows, placed(0, 20000 * 1024), placed(0, uint64_t(tuples) * 4),
                    placed(c.updates_offset, uint64_t(tuples) * 1024), placed(0, 20000 * 1024), true, device, device);
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    EXPECT_EQ(kernels(*plan), std::string("check_indices x1, report_index x1, scatter_nd_clear_claims x1, "
                                          "scatter_nd_claim x1, ") +
                                  c.kernel + " x1");
    const Step& write = plan->steps.back();
    EXPECT_EQ(write.spec[kSpecItems], c.items);
    EXPECT_EQ(write.spec[kSpecRowLanes], c.lanes);
    EXPECT_EQ(write.spec[kSpecUnitBytes], 4u) << "the element size, as the other scatter kernels";
    EXPECT_EQ(write.groups, c.groups);
  }
}

}  // namespace
}  // namespace vkindex::plan::test
