// IndexPolicy::kSkip in the planners: no check or report pass (nothing is an error), no self-checking
// kernel, and every dispatch specialized with VKINDEX_POLICY_SKIP; kError keeps its checks. An empty
// indexed dim, which kError only checks, still gets a zeroing pass under kSkip. No GPU needed.
#include <gtest/gtest.h>

#include "plan/gather_elements_plan.hpp"
#include "plan/gather_nd_plan.hpp"
#include "plan/gather_plan.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

// Every dispatch carries `code` as its index policy, and none is a check, report or self-checking one.
void expectSkipPlan(const OpPlan& plan) {
  ASSERT_FALSE(plan.steps.empty());
  for (const Step& step : plan.steps) {
    EXPECT_FALSE(isCheckKernel(step.kernel)) << kernels(plan);
    EXPECT_NE(step.kernel, Kernel::kReportIndex) << kernels(plan);
    EXPECT_FALSE(isSelfCheckingRowGatherKernel(step.kernel)) << kernels(plan);
    EXPECT_EQ(step.spec[kSpecIndexPolicy], uint32_t(VKINDEX_POLICY_SKIP));
    EXPECT_TRUE(step.wait_for.empty() || step.wait_for[0].role != Role::kStatus) << "waits for no check";
  }
}

TEST(IndexPolicyPlanTest, GatherPlansNoCheckUnderSkip) {
  const FakeDevice device = fakeDevice(uint64_t(1) << 27, 16);
  for (const Shape& indices : {Shape{3}, Shape{5000}}) {  // a small (fused under kError) and a larger call
    StatusOr<GatherShape> shape = inferGatherShape({10, 8}, DataType::kFloat32, indices, DataType::kInt64, 0);
    ASSERT_TRUE(shape.ok());
    const StatusOr<OpPlan> checked =
        planGather(*shape, DataType::kInt64, placed(0, 320), placed(0, 8 * 5000), placed(0, 5000 * 32), device, device);
    ASSERT_TRUE(checked.ok());
    EXPECT_EQ(checked->steps.back().spec[kSpecIndexPolicy], uint32_t(VKINDEX_POLICY_ERROR));
    EXPECT_NE(kernels(*checked).find(indices[0] == 3 ? "gather_rows_checked" : "check_indices"), std::string::npos)
        << kernels(*checked);
    shape->policy = IndexPolicy::kSkip;
    const StatusOr<OpPlan> skipping =
        planGather(*shape, DataType::kInt64, placed(0, 320), placed(0, 8 * 5000), placed(0, 5000 * 32), device, device);
    ASSERT_TRUE(skipping.ok());
    expectSkipPlan(*skipping);
  }
}

TEST(IndexPolicyPlanTest, GatherNDAndGatherElementsPlanNoCheckUnderSkip) {
  const FakeDevice device = fakeDevice(uint64_t(1) << 27, 16);
  StatusOr<GatherNDShape> nd = inferGatherNDShape({4, 5, 6}, DataType::kUInt8, {7, 2}, DataType::kInt32, 0);
  ASSERT_TRUE(nd.ok());
  nd->policy = IndexPolicy::kSkip;
  const StatusOr<OpPlan> nd_plan =
      planGatherND(*nd, DataType::kInt32, placed(0, 120), placed(0, 56), placed(0, 42), device, device);
  ASSERT_TRUE(nd_plan.ok());
  expectSkipPlan(*nd_plan);
  StatusOr<GatherElementsShape> elements =
      inferGatherElementsShape({4, 5}, DataType::kInt16, {4, 9}, DataType::kInt64, 1);
  ASSERT_TRUE(elements.ok());
  elements->policy = IndexPolicy::kSkip;
  const StatusOr<OpPlan> elements_plan =
      planGatherElements(*elements, DataType::kInt64, placed(0, 40), placed(0, 288), placed(0, 72), device, device);
  ASSERT_TRUE(elements_plan.ok());
  expectSkipPlan(*elements_plan);
}

// An empty axis: kError plans only the check (which fails); kSkip a pass that zeros the output, binding
// the output in the data's place since there is no data to read.
TEST(IndexPolicyPlanTest, EmptyAxisZerosUnderSkip) {
  const FakeDevice device = fakeDevice(uint64_t(1) << 27, 16);
  StatusOr<GatherShape> shape = inferGatherShape({3, 0, 4}, DataType::kFloat32, {2}, DataType::kInt32, 1);
  ASSERT_TRUE(shape.ok());
  const StatusOr<OpPlan> checked =
      planGather(*shape, DataType::kInt32, placed(0, 0), placed(0, 8), placed(0, 96), device, device);
  ASSERT_TRUE(checked.ok());
  EXPECT_EQ(kernels(*checked), "check_indices x1, report_index x1");
  shape->policy = IndexPolicy::kSkip;
  const StatusOr<OpPlan> skipping =
      planGather(*shape, DataType::kInt32, placed(0, 0), placed(0, 8), placed(0, 96), device, device);
  ASSERT_TRUE(skipping.ok());
  expectSkipPlan(*skipping);
  EXPECT_EQ(skipping->steps[0].bindings[0].role, Role::kOutput);
}

}  // namespace
}  // namespace vkindex::plan::test
