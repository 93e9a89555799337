// Host-index planning (src/plan/host_index_copy): the host check finds the first bad element with the
// device check's range rule, regions merge exactly the runs that are consecutive in data and output,
// regions come in source order, and the path choice follows the average region size.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "plan/gather_nd_plan.hpp"
#include "plan/gather_plan.hpp"
#include "plan/host_index_copy.hpp"
#include "plan/tuning.hpp"

namespace vkindex::plan {
namespace {

RowGather gatherOf(const Shape& data_shape, DataType data_type, const Shape& indices_shape, DataType index_type,
                   int64_t axis) {
  StatusOr<GatherShape> shape = inferGatherShape(data_shape, data_type, indices_shape, index_type, axis);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  return gatherRows(*shape, index_type);
}

TEST(HostIndexCopyTest, FindBadIndexUsesTheDeviceChecksRange) {
  const IndexCheck check{DataType::kInt64, 6, {5}};
  const int64_t good[] = {0, 4, -1, -5, 2, 3};
  EXPECT_FALSE(findBadIndex(check, good).has_value());
  const int64_t bad[] = {0, 4, -6, 5, (int64_t(1) << 32) + 1, 0};
  std::optional<BadIndex> found = findBadIndex(check, bad);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->position, 2u);
  EXPECT_EQ(found->value, -6);
  const int64_t wide[] = {0, 1, 2, 3, (int64_t(1) << 32) + 1, INT64_MIN};
  found = findBadIndex(check, wide);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->position, 4u);
  // int32 values are sign-extended; an empty axis admits nothing.
  const int32_t narrow[] = {-5, 4, -2147483647 - 1};
  found = findBadIndex(IndexCheck{DataType::kInt32, 3, {5}}, narrow);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->position, 2u);
  EXPECT_EQ(found->value, INT32_MIN);
  EXPECT_TRUE(findBadIndex(IndexCheck{DataType::kInt32, 1, {0}}, narrow).has_value());
}

TEST(HostIndexCopyTest, FindBadIndexChecksEachTupleComponentAgainstItsOwnDim) {
  const IndexCheck check{DataType::kInt32, 2, {3, 7}};
  const int32_t values[] = {2, 6, -3, 7};  // tuple 1's component 1 is 7 in a dim of 7
  std::optional<BadIndex> found = findBadIndex(check, values);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->position, 3u);
  EXPECT_EQ(found->value, 7);
}

TEST(HostIndexCopyTest, RegionsMergeRunsThatAreConsecutiveInDataAndOutput) {
  // data [2 outer, 10 rows, 4 floats]: rows of 16 bytes; indices [5] shared by both outer slices.
  const RowGather gather = gatherOf({2, 10, 4}, DataType::kFloat32, {5}, DataType::kInt64, 1);
  const int64_t values[] = {3, 4, -6, 9, 9};  // -6 is row 4 again: 3,4 then 4,9,9 break the run
  const std::vector<CopyRegion> regions = rowCopyRegions(gather, values, 1000, 5000);
  const std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> expected = {
      {1000 + 3 * 16, 5000, 32},            // rows 3, 4
      {1000 + 4 * 16, 5000 + 2 * 16, 16},   // row 4 again
      {1000 + 9 * 16, 5000 + 3 * 16, 16},   // row 9
      {1000 + 9 * 16, 5000 + 4 * 16, 16},   // row 9 again
      {1000 + 13 * 16, 5000 + 5 * 16, 32},  // outer 1: rows 3, 4
      {1000 + 14 * 16, 5000 + 7 * 16, 16}, {1000 + 19 * 16, 5000 + 8 * 16, 16}, {1000 + 19 * 16, 5000 + 9 * 16, 16},
  };
  ASSERT_EQ(regions.size(), expected.size());
  for (size_t i = 0; i < regions.size(); ++i) {
    EXPECT_EQ(std::make_tuple(regions[i].source, regions[i].target, regions[i].bytes), expected[i]) << "region " << i;
  }
}

TEST(HostIndexCopyTest, ARunAcrossOuterSlicesMergesWhenBothSidesAreContiguous) {
  // Gather axis 0 over all rows in order: one region for the whole tensor.
  const RowGather gather = gatherOf({6, 3}, DataType::kUInt8, {6}, DataType::kInt32, 0);
  const int32_t values[] = {0, 1, 2, 3, 4, 5};
  const std::vector<CopyRegion> regions = rowCopyRegions(gather, values, 0, 64);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].bytes, 18u);
}

TEST(HostIndexCopyTest, GatherNDTuplesAddressRowsWithinTheirBatch) {
  // data [2 batch, 3, 4, 2 int16]: rows of 4 bytes; indices [2 batch, 2 tuples, 2].
  StatusOr<GatherNDShape> shape = inferGatherNDShape({2, 3, 4, 2}, DataType::kInt16, {2, 2, 2}, DataType::kInt64, 1);
  ASSERT_TRUE(shape.ok()) << shape.status().toString();
  const RowGather gather = gatherNDRows(*shape, DataType::kInt64);
  const int64_t values[] = {1, 2, -1, -1, 1, 0, 2, 3};
  const std::vector<CopyRegion> regions = rowCopyRegions(gather, values, 0, 0);
  ASSERT_EQ(regions.size(), 4u);
  EXPECT_EQ(regions[0].source, (1u * 4 + 2) * 4);       // batch 0, (1, 2)
  EXPECT_EQ(regions[1].source, (2u * 4 + 3) * 4);       // batch 0, (2, 3)
  EXPECT_EQ(regions[2].source, (12u + 4) * 4);          // batch 1, (1, 0)
  EXPECT_EQ(regions[3].source, (12u + 2 * 4 + 3) * 4);  // batch 1, (2, 3)
  EXPECT_EQ(regions[3].target, 3u * 4);
}

TEST(HostIndexCopyTest, RegionsComeInSourceOrderAndCoverEveryOutputRowOnce) {
  // data [3 outer, 50 rows, 2 int32]: random rows, repeats included, for indices [40] of each slice.
  const RowGather gather = gatherOf({3, 50, 2}, DataType::kInt32, {40}, DataType::kInt32, 1);
  std::vector<int32_t> values(40);
  uint32_t state = 7;
  for (int32_t& value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<int32_t>(state >> 8) % 100 - 50;  // [-50, 49]
  }
  const std::vector<CopyRegion> regions = rowCopyRegions(gather, values.data(), 64, 0);
  std::vector<int> copies(3 * 40, 0);
  for (size_t i = 0; i < regions.size(); ++i) {
    if (i > 0) {
      EXPECT_TRUE(regions[i - 1].source < regions[i].source ||
                  (regions[i - 1].source == regions[i].source && regions[i - 1].target < regions[i].target))
          << "region " << i;
    }
    ASSERT_EQ(regions[i].bytes % 8, 0u);
    for (uint64_t row = 0; row < regions[i].bytes / 8; ++row) {
      const uint64_t out_row = regions[i].target / 8 + row;
      ASSERT_LT(out_row, copies.size());
      ++copies[out_row];
      const uint64_t outer = out_row / 40, n = out_row % 40;
      const int64_t index = values[n] < 0 ? values[n] + 50 : values[n];
      EXPECT_EQ(regions[i].source + row * 8, 64 + (outer * 50 + static_cast<uint64_t>(index)) * 8) << "row " << out_row;
    }
  }
  EXPECT_EQ(std::count(copies.begin(), copies.end(), 1), 3 * 40);
}

TEST(HostIndexCopyTest, PathFollowsTheAverageRegionSize) {
  const CopyRegionCrossover at_256{32, 256};
  const RowGather rows_1k = gatherOf({100, 256}, DataType::kFloat32, {40}, DataType::kInt64, 0);
  EXPECT_EQ(chooseHostIndexPath(rows_1k, 40, at_256), HostIndexPath::kCopyRegions);
  const RowGather rows_4b = gatherOf({100, 1}, DataType::kFloat32, {64}, DataType::kInt64, 0);
  EXPECT_EQ(chooseHostIndexPath(rows_4b, 64, at_256), HostIndexPath::kKernel);
  EXPECT_EQ(chooseHostIndexPath(rows_4b, 64, {32, 4}), HostIndexPath::kCopyRegions);  // a driver with cheap regions
  // Small rows in long runs: the merged regions are large.
  EXPECT_EQ(chooseHostIndexPath(rows_4b, 1, at_256), HostIndexPath::kCopyRegions);
  // A few regions cost less than a dispatch whatever their size; one more than that does not.
  const RowGather rows_4b_few = gatherOf({100, 1}, DataType::kFloat32, {32}, DataType::kInt64, 0);
  EXPECT_EQ(chooseHostIndexPath(rows_4b_few, 32, at_256), HostIndexPath::kCopyRegions);
  const RowGather rows_4b_more = gatherOf({100, 1}, DataType::kFloat32, {33}, DataType::kInt64, 0);
  EXPECT_EQ(chooseHostIndexPath(rows_4b_more, 33, at_256), HostIndexPath::kKernel);
  // A decode step's 4 KiB embedding row below a driver's 8 KiB crossover.
  const RowGather one_row = gatherOf({100, 1024}, DataType::kFloat32, {1}, DataType::kInt64, 0);
  EXPECT_EQ(chooseHostIndexPath(one_row, 1, {32, 8192}), HostIndexPath::kCopyRegions);
  const RowGather too_many = gatherOf({2, 4096}, DataType::kFloat32, {kMaxCopyRows + 1}, DataType::kInt32, 0);
  EXPECT_EQ(chooseHostIndexPath(too_many, 1, {32, 1}), HostIndexPath::kKernel);
}

// A GPU's crossover (each region a copy launch of its own): a few regions copy, more never do, however
// large they are.
TEST(HostIndexCopyTest, ADeviceWhoseRegionsNeverCatchUpCopiesOnlyAFew) {
  const CopyRegionCrossover gpu{4, UINT64_MAX};
  const RowGather rows_64k = gatherOf({100, 16384}, DataType::kFloat32, {5}, DataType::kInt64, 0);
  EXPECT_EQ(chooseHostIndexPath(rows_64k, 4, gpu), HostIndexPath::kCopyRegions);
  EXPECT_EQ(chooseHostIndexPath(rows_64k, 5, gpu), HostIndexPath::kKernel);
  // Rows in one run merge into a single region, which copies.
  EXPECT_EQ(chooseHostIndexPath(rows_64k, 1, gpu), HostIndexPath::kCopyRegions);
}

// Both paths are plans for the one runner: the copy path one transfer step and nothing dispatched (no
// status slot), the kernel path the row gather behind one upload of the values into the indices tensor.
TEST(HostIndexCopyTest, BothPathsArePlansOfTheOneFormat) {
  const RowGather rows = gatherOf({10, 16}, DataType::kFloat32, {3}, DataType::kInt64, 0);
  const int64_t values[] = {4, 0, 9};
  OpPlan copy = copyRegionsPlan(rowCopyRegions(rows, values, 0, 0));
  ASSERT_EQ(copy.steps.size(), 1u);
  EXPECT_EQ(copy.steps[0].kind, StepKind::kCopyRegions);
  EXPECT_EQ(copy.steps[0].regions.size(), 3u);
  EXPECT_FALSE(copy.dispatches());
  EXPECT_TRUE(copyRegionsPlan({}).steps.empty()) << "an empty output copies nothing";

  DeviceInfo device;
  device.max_storage_buffer_range = 1 << 20;
  device.min_storage_buffer_offset_alignment = 16;
  device.max_workgroup_count = {65535, 65535, 65535};
  Tuning tuning;
  tuning.workgroup_size = 64;
  tuning.items_per_invocation = tuning.row_items = 4;
  tuning.row_lanes = 1;
  StatusOr<OpPlan> kernel = uploadedIndicesPlan(rows, values, {0, 640}, {256, 24}, {1024, 192}, device, tuning);
  ASSERT_TRUE(kernel.ok()) << kernel.status().toString();
  ASSERT_GE(kernel->steps.size(), 2u);
  const Step& upload = kernel->steps.front();
  EXPECT_EQ(upload.kind, StepKind::kUploadFromHost);
  EXPECT_EQ(upload.host_source, static_cast<const void*>(values));
  ASSERT_EQ(upload.bindings.size(), 1u);
  EXPECT_EQ(upload.bindings[0].role, Role::kIndices);
  EXPECT_EQ(upload.bindings[0].window.offset, 256u);
  EXPECT_EQ(upload.bindings[0].window.size, hostIndexBytes(rows));
  EXPECT_EQ(hostIndexBytes(rows), 24u);
  EXPECT_TRUE(kernel->dispatches());
  for (size_t i = 1; i < kernel->steps.size(); ++i) EXPECT_EQ(kernel->steps[i].kind, StepKind::kDispatch);
}

}  // namespace
}  // namespace vkindex::plan
