// IndexPolicy::kSkip in the scatter planner: no check or report pass and no self-checking kernel (the
// fused ScatterND row update of kError), nothing waits for a check, and every dispatch is specialized
// with VKINDEX_POLICY_SKIP, above all each one that binds the indices, on every strategy: the walk, the
// peeled walk, winner tables (claims by atomicMax and by store), atomics and the fold by owner. kError
// keeps its checks. No GPU needed.
#include <gtest/gtest.h>

#include "plan/index_checks.hpp"
#include "plan/scatter_plan.hpp"
#include "plan/scatter_strategy.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

// One planned call: its shape and tensors, in place or not, on `device`.
struct PolicyCase {
  std::string name;
  StatusOr<ScatterShape> shape;
  uint64_t data_bytes = 0, indices_bytes = 0, updates_bytes = 0;
  bool in_place = false;
  FakeDevice device;
  std::string strategy_kernel;  // a kernel of the strategy the case is for, in both plans
  std::string fused_kernel;     // where kError fuses the plan into another kernel: that one instead
};

StatusOr<OpPlan> planUnder(const PolicyCase& c, IndexPolicy policy) {
  ScatterShape shape = *c.shape;
  shape.check.policy = policy;
  const uint64_t output_at = c.in_place ? 0 : uint64_t(1) << 24;
  return planScatter(shape, placed(0, c.data_bytes), placed(uint64_t(1) << 20, c.indices_bytes),
                     placed(uint64_t(1) << 22, c.updates_bytes), placed(output_at, c.data_bytes), c.in_place, c.device,
                     c.device);
}

bool bindsIndices(const Step& step) {
  for (const Binding& binding : step.bindings) {
    if (binding.role == Role::kIndices) return true;
  }
  return false;
}

// kError: a check pass first; kSkip: none, no report or self-checking kernel, nothing waits for the
// status, every dispatch specialized with the skip policy, and some pass reads the indices.
void expectPolicyPlans(const PolicyCase& c) {
  SCOPED_TRACE(c.name);
  ASSERT_TRUE(c.shape.ok()) << c.shape.status().toString();
  const StatusOr<OpPlan> checked = planUnder(c, IndexPolicy::kError);
  ASSERT_TRUE(checked.ok()) << checked.status().toString();
  const std::string checked_kernels = kernels(*checked);
  EXPECT_NE(checked_kernels.find(c.fused_kernel.empty() ? c.strategy_kernel : c.fused_kernel), std::string::npos)
      << checked_kernels;
  EXPECT_TRUE(checked_kernels.find("check_indices") != std::string::npos ||
              checked_kernels.find("_checked") != std::string::npos)
      << checked_kernels;
  const StatusOr<OpPlan> skipping = planUnder(c, IndexPolicy::kSkip);
  ASSERT_TRUE(skipping.ok()) << skipping.status().toString();
  const std::string skipping_kernels = kernels(*skipping);
  EXPECT_NE(skipping_kernels.find(c.strategy_kernel), std::string::npos) << skipping_kernels;
  EXPECT_EQ(skipping_kernels.find("check_indices"), std::string::npos) << skipping_kernels;
  EXPECT_EQ(skipping_kernels.find("report_index"), std::string::npos) << skipping_kernels;
  EXPECT_EQ(skipping_kernels.find("_checked"), std::string::npos) << skipping_kernels;
  size_t index_readers = 0;
  for (const Step& step : skipping->steps) {
    EXPECT_EQ(step.spec[kSpecIndexPolicy], uint32_t(VKINDEX_POLICY_SKIP)) << kernelName(step.kernel);
    for (const Binding& wait : step.wait_for) EXPECT_NE(wait.role, Role::kStatus) << kernelName(step.kernel);
    if (bindsIndices(step)) ++index_readers;
  }
  EXPECT_GT(index_readers, 0u) << skipping_kernels;
}

// The strategies, each as the checked plan's kernels show: the walk (with the fused in-place ScatterND
// of kError), the winner table both ways, atomics, the fold by owner (with heavy runs), the peeled walk.
TEST(ScatterPolicyPlanTest, EveryStrategyPlansNoCheckAndSkipsUnderSkip) {
  const FakeDevice plain = fakeDevice(uint64_t(1) << 30, 16);
  FakeDevice by_store = plain;
  by_store.claim_by_store = true;
  FakeDevice few_walkers = plain;
  few_walkers.min_walk_lines = 1024;
  few_walkers.min_atomic_walk_lines = 1024;
  // Nine dims, none coalescing with its neighbour (indices are smaller than data in each).
  const Shape nine_data(9, 3), nine_indices(9, 2);
  std::vector<PolicyCase> cases;
  // A KV-cache row update in place: kError fuses it into scatter_nd_rows_checked (whole 16-byte units).
  cases.push_back({"ScatterND rows in place (walk)",
                   inferScatterNDShape({16, 8}, DataType::kFloat32, {1, 1}, DataType::kInt64, {1, 8},
                                       DataType::kFloat32, Reduction::kNone),
                   512, 8, 32, true, plain, "scatter_nd_move", "scatter_nd_rows_checked"});
  cases.push_back({"ScatterND none (winner table)",
                   inferScatterNDShape({64, 4}, DataType::kFloat32, {40, 1}, DataType::kInt32, {40, 4},
                                       DataType::kFloat32, Reduction::kNone),
                   1024, 160, 640, false, plain, "scatter_nd_claim"});
  cases.push_back({"ScatterND none (claims by store)",
                   inferScatterNDShape({64, 3}, DataType::kUInt8, {40, 1}, DataType::kInt64, {40, 3}, DataType::kUInt8,
                                       Reduction::kNone),
                   192, 320, 120, false, by_store, "scatter_nd_claim_store"});
  cases.push_back({"ScatterElements none (winner table)",
                   inferScatterElementsShape({4096}, DataType::kInt16, {300}, DataType::kInt64, {300}, DataType::kInt16,
                                             0, Reduction::kNone),
                   8192, 2400, 600, true, few_walkers, "scatter_elements_claim"});
  cases.push_back({"ScatterElements int32 add (atomics)",
                   inferScatterElementsShape({100}, DataType::kInt32, {3000}, DataType::kInt32, {3000},
                                             DataType::kInt32, 0, Reduction::kAdd),
                   400, 12000, 12000, true, few_walkers, "scatter_elements_atomic"});
  cases.push_back({"ScatterND int32 add (atomics)",
                   inferScatterNDShape({100}, DataType::kInt32, {3000, 1}, DataType::kInt64, {3000}, DataType::kInt32,
                                       Reduction::kAdd),
                   400, 24000, 12000, false, few_walkers, "scatter_nd_atomic"});
  cases.push_back({"ScatterElements float add (fold by owner)",
                   inferScatterElementsShape({40}, DataType::kFloat32, {3000}, DataType::kInt64, {3000},
                                             DataType::kFloat32, 0, Reduction::kAdd),
                   160, 24000, 12000, true, few_walkers, "scatter_elements_locate"});
  cases.push_back({"ScatterND float mul (fold by owner)",
                   inferScatterNDShape({40, 2}, DataType::kFloat32, {3000, 1}, DataType::kInt32, {3000, 2},
                                       DataType::kFloat32, Reduction::kMul),
                   320, 12000, 24000, false, few_walkers, "scatter_nd_locate"});
  cases.push_back({"ScatterElements max (walk)",
                   inferScatterElementsShape({6, 500}, DataType::kFloat64, {4, 500}, DataType::kInt32, {4, 500},
                                             DataType::kFloat64, 0, Reduction::kMax),
                   24000, 8000, 16000, false, plain, "scatter_elements x1"});
  cases.push_back({"ScatterElements beyond 8 dims (peeled walk)",
                   inferScatterElementsShape(nine_data, DataType::kInt8, nine_indices, DataType::kInt32, nine_indices,
                                             DataType::kInt8, 4, Reduction::kNone),
                   19683, 2048, 512, false, plain, "scatter_elements"});
  for (const PolicyCase& c : cases) ASSERT_NO_FATAL_FAILURE(expectPolicyPlans(c));
}

}  // namespace
}  // namespace vkindex::plan::test
