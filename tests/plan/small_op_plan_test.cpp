// Small operations in one dispatch (issue 57): a decode step's embedding lookup, KV row update and
// token write, a top-k's GatherElements, a few scatter updates in place, and a quantized embedding row
// under the error policy, plan exactly one dispatch that checks its own indices and writes its own
// status, with no status reset and no barrier before it, on every row of the tuning table. Larger calls
// keep their check and report passes; under the skip policy nothing writes a status slot. No GPU needed.
#include <gtest/gtest.h>

#include <string>

#include "plan/gather_block_quantized_plan.hpp"
#include "plan/gather_elements_plan.hpp"
#include "plan/gather_nd_plan.hpp"
#include "plan/gather_plan.hpp"
#include "plan/scatter_plan.hpp"
#include "plan/segments.hpp"
#include "plan/tensor_scatter_plan.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

constexpr int64_t kVocab = 4096, kHidden = 1024;

// A device with a GPU's binding limits, the subgroup size its class reports (SwiftShader 4, lavapipe 8
// with 256-bit vectors, AMD 64, the other GPUs 32), `cpu_threads` worker threads for the CPU drivers
// and the tuning table's row for `row`.
FakeDevice tableDevice(DriverClass row, uint32_t cpu_threads = 2) {
  FakeDevice device = fakeDevice(uint64_t(1) << 30, 64, 256, 4);
  device.max_workgroup_invocations = 1024;
  device.max_workgroup_size_x = 1024;
  device.subgroup_size = row == DriverClass::kSwiftShader ? 4
                         : row == DriverClass::kLavapipe  ? 8
                         : row == DriverClass::kAmd       ? 64
                                                          : 32;
  const bool cpu = row == DriverClass::kSwiftShader || row == DriverClass::kLavapipe;
  device.cpu_threads = cpu ? cpu_threads : 0;
  static_cast<Tuning&>(device) = tableTuning(row, device);
  return device;
}

const DriverClass kRows[] = {DriverClass::kSwiftShader, DriverClass::kLavapipe, DriverClass::kNvidia,
                             DriverClass::kAmd,         DriverClass::kIntel,    DriverClass::kAdreno,
                             DriverClass::kMali,        DriverClass::kOtherGpu};

std::string describe(const OpPlan& plan, DriverClass row) {
  return std::string(driverClassName(row)) + ": " + kernels(plan);
}

// One dispatch, nothing recorded before it, its own status, one barrier to the host after it.
void expectOneDispatch(const StatusOr<OpPlan>& plan, DriverClass row) {
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  const CommandCounts counts = commandCounts(*plan);
  EXPECT_EQ(counts.dispatches, 1u) << describe(*plan, row);
  EXPECT_EQ(counts.transfers, 0u) << describe(*plan, row);
  EXPECT_EQ(counts.barriers, 0u) << describe(*plan, row);
  EXPECT_EQ(counts.host_barriers, 1u) << describe(*plan, row);
  EXPECT_TRUE(plan->writes_own_status) << describe(*plan, row);
}

TEST(SmallOpPlanTest, EmbeddingRowsAreOneDispatch) {
  for (DriverClass row : kRows) {
    const FakeDevice device = tableDevice(row);
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      for (int64_t rows : {1, 8}) {
        SCOPED_TRACE(std::to_string(rows) + " rows");
        expectOneDispatch(planFor({kVocab, kHidden}, DataType::kFloat32, {rows}, index_type, 0, device), row);
      }
      // A rank-0 index (the axis goes) and a 16-bit table.
      expectOneDispatch(planFor({kVocab, kHidden}, DataType::kFloat16, {}, index_type, 0, device), row);
    }
  }
}

TEST(SmallOpPlanTest, GatherNDRowIsOneDispatch) {
  for (DriverClass row : kRows) {
    const FakeDevice device = tableDevice(row);
    StatusOr<GatherNDShape> shape =
        inferGatherNDShape({kVocab, kHidden}, DataType::kFloat32, {1, 1}, DataType::kInt64, 0);
    ASSERT_TRUE(shape.ok());
    expectOneDispatch(planGatherND(*shape, DataType::kInt64, placed(0, kVocab * kHidden * 4), placed(0, 8),
                                   placed(0, kHidden * 4), device, device),
                      row);
  }
}

// A KV row update in place: ScatterND of float32 [64, 1024] x int64 [1, 1] x [1, 1024].
StatusOr<OpPlan> kvRowPlan(const FakeDevice& device) {
  StatusOr<ScatterShape> shape = inferScatterNDShape({64, kHidden}, DataType::kFloat32, {1, 1}, DataType::kInt64,
                                                     {1, kHidden}, DataType::kFloat32, Reduction::kNone);
  if (!shape.ok()) return shape.status();
  const Placement cache = placed(0, 64 * kHidden * 4);
  return planScatter(*shape, cache, placed(1 << 20, 8), placed(2 << 20, kHidden * 4), cache, true, device, device);
}

TEST(SmallOpPlanTest, KvRowUpdateInPlaceIsOneDispatch) {
  for (DriverClass row : kRows) {
    const StatusOr<OpPlan> plan = kvRowPlan(tableDevice(row));
    expectOneDispatch(plan, row);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(kernels(*plan), "scatter_nd_rows_checked x1") << "16-byte units";
  }
}

// A few tuples in place are one dispatch whatever the winner table would cost (a 1 KiB one, or one past
// its 64 MiB: more than 2^24 rows): a tuple writes its row unless a later one addresses it
// (scatter_nd_rows_checked*, no table).
TEST(SmallOpPlanTest, FewTuplesInPlaceAreOneDispatch) {
  for (DriverClass row : kRows) {
    const FakeDevice device = tableDevice(row);
    for (int64_t rows : {int64_t(256), (int64_t(1) << 24) + 1}) {
      StatusOr<ScatterShape> shape = inferScatterNDShape({rows, 1}, DataType::kFloat32, {8, 1}, DataType::kInt32,
                                                         {8, 1}, DataType::kFloat32, Reduction::kNone);
      ASSERT_TRUE(shape.ok());
      const Placement cache = placed(0, uint64_t(rows) * 4);
      const StatusOr<OpPlan> plan =
          planScatter(*shape, cache, placed(0, 32), placed(0, 32), cache, true, device, device);
      expectOneDispatch(plan, row);
      ASSERT_TRUE(plan.ok());
      EXPECT_EQ(kernels(*plan), "scatter_nd_rows_checked_4 x1");
    }
  }
}

// A ScatterElements of a few updates in place (a logit mask's 8 positions, duplicates allowed) walks in
// index order in one self-checking dispatch where the winner table would run several passes; with a
// reduction, the strategy for its arithmetic keeps its check pass.
TEST(SmallOpPlanTest, FewScatterElementsUpdatesInPlaceAreOneDispatch) {
  for (DriverClass row : kRows) {
    const FakeDevice device = tableDevice(row);
    const Placement logits = placed(0, 4 * 32000 * 4);
    for (Reduction reduction : {Reduction::kNone, Reduction::kAdd}) {
      StatusOr<ScatterShape> shape = inferScatterElementsShape({4, 32000}, DataType::kFloat32, {1, 8}, DataType::kInt64,
                                                               {1, 8}, DataType::kFloat32, 1, reduction);
      ASSERT_TRUE(shape.ok()) << shape.status().toString();
      const StatusOr<OpPlan> plan =
          planScatter(*shape, logits, placed(1 << 20, 64), placed(2 << 20, 32), logits, true, device, device);
      ASSERT_TRUE(plan.ok());
      if (reduction == Reduction::kNone) {
        expectOneDispatch(plan, row);
        EXPECT_EQ(kernels(*plan), "scatter_elements_move_checked x1");
      } else {
        EXPECT_TRUE(isCheckKernel(plan->steps[0].kernel)) << describe(*plan, row);
      }
    }
  }
}

TEST(SmallOpPlanTest, KvTokenWriteInPlaceIsOneDispatch) {
  for (DriverClass row : kRows) {
    const FakeDevice device = tableDevice(row);
    StatusOr<TensorScatterShape> shape =
        inferTensorScatterShape({1, 8, 64, 128}, DataType::kFloat16, {1, 8, 1, 128}, DataType::kFloat16,
                                WriteIndicesInput{{1}, DataType::kInt64}, TensorScatterOptions{});
    ASSERT_TRUE(shape.ok());
    const Placement cache = placed(0, 8 * 64 * 128 * 2);
    expectOneDispatch(
        planTensorScatter(*shape, cache, placed(1 << 20, 8), placed(2 << 20, 8 * 128 * 2), cache, true, device, device),
        row);
  }
}

// A top-k's gather of 8 logits: GatherElements float[1, 32000] x int64[1, 8] along axis 1, and the
// same with 16 float16 elements (the sub-word module).
TEST(SmallOpPlanTest, FewGatherElementsIndicesAreOneDispatch) {
  for (DriverClass row : kRows) {
    const FakeDevice device = tableDevice(row);
    for (const auto& [type, count] : {std::pair{DataType::kFloat32, 8}, std::pair{DataType::kFloat16, 16}}) {
      StatusOr<GatherElementsShape> shape = inferGatherElementsShape({1, 32000}, type, {1, count}, DataType::kInt64, 1);
      ASSERT_TRUE(shape.ok()) << shape.status().toString();
      const uint64_t element = elementSize(type);
      const StatusOr<OpPlan> plan =
          planGatherElements(*shape, DataType::kInt64, placed(0, 32000 * element), placed(1 << 20, count * 8),
                             placed(2 << 20, count * element), device, device);
      expectOneDispatch(plan, row);
      ASSERT_TRUE(plan.ok());
      EXPECT_TRUE(isSelfCheckingElementGatherKernel(plan->steps[0].kernel)) << kernels(*plan);
    }
  }
}

// One token's row of a 4-bit table under the error policy (the default skip policy checks nothing).
TEST(SmallOpPlanTest, QuantizedEmbeddingRowUnderTheErrorPolicyIsOneDispatch) {
  for (DriverClass row : kRows) {
    const FakeDevice device = tableDevice(row);
    GatherBlockQuantizedOptions options;
    options.block_size = 32;
    options.index_policy = IndexPolicy::kError;
    StatusOr<GatherBlockQuantizedShape> shape =
        inferGatherBlockQuantizedShape({DataType::kInt4, {kVocab, kHidden}}, {DataType::kInt64, {1}},
                                       {DataType::kFloat16, {kVocab, kHidden / 32}}, std::nullopt, options);
    ASSERT_TRUE(shape.ok()) << shape.status().toString();
    expectOneDispatch(planGatherBlockQuantized(*shape, placed(0, kVocab * kHidden / 2), placed(1 << 30, 8),
                                               placed(uint64_t(2) << 30, kVocab * kHidden / 16), std::nullopt,
                                               placed(uint64_t(3) << 30, kHidden * 2), device, device),
                      row);
  }
}

// A CPU driver runs every invocation of a workgroup, idle or not, so a dispatch of one group takes a
// group of the invocations its work needs (plan::fitOneGroup): a power of two, at least the lanes of a
// segment and the device's subgroup, at most the tuning's workgroup.
TEST(SmallOpPlanTest, WorkgroupForWorkIsThePowerOfTwoTheWorkNeeds) {
  EXPECT_EQ(workgroupForWork(1, 1, 256, 4), 4u);
  EXPECT_EQ(workgroupForWork(5, 1, 256, 4), 8u);
  EXPECT_EQ(workgroupForWork(40, 1, 96, 4), 64u);   // a workgroup override that is no power of two
  EXPECT_EQ(workgroupForWork(1, 32, 256, 4), 32u);  // a segment's lanes
  EXPECT_EQ(workgroupForWork(3, 1, 256, 32), 32u);  // a GPU's subgroup
  EXPECT_EQ(workgroupForWork(256, 1, 256, 4), 256u);
  EXPECT_EQ(workgroupForWork(300, 1, 256, 4), 256u);  // several groups' work keeps the workgroup
  EXPECT_EQ(workgroupForWork(1, 1, 96, 128), 96u);    // a subgroup larger than the workgroup
  EXPECT_EQ(workgroupForWork(1, 1, 256, 0), 256u);    // subgroup size unknown: nothing changes
}

// A decode step's single dispatches in groups sized to their work: on SwiftShader's row (one lane
// streaming 256 units of 16 bytes) a 4 KiB row is one invocation, a group of 4, and 8 rows a group of
// 8; on NVIDIA's (32 lanes x 4 units) a row is 2 segments of 32 lanes, a group of 64, and 8 rows need
// two groups of 256.
TEST(SmallOpPlanTest, SingleGroupsAreSizedToTheirWork) {
  const struct {
    DriverClass row;
    int64_t rows;
    uint64_t groups;
    uint32_t workgroup;
  } cases[] = {{DriverClass::kSwiftShader, 1, 1, 4},
               {DriverClass::kSwiftShader, 8, 1, 8},
               {DriverClass::kLavapipe, 1, 1, 8},
               {DriverClass::kNvidia, 1, 1, 64},
               {DriverClass::kNvidia, 8, 2, 256}};
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(driverClassName(c.row)) + ", " + std::to_string(c.rows) + " rows");
    const FakeDevice device = tableDevice(c.row);
    const StatusOr<OpPlan> plan = planFor({kVocab, kHidden}, DataType::kFloat32, {c.rows}, DataType::kInt64, 0, device);
    expectOneDispatch(plan, c.row);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(plan->steps[0].groups, c.groups);
    EXPECT_EQ(plan->steps[0].spec[kSpecWorkgroupSize], c.workgroup);
  }
  // The in-place KV row (ScatterND of one 4 KiB slice) on SwiftShader's row: one invocation too.
  const StatusOr<OpPlan> plan = kvRowPlan(tableDevice(DriverClass::kSwiftShader));
  expectOneDispatch(plan, DriverClass::kSwiftShader);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->steps[0].spec[kSpecWorkgroupSize], 4u);
}

// One token's int4 row (1024 codes: 128 data words) is spread over the device's parallelism. A CPU
// driver runs a group's subgroups one after another on one thread and its groups on all its threads
// at once, so the row takes one group of one subgroup per thread: on SwiftShader's row with 2 threads
// 2 groups of 4 invocations of 16 words, with 8 threads 8 groups of 4 of 4 words; on lavapipe's 2
// groups of 8 of 8 words. A GPU takes four subgroups' invocations in one group fitted to them: 128 of
// one word on NVIDIA's. 8 rows' 1024 words: SwiftShader's 2 groups of 4 invocations of 128 words (a
// row each), NVIDIA's 128 invocations of 4 words (its row_items) in one group of 256. Calls that
// four groups of 256 give two words or more per invocation keep that spread.
TEST(SmallOpPlanTest, QuantizedRowIsSpreadOverTheDevicesParallelism) {
  const struct {
    DriverClass row;
    uint32_t cpu_threads;
    int64_t rows;
    uint32_t segment_words;
    uint32_t workgroup;
    uint64_t groups;
  } cases[] = {{DriverClass::kSwiftShader, 2, 1, 16, 4, 2},  {DriverClass::kSwiftShader, 8, 1, 4, 4, 8},
               {DriverClass::kLavapipe, 2, 1, 8, 8, 2},      {DriverClass::kNvidia, 0, 1, 1, 128, 1},
               {DriverClass::kSwiftShader, 2, 8, 128, 4, 2}, {DriverClass::kNvidia, 0, 8, 4, 256, 1},
               {DriverClass::kSwiftShader, 2, 64, 8, 256, 4}};
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(driverClassName(c.row)) + ", " + std::to_string(c.rows) + " rows, " +
                 std::to_string(c.cpu_threads) + " CPU threads");
    const FakeDevice device = tableDevice(c.row, c.cpu_threads);
    GatherBlockQuantizedOptions options;
    options.block_size = 32;
    StatusOr<GatherBlockQuantizedShape> shape =
        inferGatherBlockQuantizedShape({DataType::kInt4, {kVocab, kHidden}}, {DataType::kInt64, {c.rows}},
                                       {DataType::kFloat16, {kVocab, kHidden / 32}}, std::nullopt, options);
    ASSERT_TRUE(shape.ok()) << shape.status().toString();
    const StatusOr<OpPlan> plan =
        planGatherBlockQuantized(*shape, placed(0, kVocab * kHidden / 2), placed(1 << 30, 8 * c.rows),
                                 placed(uint64_t(2) << 30, kVocab * kHidden / 16), std::nullopt,
                                 placed(uint64_t(3) << 30, kHidden * 2 * c.rows), device, device);
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    ASSERT_EQ(plan->steps.size(), 1u) << kernels(*plan);
    EXPECT_EQ(plan->steps[0].spec[kSpecSegmentWords], c.segment_words);
    EXPECT_EQ(plan->steps[0].spec[kSpecWorkgroupSize], c.workgroup);
    EXPECT_EQ(plan->steps[0].groups, c.groups);
  }
}

// Under the skip policy nothing is checked on the device: whatever the size, the plan writes no status
// slot, so it takes none (its gates read the status board's clean slot), resets none and has no barrier
// to the host: in a batch such an operation waits on nothing but its data. GatherBlockQuantized's
// default policy, and a Gather of 5000 rows (past the one-dispatch bound).
TEST(SmallOpPlanTest, SkipPolicyPlansWriteNoStatusSlot) {
  for (DriverClass row : kRows) {
    const FakeDevice device = tableDevice(row);
    GatherBlockQuantizedOptions options;
    options.block_size = 32;
    StatusOr<GatherBlockQuantizedShape> quantized =
        inferGatherBlockQuantizedShape({DataType::kInt4, {kVocab, kHidden}}, {DataType::kInt64, {1}},
                                       {DataType::kFloat16, {kVocab, kHidden / 32}}, std::nullopt, options);
    ASSERT_TRUE(quantized.ok()) << quantized.status().toString();
    StatusOr<GatherShape> gather = inferGatherShape({kVocab, kHidden}, DataType::kFloat32, {5000}, DataType::kInt64, 0);
    ASSERT_TRUE(gather.ok()) << gather.status().toString();
    gather->policy = IndexPolicy::kSkip;
    const StatusOr<OpPlan> plans[] = {
        planGatherBlockQuantized(*quantized, placed(0, kVocab * kHidden / 2), placed(1 << 30, 8),
                                 placed(uint64_t(2) << 30, kVocab * kHidden / 16), std::nullopt,
                                 placed(uint64_t(3) << 30, kHidden * 2), device, device),
        planGather(*gather, DataType::kInt64, placed(0, kVocab * kHidden * 4), placed(1 << 30, 5000 * 8),
                   placed(uint64_t(2) << 30, 5000 * kHidden * 4), device, device)};
    for (const StatusOr<OpPlan>& plan : plans) {
      ASSERT_TRUE(plan.ok()) << plan.status().toString();
      const CommandCounts counts = commandCounts(*plan);
      EXPECT_GE(counts.dispatches, 1u) << describe(*plan, row);
      EXPECT_FALSE(writesStatusSlot(*plan)) << describe(*plan, row);
      EXPECT_EQ(counts.transfers, 0u) << describe(*plan, row);
      EXPECT_EQ(counts.barriers, 0u) << describe(*plan, row);
      EXPECT_EQ(counts.host_barriers, 0u) << describe(*plan, row);
    }
  }
}

// The bound is the planner's: past it the check and report passes come back, each pass waiting for
// the one before, and the status slot is reset first.
TEST(SmallOpPlanTest, LargerCallsKeepTheirCheckPasses) {
  for (DriverClass row : kRows) {
    const FakeDevice device = tableDevice(row);
    const StatusOr<OpPlan> plan = planFor({kVocab, kHidden}, DataType::kFloat32, {5000}, DataType::kInt64, 0, device);
    ASSERT_TRUE(plan.ok());
    const CommandCounts counts = commandCounts(*plan);
    EXPECT_GE(counts.dispatches, 3u) << describe(*plan, row);
    EXPECT_GE(counts.barriers, 2u) << describe(*plan, row);
    EXPECT_EQ(counts.transfers, 1u) << describe(*plan, row);
    EXPECT_TRUE(writesStatusSlot(*plan)) << describe(*plan, row);
    EXPECT_FALSE(plan->writes_own_status) << describe(*plan, row);
  }
}

}  // namespace
}  // namespace vkindex::plan::test
