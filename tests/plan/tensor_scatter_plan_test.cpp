// TensorScatter's host checks and plan, without a device: which passes run (the check pass only for many
// batch entries, the copy only out of place, the write even with no rows so that it reports), how the
// write indices are gated, how many output words a row may touch, and what does not fit.
#include <gtest/gtest.h>

#include "common/tensor_scatter_params.h"
#include "plan/tensor_scatter_plan.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

TensorScatterShape inferred(const Shape& past, const Shape& update, DataType type, bool with_indices,
                            TensorScatterOptions options = {}) {
  std::optional<WriteIndicesInput> indices;
  if (with_indices) indices = WriteIndicesInput{{past[0]}, DataType::kInt64};
  StatusOr<TensorScatterShape> shape = inferTensorScatterShape(past, type, update, type, indices, options);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  return shape.ok() ? *shape : TensorScatterShape{};
}

OpPlan planned(const TensorScatterShape& shape, bool in_place, const FakeDevice& device) {
  const uint64_t cache_bytes = packedByteSize(shape.type, *elementCount(shape.cache_shape));
  Shape update_shape = shape.cache_shape;
  update_shape[static_cast<size_t>(shape.axis)] = static_cast<int64_t>(shape.seq_len);
  const uint64_t update_bytes = packedByteSize(shape.type, *elementCount(update_shape));
  const Placement past{0, cache_bytes}, update{1 << 20, update_bytes}, indices{2 << 20, shape.batch * 8};
  const Placement output = in_place ? past : Placement{3 << 20, cache_bytes};
  StatusOr<OpPlan> plan =
      planTensorScatter(shape, past, shape.has_indices ? std::optional<Placement>(indices) : std::nullopt, update,
                        output, in_place, device, device);
  EXPECT_TRUE(plan.ok()) << plan.status().toString();
  return plan.ok() ? *plan : OpPlan{};
}

std::vector<uint32_t> passesOf(const OpPlan& plan) {
  std::vector<uint32_t> passes;
  for (const Step& step : plan.steps) passes.push_back(pushOf<abi::TensorScatterParams>(step).pass);
  return passes;
}

FakeDevice withSelfCheckLimit(uint64_t limit) {
  FakeDevice device = fakeDevice(uint64_t(1) << 30, 16);
  device.most_self_checked_write_indices = limit;
  return device;
}

TEST(TensorScatterPlanTest, AnInPlaceDecodeStepIsOneDispatch) {
  const OpPlan plan =
      planned(inferred({1, 8, 4096, 128}, {1, 8, 1, 128}, DataType::kFloat16, true), true, withSelfCheckLimit(64));
  ASSERT_EQ(passesOf(plan), std::vector<uint32_t>{VKINDEX_TS_PASS_WRITE});
  const abi::TensorScatterParams params = pushOf<abi::TensorScatterParams>(plan.steps[0]);
  EXPECT_EQ(params.gate, uint32_t{VKINDEX_TS_GATE_SELF_CHECK});
  EXPECT_EQ(params.row_count, 8u);
  EXPECT_EQ(params.row_slots, 64u);  // 128 halves: 64 whole words, every row word-aligned
  EXPECT_EQ(plan.steps[0].spec[kSpecElementBits], 16u);
}

TEST(TensorScatterPlanTest, ManyBatchEntriesTakeACheckPass) {
  const OpPlan plan =
      planned(inferred({100, 2, 8, 4}, {100, 2, 1, 4}, DataType::kFloat32, true), false, withSelfCheckLimit(64));
  ASSERT_EQ(passesOf(plan),
            (std::vector<uint32_t>{VKINDEX_TS_PASS_CHECK, VKINDEX_TS_PASS_COPY, VKINDEX_TS_PASS_WRITE}));
  for (size_t i = 1; i < plan.steps.size(); ++i) {
    EXPECT_EQ(pushOf<abi::TensorScatterParams>(plan.steps[i]).gate, uint32_t{VKINDEX_TS_GATE_STATUS});
    ASSERT_FALSE(plan.steps[i].wait_for.empty());
    EXPECT_EQ(plan.steps[i].wait_for[0].role, Role::kStatus);
  }
  EXPECT_EQ(plan.steps[2].wait_for.back().role, Role::kOutput);  // the write waits for the copy
}

TEST(TensorScatterPlanTest, NothingToCheckWithoutWriteIndicesOrUnderTheSkipPolicy) {
  const OpPlan absent = planned(inferred({3, 5, 2}, {3, 2, 2}, DataType::kInt8, false), true, withSelfCheckLimit(64));
  ASSERT_EQ(absent.steps.size(), 1u);
  EXPECT_EQ(pushOf<abi::TensorScatterParams>(absent.steps[0]).gate, uint32_t{VKINDEX_TS_GATE_NONE});
  TensorScatterOptions skip;
  skip.index_policy = IndexPolicy::kSkip;
  const OpPlan skipping =
      planned(inferred({300, 5, 2}, {300, 2, 2}, DataType::kInt8, true, skip), true, withSelfCheckLimit(64));
  ASSERT_EQ(passesOf(skipping), std::vector<uint32_t>{VKINDEX_TS_PASS_WRITE});
  EXPECT_EQ(pushOf<abi::TensorScatterParams>(skipping.steps[0]).flags & VKINDEX_TS_SKIP, VKINDEX_TS_SKIP);
}

TEST(TensorScatterPlanTest, AnEmptyUpdateStillRunsTheWritePassToReport) {
  const OpPlan plan = planned(inferred({2, 4, 3}, {2, 0, 3}, DataType::kUInt8, true), true, withSelfCheckLimit(64));
  ASSERT_EQ(passesOf(plan), std::vector<uint32_t>{VKINDEX_TS_PASS_WRITE});
  EXPECT_EQ(plan.steps[0].groups, 1u);
  EXPECT_EQ(plan.steps[0].bindings[2].role, Role::kStatus);  // no update bytes to bind
  const OpPlan unchecked =
      planned(inferred({2, 4, 3}, {2, 0, 3}, DataType::kUInt8, false), true, withSelfCheckLimit(64));
  EXPECT_TRUE(unchecked.steps.empty());
}

TEST(TensorScatterPlanTest, RowsThatStartInsideAWordTouchOneWordMore) {
  // int4 rows of 3 elements: 8 per word, a row spans at most 2 words; uint8 rows of 4: word-aligned.
  const OpPlan nibbles = planned(inferred({1, 7, 3}, {1, 2, 3}, DataType::kInt4, true), true, withSelfCheckLimit(64));
  EXPECT_EQ(pushOf<abi::TensorScatterParams>(nibbles.steps[0]).row_slots, 2u);
  EXPECT_EQ(nibbles.steps[0].spec[kSpecElementBits], 4u);
  const OpPlan bytes = planned(inferred({1, 7, 4}, {1, 2, 4}, DataType::kUInt8, true), true, withSelfCheckLimit(64));
  EXPECT_EQ(pushOf<abi::TensorScatterParams>(bytes.steps[0]).row_slots, 1u);
  // complex128 elements move as four words each.
  const OpPlan wide =
      planned(inferred({1, 7, 3}, {1, 2, 3}, DataType::kComplex128, true), true, withSelfCheckLimit(64));
  EXPECT_EQ(pushOf<abi::TensorScatterParams>(wide.steps[0]).row_elements, 12u);
  EXPECT_EQ(wide.steps[0].spec[kSpecElementBits], 32u);
}

TEST(TensorScatterPlanTest, ACacheLargerThanOneBindingIsUnsupported) {
  const TensorScatterShape shape = inferred({1, 4, 1024, 64}, {1, 4, 1, 64}, DataType::kFloat32, true);
  FakeDevice device = fakeDevice(uint64_t(1) << 16, 16);
  const Placement past{0, uint64_t(1) << 20};
  StatusOr<OpPlan> plan =
      planTensorScatter(shape, past, Placement{2 << 20, 8}, Placement{3 << 20, 1024}, past, true, device, device);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(plan.status().message().find("TensorScatter: input 'past_cache' has 1048576 bytes"), std::string::npos)
      << plan.status().message();
}

}  // namespace
}  // namespace vkindex::plan::test
