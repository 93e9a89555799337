// Planner problems the fuzzer (fuzz/planners_fuzzer.cpp) found disagreements on, kept as unit tests.
// No GPU needed.
#include <gtest/gtest.h>

#include "gather_simulator.hpp"
#include "plan_checks.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

// ContextOverrides::workgroup_size may be any size the device allows. Row segments take the largest
// power-of-two lane count that divides it (32 of 96 here; the checker once assumed powers of two only).
TEST(FuzzRegressionTest, NonPowerOfTwoWorkgroupStillSegmentsRows) {
  const FakeDevice device = fakeDevice(1024, 16, /*workgroup=*/96, /*items=*/1);
  // Data at offset 4: 4-byte units, so each 192-byte row is 48 units.
  StatusOr<OpPlan> plan = checkedPlan({4, 48}, DataType::kFloat32, {3}, DataType::kInt32, 0, device, 4, 0, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  const CopyShape shape = copyShape(*plan);
  EXPECT_EQ(shape.lanes, 32u);
  EXPECT_EQ(shape.workgroup_size, 96u);
  EXPECT_EQ(shape.unit_bytes, 4u);

  SimCase c;
  c.data_shape = {4, 48};
  c.indices_shape = {3};
  c.data_offset = 4;
  c.device = device;
  EXPECT_TRUE(simulate(c, 1).has_value());
}

// A device with no row-segment tuning (row_lanes and row_items 0, as the fuzzer makes them) copies in
// segments of 1 lane x 1 unit; the checker once expected items of 0.
TEST(FuzzRegressionTest, UntunedRowSegmentsAreOneLaneOfOneUnit) {
  FakeDevice device = fakeDevice(1 << 20, 16, /*workgroup=*/147, /*items=*/47);
  device.row_lanes = 0;
  device.row_items = 0;
  StatusOr<OpPlan> plan = checkedPlan({8, 4}, DataType::kFloat32, {20}, DataType::kInt32, 0, device, 0, 0, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  const CopyShape shape = copyShape(*plan);
  EXPECT_EQ(shape.lanes, 1u);
  EXPECT_EQ(shape.items, 1u);
  EXPECT_EQ(rowSteps(*plan)[0].params.segments_per_row, 1u);  // one 16-byte unit per row

  SimCase c;
  c.data_shape = {8, 4};
  c.indices_shape = {20};
  c.device = device;
  EXPECT_TRUE(simulate(c, 2).has_value());
}

// Empty data with a dim of 2^32 or more plans the 64-bit check alone (check_indices_wide), which the
// simulators once did not run: Gather along an axis of 527532042532 of data [1, 527532042532, 7, 0],
// with a valid index and with one past the axis.
TEST(FuzzRegressionTest, LongAxisOfEmptyDataIsCheckedInSixtyFourBits) {
  const int64_t axis_size = 527532042532;
  SimCase c;
  c.data_shape = {1, axis_size, 7, 0};
  c.data_type = DataType::kUInt16;
  c.indices_shape = {1};
  c.index_type = DataType::kInt64;
  c.axis = 1;
  c.device = fakeDevice(uint64_t(128) << 20, 16);
  for (const BadIndices& bad : {BadIndices{}, BadIndices{{0, axis_size}}, BadIndices{{0, -axis_size - 1}}}) {
    c.bad = bad;
    SCOPED_TRACE(describe(c));
    const std::optional<OpPlan> plan = simulate(c, 3);
    ASSERT_TRUE(plan.has_value());
    EXPECT_EQ(kernels(*plan), "check_indices_wide x1, report_index x1");
  }
}

}  // namespace
}  // namespace vkindex::plan::test
