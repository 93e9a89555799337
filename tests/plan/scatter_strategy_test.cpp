// Unit tests for the scatter strategy choice (src/plan/scatter_strategy), no GPU: which strategy a
// call takes and the reason given, one case per strategy and a few of the walk's reasons.
#include <gtest/gtest.h>

#include <string>

#include "plan/scatter_strategy.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

// The choice for `shape` with its updates and output placed whole, each in one binding of `device`.
ScatterStrategyChoice choose(const StatusOr<ScatterShape>& shape, const FakeDevice& device,
                             bool one_run_one_target = true) {
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  if (!shape.ok()) return {};
  uint64_t output_elements = 1;
  for (int64_t extent : shape->output_shape) output_elements *= static_cast<uint64_t>(extent);
  const uint64_t update_elements =
      shape->check.tuple_count * (shape->kind == ScatterKind::kND ? shape->slice_elements : 1);
  const uint64_t E = shape->element_bytes;
  return chooseScatterStrategy(*shape, placed(0, update_elements * E), placed(0, output_elements * E),
                               one_run_one_target, device, device);
}

// A device that walks from two lines or slice elements (min_walk_lines 2), with room to bind anything.
FakeDevice walksFromTwoLines() {
  FakeDevice device = fakeDevice(uint64_t(1) << 30, 16);
  device.min_walk_lines = 2;
  return device;
}

TEST(ScatterStrategyTest, EnoughLinesWalkInOrder) {
  // Five lines (one per column of [6, 5] along dim 0), of four updates each.
  const ScatterStrategyChoice walk =
      choose(inferScatterElementsShape({6, 5}, DataType::kFloat32, {4, 5}, DataType::kInt64, {4, 5}, DataType::kFloat32,
                                       0, Reduction::kNone),
             walksFromTwoLines());
  EXPECT_EQ(walk.strategy, ScatterStrategy::kWalk);
  EXPECT_STREQ(walk.reason, "enough lines (min_walk_lines)");
}

TEST(ScatterStrategyTest, ScatterNDWithoutReductionTakesTheWinnerTable) {
  const ScatterStrategyChoice table = choose(inferScatterNDShape({8, 3}, DataType::kUInt8, {2, 1}, DataType::kInt32,
                                                                 {2, 3}, DataType::kUInt8, Reduction::kNone),
                                             walksFromTwoLines());
  EXPECT_EQ(table.strategy, ScatterStrategy::kWinnerTable);
  EXPECT_STREQ(table.reason, "ScatterND none");
  EXPECT_EQ(table.table_entries, 8u) << "one word per data row";
  // One tuple cannot collide: it walks.
  const ScatterStrategyChoice one = choose(inferScatterNDShape({8, 3}, DataType::kUInt8, {1, 1}, DataType::kInt32,
                                                               {1, 3}, DataType::kUInt8, Reduction::kNone),
                                           walksFromTwoLines());
  EXPECT_EQ(one.strategy, ScatterStrategy::kWalk);
  EXPECT_STREQ(one.reason, "one update");
}

TEST(ScatterStrategyTest, OrderFreeIntegerReductionOnOneLineTakesAtomics) {
  const ScatterStrategyChoice atomics =
      choose(inferScatterElementsShape({1 << 20}, DataType::kInt32, {20}, DataType::kInt32, {20}, DataType::kInt32, 0,
                                       Reduction::kAdd),
             walksFromTwoLines());
  EXPECT_EQ(atomics.strategy, ScatterStrategy::kAtomics);
  EXPECT_STREQ(atomics.reason, "order-free integer reduction, few walkers (min_atomic_walk_lines)");
}

TEST(ScatterStrategyTest, FloatReductionOnOneWalkerFoldsByOwner) {
  // 17 one-element slices of float32 add into 40 elements: one walker.
  const StatusOr<ScatterShape> shape = inferScatterNDShape({40}, DataType::kFloat32, {17, 1}, DataType::kInt64, {17},
                                                           DataType::kFloat32, Reduction::kAdd);
  const ScatterStrategyChoice fold = choose(shape, walksFromTwoLines());
  EXPECT_EQ(fold.strategy, ScatterStrategy::kFoldByOwner);
  EXPECT_STREQ(fold.reason, "few walkers (min_walk_lines)");
  ASSERT_TRUE(fold.fold.has_value());
  EXPECT_EQ(fold.fold->target_count, 40u);
  EXPECT_EQ(fold.fold->update_count, 17u);
  // The fold binds each tensor whole: windowed tensors walk.
  const ScatterStrategyChoice windowed = choose(shape, walksFromTwoLines(), false);
  EXPECT_EQ(windowed.strategy, ScatterStrategy::kWalk);
  EXPECT_STREQ(windowed.reason, "tensors bound a window at a time");
  // From min_walk_lines walkers up, the walk keeps enough invocations busy.
  FakeDevice walks_one = walksFromTwoLines();
  walks_one.min_walk_lines = 1;
  const ScatterStrategyChoice walk = choose(shape, walks_one);
  EXPECT_EQ(walk.strategy, ScatterStrategy::kWalk);
  EXPECT_STREQ(walk.reason, "enough walkers (min_walk_lines)");
}

TEST(ScatterStrategyTest, MoreDimsThanAPushBlockHoldsWalkPeeled) {
  // Nine dims, none coalescing with its neighbour (indices are smaller than data in each).
  const Shape data(9, 3), indices(9, 2);
  const ScatterStrategyChoice peeled =
      choose(inferScatterElementsShape(data, DataType::kInt8, indices, DataType::kInt32, indices, DataType::kInt8, 4,
                                       Reduction::kNone),
             walksFromTwoLines(), false);
  EXPECT_EQ(peeled.strategy, ScatterStrategy::kPeeledWalk);
  EXPECT_STREQ(peeled.reason, "more coalesced dims than the kernels take");
}

}  // namespace
}  // namespace vkindex::plan::test
