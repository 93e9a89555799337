// Unit tests for planGather (src/plan/gather_plan), no GPU needed. Shape inference is covered in
// windows_test.cpp, large plans in gather_plan_structure_test.cpp, simulated plans in
// gather_simulation_test.cpp.
//   Hand-worked plans: step kernels and counts, windows, every push constant, workgroup counts,
//   specialization values and barriers.
//   Errors (exact codes and messages) and empty outputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "plan/gather_plan.hpp"
#include "plan/shape.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

// ---------------------------------------------------------------------------------------------
// Hand-worked plans. A 1024-byte range at alignment 16 leaves windowCapacity = 1024 - 2 * 16 = 992.

TEST(PlanGatherTest, EverythingInOneWindowIsOneCheckOneReportAndOnePass) {
  // 6-byte rows (2-byte units, gather_row_bytes): the generic plan, which small copy-unit plans fuse.
  StatusOr<OpPlan> plan = planFor({10, 3}, DataType::kUInt16, {5}, DataType::kInt32, 0, fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, gather_row_bytes x1");
  EXPECT_EQ(plan->scratch_bytes, 0u);
  // The generic parts of every step: the check's 29-word block (5 fields, 12 extents, their 12 high
  // words) over 5 positions (a segment of 4 lanes x 4), the report mirroring it after the check (one
  // invocation, no segments), the copy's segment of 8 lanes (the output's 8 words) x 4 words waiting
  // for both.
  ASSERT_EQ(plan->steps.size(), 3u);
  EXPECT_EQ(str(plan->steps[0]),
            "check_indices spec {4, 1, 0, 4, 4, 0}, bindings indices {0, 20}, status, push 116, groups 1, waits none");
  EXPECT_EQ(str(plan->steps[1]),
            "report_index spec {4, 1, 0, 0, 0, 0}, bindings indices {0, 20}, status, push 116, groups 1, waits status");
  EXPECT_EQ(str(plan->steps[2]),
            "gather_row_bytes spec {8, 1, 2, 4, 8, 1}, bindings data {0, 60}, indices {0, 20}, output {0, 32}, "
            "status, push 128, groups 1, waits status");
  const std::vector<CheckStep> checks = checkSteps(*plan);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(str(checks[0]),
            "slot 0, index_count 5, position_base 0, indices at word 0, tuple (10), window {0, 20}, groups 1");
  const std::vector<CheckStep> reports = reportSteps(*plan);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(str(reports[0]), str(checks[0]));
  EXPECT_EQ(plan->report.op, "Gather");
  EXPECT_EQ(plan->report.input, "indices");
  EXPECT_EQ(plan->report.indices_shape, (Shape{5}));
  EXPECT_FALSE(plan->report.tuples);
  EXPECT_EQ(plan->report.extents, std::vector<uint64_t>{10});
  EXPECT_EQ(plan->report.data_dims, std::vector<int64_t>{0});
}

TEST(PlanGatherTest, SmallCopyUnitPlansAreOneSelfCheckingPass) {
  // 32-byte rows, 5 indices: the check and report passes' work moves into the copy's invocations.
  StatusOr<OpPlan> plan = planFor({10, 8}, DataType::kFloat32, {5}, DataType::kInt32, 0, fakeDevice(1024, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "gather_rows_checked x1");
  ASSERT_EQ(plan->steps.size(), 1u);
  EXPECT_EQ(str(plan->steps[0]),
            "gather_rows_checked spec {4, 1, 16, 4, 2, 1}, bindings data {0, 320}, indices {0, 20}, output {0, 160}, "
            "status, push 128, groups 1, waits none");
  EXPECT_TRUE(plan->writes_own_status) << "no status reset before it";
  const std::vector<RowsStep> passes = rowSteps(*plan);
  ASSERT_EQ(passes.size(), 1u);
  // 5: l = 3, m = floor(2^32 * 3 / 5) + 1, shift 2.
  EXPECT_EQ(str(passes[0].params),
            "slot 0, row_units 2, segments_per_row 1 (0, 0), index_count 5 (2576980378, 2), axis_size 10, pass_rows 5, "
            "first 0/0, data rows [0, 10) at unit 0, output at unit 0 words 40, indices at word 0 "
            "from 0, outer stride 0, tuple (10)");
  // More than 16 index components (200 rows) keep the three passes.
  plan = planFor({10, 8}, DataType::kFloat32, {200}, DataType::kInt32, 0, fakeDevice(1 << 20, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, gather_rows x1");
  // One index and 16 KiB rows: 8 segments of 32 lanes x 4 units per row, 2 per workgroup, 4 groups.
  plan = planFor({10, 4096}, DataType::kFloat32, {1}, DataType::kInt32, 0, fakeDevice(1 << 20, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "gather_rows_checked x1");
  EXPECT_EQ(plan->steps[0].groups, 4u);
  // 16 indices over 24 workgroups (272-unit rows: 3 segments each, 2 per group; 16 x 24 > 256
  // components x groups): three passes again.
  plan = planFor({20, 1088}, DataType::kFloat32, {16}, DataType::kInt32, 0, fakeDevice(1 << 20, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, gather_rows x1");
  EXPECT_EQ(plan->steps[2].groups, 24u);
}

TEST(PlanGatherTest, DataAndOutputWindowsMultiplyIntoPasses) {
  // 100 rows of 32 bytes, 31 per window: output rows [0, 31) and [31, 40), each read from data rows
  // [0, 31) [31, 62) [62, 93) [93, 100): 8 passes. Offsets 36 and 12 force 4-byte units (m = 1 for 8).
  StatusOr<OpPlan> plan =
      planFor({100, 8}, DataType::kFloat32, {40}, DataType::kInt32, 0, fakeDevice(1024, 16), 36, 0, 12);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, gather_rows_4 x8");
  EXPECT_EQ(copyShape(*plan).unit_bytes, 4u);
  std::vector<RowsStep> passes = rowSteps(*plan);
  ASSERT_EQ(passes.size(), 8u);
  const std::string common =
      "slot 0, row_units 8, segments_per_row 1 (0, 0), index_count 40 (2576980378, 5), axis_size 100, ";
  const std::string tail = ", indices at word 0 from 0, outer stride 0, tuple (100)";
  EXPECT_EQ(str(passes[0].params),
            common + "pass_rows 31, first 0/0, data rows [0, 31) at unit 1, output at unit 3 words 251" + tail);
  EXPECT_EQ(str(passes[3].params),
            common + "pass_rows 31, first 0/0, data rows [93, 100) at unit 1, output at unit 3 words 251" + tail);
  EXPECT_EQ(str(passes[4].params),
            common + "pass_rows 9, first 0/31, data rows [0, 31) at unit 1, output at unit 3 words 75" + tail);
  const char* data_windows[] = {"{32, 996}", "{1024, 996}", "{2016, 996}", "{3008, 228}"};
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(str(passes[i].window(Role::kData)), data_windows[i % 4]) << i;
    EXPECT_EQ(str(passes[i].window(Role::kOutput)), i < 4 ? "{0, 1004}" : "{992, 300}") << i;
    EXPECT_EQ(str(passes[i].window(Role::kIndices)), "{0, 160}") << i;
    // 31 or 9 rows of 8 units: 4 whole rows per segment of 8 lanes x 4 units (8 or 3 segments), 8
    // segments per 64-wide workgroup.
    EXPECT_EQ(passes[i].step.groups, 1u) << i;
    // Only the first copy waits (for the checks): 4-byte units never share an output word.
    EXPECT_EQ(str(passes[i].step.wait_for), i == 0 ? "status" : "none") << i;
  }
  // Smaller workgroups: 32 invocations, 4 segments of 8 lanes x 2 units, 2 rows each.
  plan = planFor({100, 8}, DataType::kFloat32, {40}, DataType::kInt32, 0, fakeDevice(1024, 16, 32, 2), 36, 0, 12);
  ASSERT_TRUE(plan.ok());
  passes = rowSteps(*plan);
  ASSERT_EQ(passes.size(), 8u);
  EXPECT_EQ(passes[0].step.groups, 4u);  // 16 segments / 4
  EXPECT_EQ(passes[4].step.groups, 2u);  // 5 segments / 4
  ASSERT_EQ(checkSteps(*plan).size(), 1u);
  EXPECT_EQ(checkSteps(*plan)[0].step.groups, 1u);  // 40 indices: one segment of 32 lanes x 2
  EXPECT_EQ(reportSteps(*plan)[0].step.groups, 1u);
}

TEST(PlanGatherTest, SeveralIndexWindowsSplitPassesPerOuterSliceAndIndexChunk) {
  // 992 / 8 = 124 int64 indices per window: 300 indices take 3 check passes and 3 report passes.
  // Rows of 16 bytes, 62 per window: each of the 2 outer slices takes 5 chunks of at most 62 indices,
  // so 10 passes.
  StatusOr<OpPlan> plan =
      planFor({2, 7, 4}, DataType::kFloat32, {300}, DataType::kInt64, 1, fakeDevice(1024, 16), 0, 12, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x3, report_index x3, gather_short_rows x10");
  EXPECT_EQ(copyShape(*plan).index_words, 2u);
  EXPECT_EQ(copyShape(*plan).unit_bytes, 16u);
  const std::vector<CheckStep> checks = checkSteps(*plan), reports = reportSteps(*plan);
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(str(checks[0]),
            "slot 0, index_count 124, position_base 0, indices at word 3, tuple (7), window {0, 1004}, groups 1");
  EXPECT_EQ(str(checks[1]),
            "slot 0, index_count 124, position_base 124, indices at word 3, tuple (7), window {992, 1004}, groups 1");
  EXPECT_EQ(str(checks[2]),
            "slot 0, index_count 52, position_base 248, indices at word 3, tuple (7), window {1984, 428}, groups 1");
  ASSERT_EQ(reports.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(reports[i].step.push, checks[i].step.push) << i;
    EXPECT_EQ(str(reports[i].window(Role::kIndices)), str(checks[i].window(Role::kIndices))) << i;
    EXPECT_EQ(reports[i].step.groups, 1u) << i;
    EXPECT_EQ(str(reports[i].step.wait_for), i == 0 ? "status" : "none") << i;
  }
  const std::vector<RowsStep> passes = rowSteps(*plan);
  ASSERT_EQ(passes.size(), 10u);
  // 300: l = 9, m = floor(2^32 * 212 / 300) + 1, shift 8; dividing by 1 needs no constants.
  const std::string common =
      "slot 0, row_units 1, segments_per_row 1 (0, 0), index_count 300 (3035110223, 8), axis_size 7, ";
  EXPECT_EQ(str(passes[1].params), common +
                                       "pass_rows 62, first 0/62, data rows [0, 7) at unit 0, output at unit 0 words "
                                       "248, indices at word 3 from 62, outer stride 0, tuple (7)");
  EXPECT_EQ(str(passes[1].window(Role::kIndices)), "{496, 508}");
  EXPECT_EQ(str(passes[1].window(Role::kOutput)), "{992, 992}");
  EXPECT_EQ(str(passes[9].params), common +
                                       "pass_rows 52, first 1/248, data rows [7, 14) at unit 0, output at unit 0 "
                                       "words 208, indices at word 3 from 248, outer stride 0, tuple (7)");
  EXPECT_EQ(str(passes[9].window(Role::kIndices)), "{1984, 428}");
  EXPECT_EQ(str(passes[9].window(Role::kOutput)), "{8768, 832}");
  for (uint32_t i = 0; i < 10; ++i) {
    const uint32_t o = i / 5, n0 = 62 * (i % 5);
    EXPECT_EQ(passes[i].params.first_outer, o) << i;
    EXPECT_EQ(passes[i].params.first_index, n0) << i;
    EXPECT_EQ(passes[i].params.index_window_begin, n0) << i;
    EXPECT_EQ(str(passes[i].window(Role::kData)), o == 0 ? "{0, 112}" : "{112, 112}") << i;
    EXPECT_EQ(str(passes[i].step.wait_for), i == 0 ? "status" : "none") << i;
  }
}

TEST(PlanGatherTest, SubWordRowsShareOutputWordsAcrossTwoDataWindows) {
  // uint8 along the last axis: 1-byte rows, 992 data rows per window, 4 x 300 = 1200 rows in all.
  StatusOr<OpPlan> plan = planFor({4, 300}, DataType::kUInt8, {5}, DataType::kInt32, 1, fakeDevice(1024, 16), 4, 0, 12);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, gather_row_bytes x2");
  EXPECT_EQ(copyShape(*plan).unit_bytes, 1u);
  const std::vector<RowsStep> passes = rowSteps(*plan);
  ASSERT_EQ(passes.size(), 2u);
  const std::string common =
      "slot 0, row_units 1, segments_per_row 1 (0, 0), index_count 5 (2576980378, 2), axis_size 300, pass_rows 20, "
      "first 0/0, data rows ";
  const std::string tail =
      " at unit 4, output at unit 12 words 8, indices at word 0 from 0, outer stride 0, tuple (300)";
  EXPECT_EQ(str(passes[0].params), common + "[0, 992)" + tail);
  EXPECT_EQ(str(passes[1].params), common + "[992, 1200)" + tail);
  EXPECT_EQ(str(passes[0].window(Role::kData)), "{0, 996}");
  EXPECT_EQ(str(passes[1].window(Role::kData)), "{992, 212}");
  for (const RowsStep& pass : passes) {
    EXPECT_EQ(str(pass.window(Role::kOutput)), "{0, 32}");
    EXPECT_EQ(str(pass.window(Role::kIndices)), "{0, 20}");
    EXPECT_EQ(pass.step.groups, 1u);
  }
  // The second pass assembles words the first one also writes, so it waits for the output.
  EXPECT_EQ(str(passes[0].step.wait_for), "status");
  EXPECT_EQ(str(passes[1].step.wait_for), "output {0, 32}");
}

TEST(PlanGatherTest, UnitIsTheLargestPowerOfTwoDividingRowAndOffsets) {
  struct Case {
    uint64_t row, data_offset, output_offset;
    uint32_t unit;
  };
  const Case cases[] = {{48, 0, 0, 16}, {48, 4, 0, 4}, {48, 0, 36, 4}, {40, 0, 0, 8},  {40, 0, 12, 4},
                        {24, 0, 0, 8},  {12, 0, 0, 4}, {6, 0, 0, 2},   {6, 4, 12, 2},  {2, 36, 4, 2},
                        {3, 0, 0, 1},   {7, 12, 4, 1}, {16, 0, 0, 16}, {16, 36, 0, 4}, {32, 16, 32, 16}};
  for (const Case& c : cases) {
    GatherShape shape;
    shape.output_shape = {2, static_cast<int64_t>(c.row)};
    shape.outer = 1;
    shape.axis_size = 4;
    shape.index_count = 2;
    shape.row_bytes = c.row;
    StatusOr<OpPlan> plan = planGather(shape, DataType::kInt32, placed(c.data_offset, 4 * c.row), placed(0, 8),
                                       placed(c.output_offset, 2 * c.row), fakeDevice(4096, 64), fakeDevice(4096, 64));
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    EXPECT_EQ(copyShape(*plan).unit_bytes, c.unit)
        << "row " << c.row << " at " << c.data_offset << " -> " << c.output_offset;
    const std::vector<RowsStep> passes = rowSteps(*plan);
    ASSERT_EQ(passes.size(), 1u);
    EXPECT_EQ(passes[0].params.row_units, c.row / c.unit);
  }
}

TEST(PlanGatherTest, RowsAreCopiedInSegmentsOfLanesTimesItems) {
  // A GPU-like device: 64-wide workgroups, up to 32 lanes per segment of 4 items each.
  struct Case {
    int64_t floats;  // per row; 16-byte units unless an offset says otherwise
    uint64_t data_offset;
    uint32_t lanes;
    uint32_t segments_per_row;
    uint32_t rows_per_segment;  // whole rows sharing a segment when a row fits one
    uint32_t workgroup;         // 64, or a single group fitted to its segments' lanes (subgroup 4)
  };
  const Case cases[] = {{256, 0, 32, 1, 2, 64},   // 64 units: two rows per segment of 32 x 4
                        {1024, 0, 32, 2, 1, 64},  // 256 units: two segments of 128
                        {400, 0, 32, 1, 1, 64},   // 100 units: one partial segment
                        {1000, 0, 32, 2, 1, 64},  // 250 units: a full and a partial segment
                        {256, 4, 32, 2, 1, 64},   // 4-byte units: 256 of them
                        {12, 0, 2, 1, 2, 8},      // 3 units: 2 lanes (a power of two no larger than the row)
                        {4, 0, 1, 1, 4, 4}};      // 1 unit: 1 lane, 4 rows per segment
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.floats) + " floats per row at " + std::to_string(c.data_offset));
    StatusOr<OpPlan> plan = planFor({6, c.floats}, DataType::kFloat32, {5}, DataType::kInt32, 0,
                                    fakeDevice(1 << 20, 16, 64, 4), c.data_offset, 0, 0);
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    const CopyShape shape = copyShape(*plan);
    EXPECT_EQ(shape.items, 4u);
    EXPECT_EQ(shape.lanes, c.lanes);
    const std::vector<RowsStep> passes = rowSteps(*plan);
    ASSERT_EQ(passes.size(), 1u);
    EXPECT_EQ(passes[0].params.segments_per_row, c.segments_per_row);
    const uint64_t segments = c.rows_per_segment > 1 ? ceilDiv(5, c.rows_per_segment) : 5 * c.segments_per_row;
    EXPECT_EQ(passes[0].step.groups, ceilDiv(segments, uint64_t(64 / c.lanes)));
    EXPECT_EQ(shape.workgroup_size, c.workgroup);
    // 5 indices: one self-checking pass.
    EXPECT_EQ(kernels(*plan), std::string(kernelName(passes[0].step.kernel)) + " x1");
    EXPECT_TRUE(checkSteps(*plan).empty());
  }
}

TEST(PlanGatherTest, Int64UnitsPickTheWideModulesForSixteenAndEightByteUnits) {
  // Tuning::int64_units: copy passes of 16- and 8-byte units run the 64-bit-component modules;
  // 4-byte and sub-word units, and the small self-checking pass, keep theirs.
  FakeDevice device = fakeDevice(1 << 20, 16);
  device.int64_units = true;
  struct Case {
    DataType type;
    int64_t row_elements;
    const char* copy_kernel;
  };
  for (const Case& c :
       {Case{DataType::kFloat32, 8, "gather_rows_int64"}, Case{DataType::kInt64, 3, "gather_rows_int64_8"},
        Case{DataType::kFloat32, 3, "gather_rows_4"}, Case{DataType::kUInt8, 3, "gather_row_bytes"}}) {
    SCOPED_TRACE(std::string(c.copy_kernel));
    StatusOr<OpPlan> plan = planFor({10, c.row_elements}, c.type, {200}, DataType::kInt32, 0, device);
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    EXPECT_EQ(kernels(*plan), "check_indices x1, report_index x1, " + std::string(c.copy_kernel) + " x1");
  }
  StatusOr<OpPlan> small = planFor({10, 8}, DataType::kFloat32, {5}, DataType::kInt64, 0, device);
  ASSERT_TRUE(small.ok()) << small.status().toString();
  EXPECT_EQ(kernels(*small), "gather_rows_checked x1");
  // int64 indices at an 8-byte offset are checked one 64-bit component each; at offset 4, or int32
  // indices, word by word.
  for (uint64_t offset : {0u, 8u, 4u}) {
    StatusOr<OpPlan> int64 = planFor({10, 8}, DataType::kFloat32, {200}, DataType::kInt64, 0, device, 0, offset, 0);
    ASSERT_TRUE(int64.ok()) << int64.status().toString();
    EXPECT_EQ(kernels(*int64), std::string(offset % 8 == 0 ? "check_indices_int64" : "check_indices") +
                                   " x1, report_index x1, gather_rows_int64 x1")
        << "indices at offset " << offset;
  }
  // Without the feature the same 16-byte rows take the uvec4 module.
  device.int64_units = false;
  StatusOr<OpPlan> narrow = planFor({10, 8}, DataType::kFloat32, {200}, DataType::kInt32, 0, device);
  ASSERT_TRUE(narrow.ok()) << narrow.status().toString();
  EXPECT_EQ(kernels(*narrow), "check_indices x1, report_index x1, gather_rows x1");
}

TEST(PlanGatherTest, CpuDevicesStreamWholeSegmentsPerInvocation) {
  // the tuning table's choice for CPU drivers (src/plan/tuning_table.cpp): one lane per segment of 256 units.
  FakeDevice device = fakeDevice(1 << 20, 16, 256, 4);
  device.row_lanes = 1;
  device.row_items = 256;
  StatusOr<OpPlan> plan = planFor({10, 2048}, DataType::kFloat32, {7}, DataType::kInt64, 0, device, 0, 0, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  const CopyShape shape = copyShape(*plan);
  EXPECT_EQ(shape.lanes, 1u);
  EXPECT_EQ(shape.items, 256u);
  const std::vector<RowsStep> passes = rowSteps(*plan);
  ASSERT_EQ(passes.size(), 1u);
  EXPECT_EQ(passes[0].params.segments_per_row, 2u);  // 512 units
  EXPECT_EQ(passes[0].step.groups, 1u);              // 14 segments, 256 per workgroup
}

TEST(PlanGatherTest, CpuDevicesStreamManyShortRowsPerInvocation) {
  // 256-byte rows on a CPU driver: 16 whole rows fill a segment of 256 units, so one invocation
  // streams 16 rows, not one (a segment per row cost lavapipe 2.3x a copy of the same bytes).
  FakeDevice device = fakeDevice(1 << 30, 16, 256, 4);
  device.row_lanes = 1;
  device.row_items = 256;
  StatusOr<OpPlan> plan = planFor({64, 4096, 64}, DataType::kFloat32, {1000}, DataType::kInt64, 1, device, 0, 0, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  const std::vector<RowsStep> passes = rowSteps(*plan);
  ASSERT_EQ(passes.size(), 1u);
  EXPECT_EQ(passes[0].params.row_units, 16u);
  EXPECT_EQ(passes[0].params.segments_per_row, 1u);
  EXPECT_EQ(passes[0].step.groups, 16u);  // 64000 rows, 4000 segments, 256 per workgroup
}

// ---------------------------------------------------------------------------------------------
// Errors and empty outputs

TEST(PlanGatherTest, RowLargerThanAWindowIsUnsupported) {
  StatusOr<OpPlan> plan = planFor({2, 250}, DataType::kFloat32, {1}, DataType::kInt32, 0, fakeDevice(1024, 16));
  expectError(plan.status(), StatusCode::kUnsupported,
              "Gather: one slice after the axis is 1000 bytes, more than this device can bind at once "
              "(maxStorageBufferRange 1024)");
  // A 992-byte slice fits, one row per window: 2 output rows x 3 data rows = 6 passes.
  plan = planFor({3, 248}, DataType::kFloat32, {2}, DataType::kInt32, 0, fakeDevice(1024, 16), 12, 0, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  ASSERT_EQ(rowSteps(*plan).size(), 6u);
  for (const RowsStep& pass : rowSteps(*plan)) EXPECT_EQ(pass.window(Role::kData).size, 1004u);
  // Alignment 256: capacity 1024 - 512 = 512.
  plan = planFor({2, 129}, DataType::kFloat32, {1}, DataType::kInt64, 0, fakeDevice(1024, 256));
  EXPECT_EQ(plan.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(plan.status().message().find("one slice after the axis is 516 bytes"), std::string::npos)
      << plan.status().message();
  EXPECT_TRUE(planFor({2, 128}, DataType::kFloat32, {1}, DataType::kInt64, 0, fakeDevice(1024, 256)).ok());
}

// A sub-word slice of 1 GiB or more fits one window of a device with a 4 GiB range but exceeds the
// kernels' 2^30 units per dispatch: the error names that limit, not the binding range.
TEST(PlanGatherTest, SubWordSliceThatFitsAWindowIsNotBlamedOnTheBindingRange) {
  const FakeDevice device = fakeDevice(0xFFFFFFFFull, 16);  // capacity 4294967248
  StatusOr<OpPlan> plan = planFor({2, 3221225473}, DataType::kUInt8, {1}, DataType::kInt32, 0, device);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(plan.status().message(),
            "Gather: one slice after the axis is 3221225473 bytes, more than the 1073741824 units of 1 bytes "
            "one vkindex dispatch moves");
}

TEST(PlanGatherTest, DeviceTooSmallForOneIndexIsUnsupported) {
  expectError(planFor({4}, DataType::kFloat32, {1}, DataType::kInt32, 0, fakeDevice(32, 16)).status(),
              StatusCode::kUnsupported, "Gather: this device's storage-buffer bindings are too small");
  // 48 - 32 = 16 bytes: two int64 indices per window, so index chunks [0, 2) and [2, 3).
  StatusOr<OpPlan> plan = planFor({4}, DataType::kFloat32, {3}, DataType::kInt64, 0, fakeDevice(48, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x2, report_index x2, gather_short_rows_4 x2");
}

TEST(PlanGatherTest, CountsBeyond32BitsAreUnsupported) {
  const FakeDevice device = fakeDevice(uint64_t(1) << 27, 16);
  GatherShape shape;
  shape.outer = 1;
  shape.axis_size = 4;
  shape.index_count = 0xFFFFFFFFull;
  shape.row_bytes = 4;
  const Placement none = placed(0, 0);
  expectError(planGather(shape, DataType::kInt32, none, none, none, device, device).status(), StatusCode::kUnsupported,
              "Gather: 4294967295 index tuples, more than 2^32-2, are not supported");
  shape.index_count = 1;
  shape.axis_size = uint64_t(1) << 32;
  expectError(planGather(shape, DataType::kInt32, none, none, none, device, device).status(), StatusCode::kUnsupported,
              "Gather: the indexed dims [4294967296] of input 'data' address more than 2^32-1 rows, which is not "
              "supported");
  const std::string slices = "Gather: more than 2^32-1 slices (outer dims x indexed dims) are not supported";
  shape.outer = uint64_t(1) << 16;
  shape.axis_size = uint64_t(1) << 16;  // 2^32 data rows
  expectError(planGather(shape, DataType::kInt32, none, placed(0, 4), none, device, device).status(),
              StatusCode::kUnsupported, slices);
  shape.outer = uint64_t(1) << 17;
  shape.axis_size = 1;
  shape.index_count = uint64_t(1) << 15;  // 2^32 output rows
  expectError(planGather(shape, DataType::kInt32, none, placed(0, uint64_t(4) << 15), none, device, device).status(),
              StatusCode::kUnsupported, slices);
}

TEST(PlanGatherTest, MaximalIndexCountIsCheckedInWindows) {
  // 2^32 - 2 indices, empty rows: check passes only, (2^27 - 32) / 4 = 2^25 - 8 indices each.
  GatherShape shape;
  shape.output_shape = {0xFFFFFFFEll, 0};
  shape.outer = 1;
  shape.axis_size = 3;
  shape.index_count = 0xFFFFFFFEull;
  StatusOr<OpPlan> plan =
      planGather(shape, DataType::kInt32, placed(0, 0), placed(0, 4 * shape.index_count), placed(0, 0),
                 fakeDevice(uint64_t(1) << 27, 16), fakeDevice(uint64_t(1) << 27, 16));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernels(*plan), "check_indices x129, report_index x129");
  const std::vector<CheckStep> checks = checkSteps(*plan);
  ASSERT_EQ(checks.size(), 129u);
  EXPECT_EQ(checks[1].params.position_base, (1u << 25) - 8);
  EXPECT_EQ(str(checks.back()),
            "slot 0, index_count 1022, position_base 4294966272, indices at word 0, tuple (3), "
            "window {17179865088, 4088}, groups 4");
  EXPECT_EQ(str(reportSteps(*plan).back()),
            "slot 0, index_count 1022, position_base 4294966272, indices at word 0, "
            "tuple (3), window {17179865088, 4088}, groups 1");
}

TEST(PlanGatherTest, EmptyOutputsHaveNoCopyPassesButIndicesAreStillChecked) {
  struct Case {
    Shape data, indices;
    int64_t axis;
    size_t checks;
  };
  const Case cases[] = {{{0, 5}, {3}, 1, 1},     // no outer slices
                        {{5, 0}, {3}, 0, 1},     // empty rows
                        {{0, 1000}, {3}, 0, 1},  // empty axis (every index is bad); the row would not fit
                        {{0, 4}, {2, 3}, 0, 1},  // empty axis, non-empty output shape [2, 3, 4]
                        {{0, 5}, {300}, 1, 2},   // 300 int32 indices over windows of 248
                        {{5, 4}, {0}, 0, 0},     // no indices: nothing at all
                        {{5, 4}, {2, 0}, 1, 0}};
  for (const Case& c : cases) {
    SCOPED_TRACE(shapeString(c.data) + " " + shapeString(c.indices));
    StatusOr<OpPlan> plan =
        planFor(c.data, DataType::kFloat32, c.indices, DataType::kInt32, c.axis, fakeDevice(1024, 16));
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    EXPECT_TRUE(rowSteps(*plan).empty());
    const std::vector<CheckStep> checks = checkSteps(*plan);
    ASSERT_EQ(checks.size(), c.checks);
    EXPECT_EQ(reportSteps(*plan).size(), c.checks);
    EXPECT_EQ(plan->steps.size(), 2 * c.checks);
    uint64_t checked = 0;
    for (const CheckStep& check : checks) {
      EXPECT_EQ(check.params.position_base, checked);
      EXPECT_EQ(check.params.tuple_length, 1u);
      EXPECT_EQ(check.params.extents[0], static_cast<uint64_t>(c.data[static_cast<size_t>(c.axis)]));
      checked += check.params.index_count;
    }
    EXPECT_EQ(checked, *elementCount(c.indices));
  }
}

}  // namespace
}  // namespace vkindex::plan::test
