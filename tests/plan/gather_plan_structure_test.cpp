// planGather on problems too large to simulate (gigabytes of data or indices on realistically sized
// devices), each plan checked by the structural checker (plan_checks.hpp). No GPU needed.
#include <gtest/gtest.h>

#include <cstdint>

#include "plan/gather_plan.hpp"
#include "plan_checks.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

TEST(PlanGatherStructureTest, FourGigabytesOnALavapipeSizedDevice) {
  // 128 MiB bindings: (2^27 - 32) / 4096 = 32767 rows of 4 KiB per window, so 33 output row ranges
  // each reading 33 data windows; the 8 MiB of indices fit one window.
  StatusOr<GatherPlan> plan = checkedPlan({1 << 20, 1024}, DataType::kFloat32, {1 << 20}, DataType::kInt64, 0,
                                          fakeDevice(uint64_t(1) << 27, 16, 256, 4), 0, 0, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(plan->checks.size(), 1u);
  EXPECT_EQ(plan->passes.size(), 33u * 33u);
  EXPECT_EQ(plan->passes[0].params.pass_rows, 32767u);
  EXPECT_TRUE(plan->row_tiled);  // 256 units per row: workgroups of 64 x 4
  EXPECT_EQ(plan->workgroup_size, 64u);
  EXPECT_EQ(plan->items_per_invocation, 4u);
  EXPECT_EQ(plan->passes[0].groups, 32767u);
}

TEST(PlanGatherStructureTest, QuarterGigabyteOfIndicesOnASwiftShaderSizedDevice) {
  // Alignment 256: (2^27 - 512) / 8 = 16777152 int64 indices per window, so 2^25 take 3 check passes.
  // 64-byte rows, 2097144 per window: 17 index chunks per outer slice x 4 slices = 68 passes.
  StatusOr<GatherPlan> plan = checkedPlan({4, 1 << 16, 16}, DataType::kFloat32, {1 << 25}, DataType::kInt64, 1,
                                          fakeDevice(uint64_t(1) << 27, 256, 128, 4), 36, 12, 4);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(plan->checks.size(), 3u);
  EXPECT_FALSE(plan->copy_passes_report);
  EXPECT_EQ(plan->passes.size(), 68u);
}

TEST(PlanGatherStructureTest, GigabyteRowsOnAFourGigabyteRange) {
  // 1 GiB rows in 16-byte units (2^26 per row): 3 rows per window. 5 output rows: ranges [0, 3) and
  // [3, 5), each binding the 3 data rows at once.
  StatusOr<GatherPlan> plan = checkedPlan({3, 1 << 28}, DataType::kFloat32, {5}, DataType::kInt32, 0,
                                          fakeDevice(0xFFFFFFFFull, 64, 64, 4), 0, 0, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  ASSERT_EQ(plan->passes.size(), 2u);
  EXPECT_EQ(str(plan->passes[0].data), "{0, 3221225472}");
  EXPECT_EQ(str(plan->passes[1].output), "{3221225472, 2147483648}");
}

}  // namespace
}  // namespace vkindex::plan::test
