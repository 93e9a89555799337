// planGather on problems too large to simulate (gigabytes of data or indices on realistically sized
// devices), each plan checked by the structural checker (plan_checks.hpp). No GPU needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "plan/gather_plan.hpp"
#include "plan_checks.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

TEST(PlanGatherStructureTest, FourGigabytesOnALavapipeSizedDevice) {
  // 128 MiB bindings: (2^27 - 32) / 4096 = 32767 rows of 4 KiB per window, so 33 output row ranges
  // each reading 33 data windows; the 8 MiB of indices fit one window.
  StatusOr<OpPlan> plan = checkedPlan({1 << 20, 1024}, DataType::kFloat32, {1 << 20}, DataType::kInt64, 0,
                                      fakeDevice(uint64_t(1) << 27, 16, 256, 4), 0, 0, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, gather_rows x1089");  // 33 x 33
  const std::vector<RowsStep> passes = rowSteps(*plan);
  ASSERT_FALSE(passes.empty());
  EXPECT_EQ(passes[0].params.pass_rows, 32767u);
  const CopyShape shape = copyShape(*plan);
  // 256 units per row: two segments of 32 lanes x 4 items, 8 segments per 256-wide workgroup.
  EXPECT_EQ(shape.lanes, 32u);
  EXPECT_EQ(shape.workgroup_size, 256u);
  EXPECT_EQ(shape.items, 4u);
  EXPECT_EQ(passes[0].params.segments_per_row, 2u);
  EXPECT_EQ(passes[0].step.groups, ceilDiv(uint64_t(32767) * 2, uint64_t(8)));
}

TEST(PlanGatherStructureTest, QuarterGigabyteOfIndicesOnASwiftShaderSizedDevice) {
  // Alignment 256: (2^27 - 512) / 8 = 16777152 int64 indices per window, so 2^25 take 3 check passes.
  // 64-byte rows, 2097144 per window: 17 index chunks per outer slice x 4 slices = 68 passes.
  StatusOr<OpPlan> plan = checkedPlan({4, 1 << 16, 16}, DataType::kFloat32, {1 << 25}, DataType::kInt64, 1,
                                      fakeDevice(uint64_t(1) << 27, 256, 128, 4), 36, 12, 4);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x3, report_index x3, gather_rows_4 x68");
}

TEST(PlanGatherStructureTest, GigabyteRowsOnAFourGigabyteRange) {
  // 1 GiB rows in 16-byte units (2^26 per row): 3 rows per window. 5 output rows: ranges [0, 3) and
  // [3, 5), each binding the 3 data rows at once.
  StatusOr<OpPlan> plan = checkedPlan({3, 1 << 28}, DataType::kFloat32, {5}, DataType::kInt32, 0,
                                      fakeDevice(0xFFFFFFFFull, 64, 64, 4), 0, 0, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  const std::vector<RowsStep> passes = rowSteps(*plan);
  ASSERT_EQ(passes.size(), 2u);
  EXPECT_EQ(str(passes[0].window(Role::kData)), "{0, 3221225472}");
  EXPECT_EQ(str(passes[1].window(Role::kOutput)), "{3221225472, 2147483648}");
}

}  // namespace
}  // namespace vkindex::plan::test
