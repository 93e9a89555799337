// Unit tests for GatherElements planning (src/plan/gather_elements_plan). No GPU needed.
//   Shape inference: coalescing to (outer, axis, inner) or fewer, indices smaller than data blocking
//   merges, extent-1 dims dropped, the axis dim never merged, negative axes, call errors.
//   Hand-worked plans, unsupported sizes, empty outputs and empty axes, the largest supported sizes
//   (structurally checked). The byte-level simulations are in gather_elements_simulation_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gather_elements_simulator.hpp"
#include "plan/gather_elements_plan.hpp"
#include "plan/shape.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

// The coalesced dims of a float GatherElements with int64 indices (a test failure if inference fails).
std::string coalesced(const Shape& data, const Shape& indices, int64_t axis) {
  StatusOr<GatherElementsShape> shape =
      inferGatherElementsShape(data, DataType::kFloat32, indices, DataType::kInt64, axis);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  return shape.ok() ? dimsString(*shape) : shape.status().toString();
}

// Infers and plans, with the tensors at the given offsets, and checks the plan's structure.
StatusOr<OpPlan> checkedElementsPlan(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                                     DataType index_type, int64_t axis, const FakeDevice& device,
                                     uint64_t data_offset = 0, uint64_t indices_offset = 0,
                                     uint64_t output_offset = 0) {
  StatusOr<GatherElementsShape> shape =
      inferGatherElementsShape(data_shape, data_type, indices_shape, index_type, axis);
  if (!shape.ok()) return shape.status();
  const ElementsPlacements at = placementsOf(*shape, index_type, data_offset, indices_offset, output_offset);
  StatusOr<OpPlan> plan = planGatherElements(*shape, index_type, at.data, at.indices, at.output, device, device);
  if (plan.ok()) {
    checkElementsStructure(*plan, *shape, index_type, at, device);
    expectElementsReport(*plan, *shape);
  }
  return plan;
}

// ---------------------------------------------------------------------------------------------
// Shape inference and coalescing

TEST(GatherElementsShapeTest, EqualShapesCoalesceToOuterAxisInner) {
  EXPECT_EQ(coalesced({2, 3, 4, 5}, {2, 3, 4, 5}, 1), "(2/2: 60, 3/3*: 20, 20/20: 1)");
  EXPECT_EQ(coalesced({4, 5, 6}, {4, 5, 6}, 0), "(4/4*: 30, 30/30: 1)");
  EXPECT_EQ(coalesced({4, 5, 6}, {4, 5, 6}, 2), "(20/20: 6, 6/6*: 1)");
  EXPECT_EQ(coalesced({7}, {7}, 0), "(7/7*: 1)");
  EXPECT_EQ(coalesced({2, 2, 2, 2, 2, 2, 2, 2}, {2, 2, 2, 2, 2, 2, 2, 2}, 3), "(8/8: 32, 2/2*: 16, 16/16: 1)");
  EXPECT_EQ(coalesced({2, 3, 2, 3, 2, 3, 2, 3, 2, 3}, {2, 3, 2, 3, 2, 3, 2, 3, 2, 3}, 9), "(2592/2592: 3, 3/3*: 1)");
  // Fewer: nothing on one side of the axis, or everything else of extent 1.
  EXPECT_EQ(coalesced({1, 9, 1}, {1, 9, 1}, 1), "(9/9*: 1)");
  // The indices' axis extent may differ from data's; the dims around it still coalesce.
  EXPECT_EQ(coalesced({2, 3, 4, 5}, {2, 3, 9, 5}, 2), "(6/6: 20, 9/4*: 5, 5/5: 1)");
  EXPECT_EQ(coalesced({2, 3, 4, 5}, {2, 3, 1, 5}, 2), "(6/6: 20, 1/4*: 5, 5/5: 1)");
}

TEST(GatherElementsShapeTest, IndicesSmallerThanDataBlockMergingIntoTheDimBefore) {
  // A dim merges into the one before only when it spans its whole data dim.
  EXPECT_EQ(coalesced({4, 5, 6}, {4, 5, 3}, 0), "(4/4*: 30, 5/5: 6, 3/6: 1)");
  EXPECT_EQ(coalesced({5, 6, 7}, {5, 4, 7}, 2), "(5/5: 42, 4/6: 7, 7/7*: 1)");
  // A partial dim can take whole dims after it: (i, j) -> i * 6 + j, data (i * 6 + j) * 1.
  EXPECT_EQ(coalesced({4, 5, 6}, {4, 3, 6}, 0), "(4/4*: 30, 18/30: 1)");
  EXPECT_EQ(coalesced({5, 6, 7}, {2, 6, 7}, 2), "(12/30: 7, 7/7*: 1)");
  EXPECT_EQ(coalesced({3, 4, 5, 6}, {2, 4, 1, 6}, 0), "(2/3*: 120, 4/4: 30, 6/6: 1)");
  EXPECT_EQ(coalesced({3, 4, 5, 6}, {3, 2, 5, 6}, 0), "(3/3*: 120, 60/120: 1)");
  EXPECT_EQ(coalesced({3, 4, 5, 6}, {3, 4, 4, 6}, 3), "(12/12: 30, 4/5: 6, 6/6*: 1)");
}

TEST(GatherElementsShapeTest, ExtentOneDimsAreDropped) {
  EXPECT_EQ(coalesced({3, 1, 4}, {3, 1, 4}, 0), "(3/3*: 4, 4/4: 1)");
  EXPECT_EQ(coalesced({6, 4}, {1, 4}, 1), "(4/4*: 1)");
  EXPECT_EQ(coalesced({2, 3, 4}, {2, 1, 4}, 0), "(2/2*: 12, 4/4: 1)");
  // Dropping a dim whose data extent exceeds 1 leaves its neighbours apart in data ...
  EXPECT_EQ(coalesced({7, 4, 3, 5}, {7, 4, 1, 5}, 0), "(7/7*: 60, 4/4: 15, 5/5: 1)");
  EXPECT_EQ(coalesced({2, 5, 3, 4}, {2, 5, 1, 4}, 3), "(10/10: 12, 4/4*: 1)");
  // ... but not one that is 1 in data too.
  EXPECT_EQ(coalesced({7, 4, 1, 5}, {7, 4, 1, 5}, 0), "(7/7*: 20, 20/20: 1)");
  // The axis dim stays, even of extent 1 in both.
  EXPECT_EQ(coalesced({1, 1, 5, 1}, {1, 1, 5, 1}, 0), "(1/1*: 5, 5/5: 1)");
  EXPECT_EQ(coalesced({1, 1, 1}, {1, 1, 1}, 1), "(1/1*: 1)");
}

TEST(GatherElementsShapeTest, TheAxisDimIsNeverMerged) {
  EXPECT_EQ(coalesced({4, 5}, {4, 5}, 1), "(4/4: 5, 5/5*: 1)");
  EXPECT_EQ(coalesced({4, 5}, {4, 5}, 0), "(4/4*: 5, 5/5: 1)");
  EXPECT_EQ(coalesced({3, 4, 5}, {3, 4, 5}, 1), "(3/3: 20, 4/4*: 5, 5/5: 1)");
  // Neither into the dim before it nor the dim after it into the axis dim.
  EXPECT_EQ(coalesced({3, 2, 5}, {3, 7, 5}, 1), "(3/3: 10, 7/2*: 5, 5/5: 1)");
  EXPECT_EQ(coalesced({3, 1, 5}, {3, 1, 5}, 1), "(3/3: 5, 1/1*: 5, 5/5: 1)");
}

TEST(GatherElementsShapeTest, NegativeAxesAndTheShapeFacts) {
  StatusOr<GatherElementsShape> shape =
      inferGatherElementsShape({2, 3, 4}, DataType::kFloat16, {2, 3, 9}, DataType::kInt32, -1);
  ASSERT_TRUE(shape.ok()) << shape.status().toString();
  EXPECT_EQ(shape->axis, 2);
  EXPECT_EQ(shape->axis_size, 4u);
  EXPECT_EQ(shape->output_shape, (Shape{2, 3, 9}));
  EXPECT_EQ(shape->element_bytes, 2u);
  EXPECT_EQ(shape->data_elements, 24u);
  EXPECT_EQ(shape->output_elements, 54u);
  EXPECT_EQ(shape->axis_dim, 1u);
  EXPECT_EQ(dimsString(*shape), "(6/6: 4, 9/4*: 1)");
  EXPECT_EQ(coalesced({2, 3, 4}, {2, 3, 4}, -3), "(2/2*: 12, 12/12: 1)");
  EXPECT_EQ(coalesced({2, 3, 4}, {2, 3, 4}, -2), "(2/2: 12, 3/3*: 4, 4/4: 1)");
  for (int64_t rank = 1; rank <= 8; ++rank) {
    const Shape dims(static_cast<size_t>(rank), 3);
    for (int64_t axis = 0; axis < rank; ++axis) {
      EXPECT_EQ(coalesced(dims, dims, axis - rank), coalesced(dims, dims, axis)) << "rank " << rank;
    }
  }
}

TEST(GatherElementsShapeTest, CallErrors) {
  const auto infer = [](const Shape& data, const Shape& indices, DataType index_type, int64_t axis) {
    return inferGatherElementsShape(data, DataType::kFloat32, indices, index_type, axis).status();
  };
  expectError(infer({3, 4}, {3, 4}, DataType::kFloat32, 0), StatusCode::kInvalidArgument,
              "GatherElements: input 'indices' has type float; allowed types are int32 and int64");
  expectError(infer({}, {}, DataType::kInt64, 0), StatusCode::kInvalidArgument,
              "GatherElements: input 'data' must have rank >= 1, got a scalar (rank 0)");
  expectError(infer({3, 4}, {12}, DataType::kInt32, 0), StatusCode::kInvalidArgument,
              "GatherElements: input 'indices' has rank 1 but input 'data' has rank 2; they must be equal");
  expectError(infer({3, 4}, {3, 4}, DataType::kInt32, 2), StatusCode::kInvalidArgument,
              "GatherElements: attribute 'axis' = 2 is out of range for input 'data' of rank 2 (allowed [-2, 1])");
  expectError(infer({3, 4}, {3, 4}, DataType::kInt32, -3), StatusCode::kInvalidArgument,
              "GatherElements: attribute 'axis' = -3 is out of range for input 'data' of rank 2 (allowed [-2, 1])");
  expectError(infer({3, 4}, {4, 4}, DataType::kInt64, -1), StatusCode::kInvalidArgument,
              "GatherElements: input 'indices' dim 0 = 4 exceeds input 'data' dim 0 = 3 (dims other than axis 1 "
              "allow at most data's)");
  EXPECT_TRUE(infer({3, 4}, {4, 4}, DataType::kInt64, 0).ok());
}

// ---------------------------------------------------------------------------------------------
// Hand-worked plans. A 1024-byte range at alignment 16 leaves windowCapacity = 1024 - 2 * 16 = 992.

TEST(PlanGatherElementsTest, OneWindowOfWords) {
  // data (3, 5) float at 4, indices (3, 7) int32 at 12, output at 36: one check, one pass of 21 elements.
  StatusOr<OpPlan> plan =
      checkedElementsPlan({3, 5}, DataType::kFloat32, {3, 7}, DataType::kInt32, 1, fakeDevice(1024, 16), 4, 12, 36);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, gather_elements_4 x1");
  ASSERT_EQ(checkSteps(*plan).size(), 1u);
  EXPECT_EQ(str(checkSteps(*plan)[0]),
            "slot 0, index_count 21, position_base 0, indices at word 3, tuple (5), window {0, 96}, groups 1");
  const std::vector<ElementsStep> passes = elementSteps(*plan);
  ASSERT_EQ(passes.size(), 1u);
  EXPECT_EQ(str(passes[0].params),
            "slot 0, units_per_element 1, pass_elements 21, first 0, axis_size 5, data [0, 15) at unit 1, output at "
            "unit 1 words 22, indices at word 3, dims 2 (3: 5, 7*: 1)");
  EXPECT_EQ(
      str(passes[0].step),
      "gather_elements_4 spec {16, 1, 4, 4, 16, 2}, bindings data {0, 64}, indices {0, 96}, output {32, 88}, status, "
      "push 112, groups 1, waits status");
}

TEST(PlanGatherElementsTest, SubWordChunksSplitAnOutputWordAndDataTakesTwoWindows) {
  // uint8 data (40, 30) at 0, int64 indices (10, 25) at 12, output at 4, on a 1040-byte range:
  // windowCapacity 1008, so 126 int64 indices per window and per pass (chunks [0, 126) and
  // [126, 250)), and data windows [0, 1008) and [1008, 1200). Output byte 4 + 126 = 130 splits word
  // 32 between the chunks: each pass after the first waits for its output.
  StatusOr<OpPlan> plan =
      checkedElementsPlan({40, 30}, DataType::kUInt8, {10, 25}, DataType::kInt64, 0, fakeDevice(1040, 16), 0, 12, 4);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x2, report_index x2, gather_element_bytes x4");
  const std::vector<CheckStep> checks = checkSteps(*plan);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(str(checks[0]),
            "slot 0, index_count 126, position_base 0, indices at word 3, tuple (40), window {0, 1020}, groups 1");
  EXPECT_EQ(str(checks[1]),
            "slot 0, index_count 124, position_base 126, indices at word 3, tuple (40), window {1008, 1004}, groups 1");
  const std::vector<ElementsStep> passes = elementSteps(*plan);
  ASSERT_EQ(passes.size(), 4u);
  const std::string dims = ", indices at word 3, dims 2 (10*: 30, 25: 1)";
  EXPECT_EQ(str(passes[0].params),
            "slot 0, units_per_element 1, pass_elements 126, first 0, axis_size 40, data [0, "
            "1008) at unit 0, output at unit 4 words 33" +
                dims);
  EXPECT_EQ(str(passes[1].params),
            "slot 0, units_per_element 1, pass_elements 126, first 0, axis_size 40, data "
            "[1008, 1200) at unit 0, output at unit 4 words 33" +
                dims);
  EXPECT_EQ(str(passes[2].params),
            "slot 0, units_per_element 1, pass_elements 124, first 126, axis_size 40, data "
            "[0, 1008) at unit 0, output at unit 2 words 32" +
                dims);
  EXPECT_EQ(str(passes[3].params),
            "slot 0, units_per_element 1, pass_elements 124, first 126, axis_size 40, data "
            "[1008, 1200) at unit 0, output at unit 2 words 32" +
                dims);
  // 33 and 32 output words: segments of 32 lanes x 4 words, one each (a group fitted to 32 lanes).
  const std::string spec = "gather_element_bytes spec {32, 2, 1, 4, 32, 2}, bindings ";
  EXPECT_EQ(str(passes[0].step),
            spec + "data {0, 1008}, indices {0, 1020}, output {0, 132}, status, push 112, groups 1, waits status");
  EXPECT_EQ(str(passes[1].step), spec +
                                     "data {1008, 192}, indices {0, 1020}, output {0, 132}, status, push 112, "
                                     "groups 1, waits output {0, 132}");
  EXPECT_EQ(str(passes[2].step), spec +
                                     "data {0, 1008}, indices {1008, 1004}, output {128, 128}, status, push 112, "
                                     "groups 1, waits output {128, 128}");
  EXPECT_EQ(str(passes[3].step), spec +
                                     "data {1008, 192}, indices {1008, 1004}, output {128, 128}, status, push "
                                     "112, groups 1, waits output {128, 128}");
}

TEST(PlanGatherElementsTest, EmptyOutputsHaveNoStepsAndEmptyAxesOnlyChecks) {
  const FakeDevice device = fakeDevice(1024, 16);
  for (const Shape& indices : {Shape{0, 4}, Shape{3, 0}}) {
    StatusOr<OpPlan> plan = checkedElementsPlan({3, 4}, DataType::kFloat32, indices, DataType::kInt64, 1, device);
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    EXPECT_EQ(kernels(*plan), "none");
  }
  // Data (3, 0) along axis 1: every index is out of range, so the checks run and nothing is copied.
  StatusOr<OpPlan> plan = checkedElementsPlan({3, 0}, DataType::kFloat32, {3, 2}, DataType::kInt32, 1, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1");
  // Data with an empty non-axis dim admits only empty indices.
  plan = checkedElementsPlan({0, 5}, DataType::kFloat32, {0, 7}, DataType::kInt32, 1, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "none");
}

TEST(PlanGatherElementsTest, UnsupportedDimsAndSizes) {
  const FakeDevice device = fakeDevice(uint64_t(128) << 20, 256);
  const auto plan = [&](const Shape& data, const Shape& indices, int64_t axis) {
    StatusOr<GatherElementsShape> shape =
        inferGatherElementsShape(data, DataType::kUInt8, indices, DataType::kInt32, axis);
    EXPECT_TRUE(shape.ok()) << shape.status().toString();
    if (!shape.ok()) return shape.status();
    const ElementsPlacements at = placementsOf(*shape, DataType::kInt32, 0, 0, 0);
    return planGatherElements(*shape, DataType::kInt32, at.data, at.indices, at.output, device, device).status();
  };
  // Nine dims that cannot coalesce (every non-axis indices dim shorter than data's) peel the outermost:
  // one pass per block. Twenty-one peel 13 dims: 8192 blocks, more than kMaxPeeledBlocks.
  const Shape nine_data(9, 3), nine_indices(9, 2);
  EXPECT_TRUE(plan(nine_data, nine_indices, 0).ok());
  expectError(plan(Shape(21, 3), Shape(21, 2), 20), StatusCode::kUnsupported,
              "GatherElements: the tensors coalesce to 21 dims, whose 13 outermost run one pass per coordinate "
              "(8192); vkindex runs at most 4096");
  // Rank 9 and more is fine when it coalesces to at most 8.
  EXPECT_TRUE(plan(Shape(9, 3), Shape(9, 3), 4).ok());
  Shape eight_apart = nine_indices;
  eight_apart[8] = 3;  // merges into dim 7
  EXPECT_TRUE(plan(nine_data, eight_apart, 0).ok());
  // Empty outputs plan nothing, however many dims.
  Shape empty = nine_indices;
  empty[5] = 0;
  EXPECT_TRUE(plan(nine_data, empty, 0).ok());
  // 2^32 data elements.
  expectError(plan({65536, 65536}, {1, 1}, 0), StatusCode::kUnsupported,
              "GatherElements: input 'data' has 4294967296 elements; more than 2^32-1 are not supported");
  expectError(plan({2, 65536, 32768}, {1, 1, 1}, 2), StatusCode::kUnsupported,
              "GatherElements: input 'data' has 4294967296 elements; more than 2^32-1 are not supported");
  // 2^32 - 1 and 2^32 output elements (indices): the index check refuses them first.
  expectError(plan({1, 65537}, {65535, 65537}, 0), StatusCode::kUnsupported,
              "GatherElements: more than 2^32-2 index elements are not supported");
  expectError(plan({65536, 1}, {65536, 65536}, 1), StatusCode::kUnsupported,
              "GatherElements: more than 2^32-2 index elements are not supported");
  // An axis of 2^32, non-empty: the index check compares in 64 bits, the data's element count refuses it.
  expectError(plan({int64_t(1) << 32}, {1}, 0), StatusCode::kUnsupported,
              "GatherElements: input 'data' has 4294967296 elements; more than 2^32-1 are not supported");
}

TEST(PlanGatherElementsTest, LargestSupportedOutputIsStructurallySound) {
  // 2^32 - 2 output elements (2 x (2^31 - 1)) from 2^31 - 1 data elements, and 2^32 - 1 data elements.
  const FakeDevice device = fakeDevice(uint64_t(128) << 20, 256);
  StatusOr<OpPlan> plan =
      checkedElementsPlan({1, 2147483647}, DataType::kUInt8, {2, 2147483647}, DataType::kInt64, 0, device, 0, 4, 12);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_GT(elementSteps(*plan).size(), 100u);
  plan = checkedElementsPlan({65535, 65537}, DataType::kInt16, {3, 5}, DataType::kInt32, 1, device, 4, 4, 4);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(elementSteps(*plan).size(), 65u);  // 2^33 - 2 bytes of data in windows of 128 MiB - 512
}

}  // namespace
}  // namespace vkindex::plan::test
