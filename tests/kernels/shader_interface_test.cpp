// The kernels' interface contract, without a device: every embedded module's storage-buffer bindings
// (read from its SPIR-V, the only place the count lives) are contiguous, and every step any planner
// emits binds exactly that many buffers and pushes exactly its kernel's block.
#include <gtest/gtest.h>

#include <vector>

#include "common/scatter_buckets_params.h"
#include "kernels/shader_registry.hpp"
#include "plan/fake_device.hpp"
#include "plan/gather_elements_plan.hpp"
#include "plan/gather_nd_plan.hpp"
#include "plan/gather_plan.hpp"
#include "plan/scatter_plan.hpp"

namespace vkindex::kernels {
namespace {

using plan::Kernel;
using plan::OpPlan;
using plan::Placement;
using plan::test::FakeDevice;

FakeDevice smallDevice() {
  FakeDevice device;
  device.max_storage_buffer_range = 4096;  // several windows for a few KiB
  device.min_storage_buffer_offset_alignment = 256;
  device.workgroup_size = 64;
  device.items_per_invocation = 4;
  device.max_workgroup_count = {65535, 65535, 65535};
  return device;
}

Placement placed(uint64_t offset, uint64_t bytes) { return {offset, bytes}; }

// Plans of every planner over shapes that produce every kernel and several windows.
std::vector<OpPlan> samplePlans() {
  const FakeDevice device = smallDevice();
  FakeDevice int64_device = device;  // its row gathers and writes move 64-bit components
  int64_device.int64_units = true;
  std::vector<OpPlan> plans;
  const auto addPlan = [&plans](const StatusOr<OpPlan>& plan) {
    EXPECT_TRUE(plan.ok()) << plan.status().toString();
    if (plan.ok()) plans.push_back(*plan);
  };
  // Row units: uint8 rows are sub-word, float32 4-byte, int64 GatherND rows 8-byte, complex128 16-byte.
  for (DataType type : {DataType::kUInt8, DataType::kFloat16, DataType::kFloat32, DataType::kInt32, DataType::kInt64,
                        DataType::kComplex128}) {
    const uint64_t e = elementSize(type);
    StatusOr<plan::GatherShape> gather = plan::inferGatherShape({600, 7}, type, {500}, DataType::kInt64, 0);
    EXPECT_TRUE(gather.ok());
    StatusOr<OpPlan> gather_plan = plan::planGather(*gather, DataType::kInt64, placed(4, 600 * 7 * e),
                                                    placed(0, 500 * 8), placed(8, 500 * 7 * e), device, device);
    EXPECT_TRUE(gather_plan.ok()) << gather_plan.status().toString();
    if (gather_plan.ok()) plans.push_back(*gather_plan);
    // The same at offset 0 on a device whose row gathers move 64-bit components (int64's 8-byte and
    // complex128's 16-byte units).
    addPlan(plan::planGather(*gather, DataType::kInt64, placed(0, 600 * 7 * e), placed(0, 500 * 8),
                             placed(0, 500 * 7 * e), int64_device, int64_device));
    // Small enough for one self-checking pass (copy units: all but uint8's 3-byte rows).
    FakeDevice roomy = device;
    roomy.max_storage_buffer_range = 1 << 20;
    StatusOr<plan::GatherShape> small = plan::inferGatherShape({6, 3}, type, {2}, DataType::kInt64, 0);
    EXPECT_TRUE(small.ok());
    addPlan(plan::planGather(*small, DataType::kInt64, placed(0, 6 * 3 * e), placed(0, 2 * 8), placed(0, 2 * 3 * e),
                             roomy, roomy));
    // The same on each copy path's self-checking module, with one lane per segment of 8 units: rows of 3
    // elements are short rows, rows of 42 (16-, 8- and 4-byte units by type) take segments, one-element rows along a
    // middle axis go by columns.
    FakeDevice roomy_lanes = roomy;
    roomy_lanes.row_lanes = 1;
    roomy_lanes.row_items = 8;
    addPlan(plan::planGather(*small, DataType::kInt64, placed(0, 6 * 3 * e), placed(0, 2 * 8), placed(0, 2 * 3 * e),
                             roomy_lanes, roomy_lanes));
    StatusOr<plan::GatherShape> small_long = plan::inferGatherShape({6, 42}, type, {2}, DataType::kInt64, 0);
    EXPECT_TRUE(small_long.ok());
    addPlan(plan::planGather(*small_long, DataType::kInt64, placed(0, 6 * 42 * e), placed(0, 2 * 8),
                             placed(0, 2 * 42 * e), roomy_lanes, roomy_lanes));
    StatusOr<plan::GatherShape> small_columns = plan::inferGatherShape({8, 20, 1}, type, {2}, DataType::kInt64, 1);
    EXPECT_TRUE(small_columns.ok());
    addPlan(plan::planGather(*small_columns, DataType::kInt64, placed(0, 8 * 20 * e), placed(0, 2 * 8),
                             placed(0, 8 * 2 * e), roomy_lanes, roomy_lanes));

    StatusOr<plan::GatherNDShape> nd = plan::inferGatherNDShape({4, 30, 20, 3}, type, {4, 50, 2}, DataType::kInt32, 1);
    EXPECT_TRUE(nd.ok());
    StatusOr<OpPlan> nd_plan = plan::planGatherND(*nd, DataType::kInt32, placed(0, 4 * 30 * 20 * 3 * e),
                                                  placed(4, 4 * 50 * 2 * 4), placed(0, 4 * 50 * 3 * e), device, device);
    EXPECT_TRUE(nd_plan.ok()) << nd_plan.status().toString();
    if (nd_plan.ok()) plans.push_back(*nd_plan);
    // With one lane per segment of 8 units (the CPU drivers' layout), plain and in 64-bit components: the
    // GatherND's rows of 3 elements are shorter than a segment (gather_short_rows*), and a Gather of
    // one-element rows along a middle axis goes by columns (gather_columns*).
    StatusOr<plan::GatherShape> columns = plan::inferGatherShape({8, 20, 1}, type, {20}, DataType::kInt64, 1);
    EXPECT_TRUE(columns.ok());
    for (FakeDevice lane_device : {device, int64_device}) {
      lane_device.row_lanes = 1;
      lane_device.row_items = 8;
      addPlan(plan::planGatherND(*nd, DataType::kInt32, placed(0, 4 * 30 * 20 * 3 * e), placed(4, 4 * 50 * 2 * 4),
                                 placed(0, 4 * 50 * 3 * e), lane_device, lane_device));
      addPlan(plan::planGather(*columns, DataType::kInt64, placed(0, 8 * 20 * e), placed(0, 20 * 8),
                               placed(0, 8 * 20 * e), lane_device, lane_device));
    }

    StatusOr<plan::GatherElementsShape> elements =
        plan::inferGatherElementsShape({40, 30}, type, {50, 20}, DataType::kInt64, 0);
    EXPECT_TRUE(elements.ok());
    // Output at byte 4 (4-byte units, or sub-word) and at 0 (the element's own width).
    for (uint64_t output_offset : {4, 0}) {
      addPlan(plan::planGatherElements(*elements, DataType::kInt64, placed(0, 40 * 30 * e), placed(4, 50 * 20 * 8),
                                       placed(output_offset, 50 * 20 * e), device, device));
    }
    // none, add, mul and max: winner tables for ScatterND none (and ScatterElements none of few lines), the move-only
    // walks, the float32-add, 4-byte max and int32 add and mul walks, the integer walks (uint8 and int64), the plain
    // walks (float16 max), the half-add and float64-add walks (float16 and complex128 add) and the soft-float
    // walks for float16 mul, float32 mul and complex128 mul; below the walk threshold, the fold by owner's passes
    // with the same arithmetic variants.
    for (Reduction reduction : {Reduction::kNone, Reduction::kAdd, Reduction::kMul, Reduction::kMax}) {
      if (reduction == Reduction::kMax && type == DataType::kComplex128) continue;  // complex has no order
      StatusOr<plan::ScatterShape> scatter =
          plan::inferScatterElementsShape({10, 12}, type, {6, 5}, DataType::kInt64, {6, 5}, type, 0, reduction);
      EXPECT_TRUE(scatter.ok()) << scatter.status().toString();
      if (scatter.ok()) {
        addPlan(plan::planScatter(*scatter, placed(0, 10 * 12 * e), placed(4, 6 * 5 * 8), placed(0, 6 * 5 * e),
                                  placed(4, 10 * 12 * e), false, device, device));
        // Its 5 lines below the device's walk threshold: none goes through a winner table, reductions fold
        // by owner.
        FakeDevice few_lines = device;
        few_lines.min_walk_lines = 6;
        addPlan(plan::planScatter(*scatter, placed(0, 10 * 12 * e), placed(4, 6 * 5 * 8), placed(0, 6 * 5 * e),
                                  placed(4, 10 * 12 * e), false, few_lines, few_lines));
        // The same table claimed by store, then fixup (Tuning::claim_by_store).
        FakeDevice claims_by_store = few_lines;
        claims_by_store.claim_by_store = true;
        addPlan(plan::planScatter(*scatter, placed(0, 10 * 12 * e), placed(4, 6 * 5 * 8), placed(0, 6 * 5 * e),
                                  placed(4, 10 * 12 * e), false, claims_by_store, claims_by_store));
        // A vector with more updates than a light bucket holds: the heavy sort's passes too (their scratch
        // needs more than the small device's 4 KiB bindings).
        FakeDevice heavy_fold = few_lines;
        heavy_fold.max_storage_buffer_range = 1 << 20;
        constexpr int64_t updates = VKINDEX_MAX_BUCKET + 1;
        StatusOr<plan::ScatterShape> vector =
            plan::inferScatterElementsShape({40}, type, {updates}, DataType::kInt64, {updates}, type, 0, reduction);
        EXPECT_TRUE(vector.ok()) << vector.status().toString();
        if (vector.ok()) {
          addPlan(plan::planScatter(*vector, placed(0, 40 * e), placed(4, updates * 8), placed(0, updates * e),
                                    placed(4, 40 * e), false, heavy_fold, heavy_fold));
        }
        // float32 add on a device whose adder rounds to nearest even: the walk's and the fold's
        // *_float32_add_native modules.
        if (reduction == Reduction::kAdd && type == DataType::kFloat32) {
          for (FakeDevice native : {device, few_lines}) {
            native.native_float32_add = true;
            addPlan(plan::planScatter(*scatter, placed(0, 10 * 12 * e), placed(4, 6 * 5 * 8), placed(0, 6 * 5 * e),
                                      placed(4, 10 * 12 * e), false, native, native));
          }
        }
      }
      // 17 tuples in place: more index components than one self-checking walk reads (its modules are
      // planned below).
      StatusOr<plan::ScatterShape> scatter_nd =
          plan::inferScatterNDShape({12, 5}, type, {17, 1}, DataType::kInt32, {17, 5}, type, reduction);
      EXPECT_TRUE(scatter_nd.ok()) << scatter_nd.status().toString();
      if (scatter_nd.ok()) {
        addPlan(plan::planScatter(*scatter_nd, placed(0, 12 * 5 * e), placed(0, 17 * 4), placed(0, 17 * 5 * e),
                                  placed(0, 12 * 5 * e), true, device, device));
        // Slices of 5 elements below the walk threshold: reductions fold by owner.
        FakeDevice narrow = device;
        narrow.min_walk_lines = 6;
        addPlan(plan::planScatter(*scatter_nd, placed(0, 12 * 5 * e), placed(0, 17 * 4), placed(0, 17 * 5 * e),
                                  placed(0, 12 * 5 * e), true, narrow, narrow));
        FakeDevice claims_by_store = device;
        claims_by_store.claim_by_store = true;
        addPlan(plan::planScatter(*scatter_nd, placed(0, 12 * 5 * e), placed(0, 17 * 4), placed(0, 17 * 5 * e),
                                  placed(0, 12 * 5 * e), true, claims_by_store, claims_by_store));
        if (reduction == Reduction::kAdd && type == DataType::kFloat32) {
          FakeDevice native = device;
          native.native_float32_add = true;
          addPlan(plan::planScatter(*scatter_nd, placed(0, 12 * 5 * e), placed(0, 17 * 4), placed(0, 17 * 5 * e),
                                    placed(0, 12 * 5 * e), true, native, native));
        }
        // The row writes in 64-bit components (int64's 8-byte and complex128's 16-byte units).
        addPlan(plan::planScatter(*scatter_nd, placed(0, 12 * 5 * e), placed(0, 17 * 4), placed(0, 17 * 5 * e),
                                  placed(0, 12 * 5 * e), true, int64_device, int64_device));
      }
      // A few updates in place: reduction none in one self-checking walk.
      StatusOr<plan::ScatterShape> few =
          plan::inferScatterElementsShape({10, 12}, type, {2, 3}, DataType::kInt64, {2, 3}, type, 1, reduction);
      EXPECT_TRUE(few.ok()) << few.status().toString();
      if (few.ok()) {
        addPlan(plan::planScatter(*few, placed(0, 10 * 12 * e), placed(0, 6 * 8), placed(0, 6 * e),
                                  placed(0, 10 * 12 * e), true, device, device));
      }
      // One tuple walks whatever the reduction (self-checking in place).
      StatusOr<plan::ScatterShape> one_row =
          plan::inferScatterNDShape({12, 5}, type, {1, 1}, DataType::kInt32, {1, 5}, type, reduction);
      EXPECT_TRUE(one_row.ok()) << one_row.status().toString();
      if (one_row.ok()) {
        addPlan(plan::planScatter(*one_row, placed(0, 12 * 5 * e), placed(0, 4), placed(0, 5 * e),
                                  placed(0, 12 * 5 * e), true, device, device));
        addPlan(plan::planScatter(*one_row, placed(0, 12 * 5 * e), placed(0, 4), placed(0, 5 * e),
                                  placed(0, 12 * 5 * e), false, device, device));
      }
    }
  }
  // A large out-of-place scatter: its data copy's 16-byte bulk, then the 3-byte tail.
  FakeDevice roomy = device;
  roomy.max_storage_buffer_range = 1 << 20;
  StatusOr<plan::ScatterShape> large = plan::inferScatterNDShape({65539}, DataType::kUInt8, {2, 1}, DataType::kInt32,
                                                                 {2}, DataType::kUInt8, Reduction::kNone);
  EXPECT_TRUE(large.ok());
  if (large.ok()) {
    addPlan(plan::planScatter(*large, placed(0, 65539), placed(0, 8), placed(0, 2), placed(65552, 65539), false, roomy,
                              roomy));
    roomy.int64_units = true;  // the bulk in 64-bit components
    addPlan(plan::planScatter(*large, placed(0, 65539), placed(0, 8), placed(0, 2), placed(65552, 65539), false, roomy,
                              roomy));
  }
  // Empty data with an axis of 2^33: the check alone, in 64 bits (check_indices_wide).
  StatusOr<plan::GatherShape> long_axis =
      plan::inferGatherShape({0, int64_t(1) << 33}, DataType::kFloat32, {3}, DataType::kInt64, 1);
  EXPECT_TRUE(long_axis.ok());
  if (long_axis.ok()) {
    addPlan(plan::planGather(*long_axis, DataType::kInt64, placed(0, 0), placed(0, 24), placed(0, 0), device, device));
  }
  // More tuples than data rows: the winner table is zeroed whole (clear_words), not by the tuples; slices
  // of 5 floats are written per tuple, slices of 2 per data element (scatter_nd_write_by_target). Out of
  // place: in place, 4 tuples would be one self-checking walk.
  for (const int64_t slice : {5, 2}) {
    StatusOr<plan::ScatterShape> crowded = plan::inferScatterNDShape(
        {3, slice}, DataType::kFloat32, {4, 1}, DataType::kInt32, {4, slice}, DataType::kFloat32, Reduction::kNone);
    EXPECT_TRUE(crowded.ok());
    if (crowded.ok()) {
      const uint64_t row_bytes = 4 * static_cast<uint64_t>(slice);
      addPlan(plan::planScatter(*crowded, placed(0, 3 * row_bytes), placed(0, 16), placed(0, 4 * row_bytes),
                                placed(0, 3 * row_bytes), false, device, device));
    }
  }
  return plans;
}

TEST(ShaderInterfaceTest, EveryModuleBindsContiguousStorageBuffers) {
  for (uint32_t id = 0; id < static_cast<uint32_t>(Kernel::kCount); ++id) {
    const ShaderInfo& info = shaderInfo(static_cast<Kernel>(id));
    SCOPED_TRACE(info.name);
    bool contiguous = false;
    EXPECT_EQ(spirvBindingCount(info.words, info.word_count, &contiguous), info.binding_count);
    EXPECT_TRUE(contiguous);
    EXPECT_GE(info.binding_count, 1u);
    EXPECT_LE(info.push_bytes, 128u) << "the 128-byte push budget every device guarantees";
  }
}

TEST(ShaderInterfaceTest, EveryPlannedStepMatchesItsKernel) {
  std::vector<bool> seen(static_cast<size_t>(Kernel::kCount));
  for (const OpPlan& plan : samplePlans()) {
    for (const plan::Step& step : plan.steps) {
      const ShaderInfo& info = shaderInfo(step.kernel);
      SCOPED_TRACE(info.name);
      EXPECT_EQ(step.bindings.size(), info.binding_count);
      EXPECT_EQ(step.push_bytes, info.push_bytes);
      seen[static_cast<size_t>(step.kernel)] = true;
    }
  }
  for (Kernel kernel : {Kernel::kCheckIndices,
                        Kernel::kCheckIndicesInt64,
                        Kernel::kCheckIndicesWide,
                        Kernel::kReportIndex,
                        Kernel::kGatherRows,
                        Kernel::kGatherRows8,
                        Kernel::kGatherRows4,
                        Kernel::kGatherRowBytes,
                        Kernel::kGatherRowsChecked,
                        Kernel::kGatherRowsChecked8,
                        Kernel::kGatherRowsChecked4,
                        Kernel::kGatherShortRowsChecked,
                        Kernel::kGatherShortRowsChecked8,
                        Kernel::kGatherShortRowsChecked4,
                        Kernel::kGatherColumnsChecked,
                        Kernel::kGatherColumnsChecked8,
                        Kernel::kGatherColumnsChecked4,
                        Kernel::kGatherRowsInt64,
                        Kernel::kGatherRowsInt64_8,
                        Kernel::kGatherShortRows,
                        Kernel::kGatherShortRows8,
                        Kernel::kGatherShortRows4,
                        Kernel::kGatherShortRowsInt64,
                        Kernel::kGatherShortRowsInt64_8,
                        Kernel::kGatherColumns,
                        Kernel::kGatherColumns8,
                        Kernel::kGatherColumns4,
                        Kernel::kGatherColumnsInt64,
                        Kernel::kGatherColumnsInt64_8,
                        Kernel::kGatherElements,
                        Kernel::kGatherElements8,
                        Kernel::kGatherElements4,
                        Kernel::kGatherElementBytes,
                        Kernel::kScatterElements,
                        Kernel::kScatterND,
                        Kernel::kScatterElementsFloat32,
                        Kernel::kScatterElementsFloat64,
                        Kernel::kScatterNDFloat32,
                        Kernel::kScatterElementsFloat32Add,
                        Kernel::kScatterNDFloat32Add,
                        Kernel::kScatterElementsFloat32AddNative,
                        Kernel::kScatterNDFloat32AddNative,
                        Kernel::kScatterElementsHalfAdd,
                        Kernel::kScatterNDHalfAdd,
                        Kernel::kScatterElementsFloat64Add,
                        Kernel::kScatterNDFloat64Add,
                        Kernel::kScatterElementsOrder32,
                        Kernel::kScatterNDOrder32,
                        Kernel::kScatterElementsInt32,
                        Kernel::kScatterNDInt32,
                        Kernel::kScatterElementsIntegers,
                        Kernel::kScatterNDIntegers,
                        Kernel::kScatterNDFloat64,
                        Kernel::kScatterElementsMove,
                        Kernel::kScatterNDMove,
                        Kernel::kScatterNDMoveChecked,
                        Kernel::kScatterElementsMoveChecked,
                        Kernel::kScatterElementsClaim,
                        Kernel::kScatterElementsWrite,
                        Kernel::kScatterElementsWriteByTarget,
                        Kernel::kScatterNDClaim,
                        Kernel::kScatterElementsClearClaims,
                        Kernel::kScatterNDClearClaims,
                        Kernel::kScatterElementsClaimStore,
                        Kernel::kScatterElementsClaimFixup,
                        Kernel::kScatterNDClaimStore,
                        Kernel::kScatterNDClaimFixup,
                        Kernel::kScatterNDWrite,
                        Kernel::kScatterNDWriteByTarget,
                        Kernel::kScatterElementsAtomic,
                        Kernel::kScatterNDAtomic,
                        Kernel::kScatterNDRows,
                        Kernel::kScatterNDRowsChecked,
                        Kernel::kScatterNDRowsChecked8,
                        Kernel::kScatterNDRowsChecked4,
                        Kernel::kScatterNDRows8,
                        Kernel::kScatterNDRows4,
                        Kernel::kScatterNDRowsInt64,
                        Kernel::kScatterNDRowsInt64_8,
                        Kernel::kScatterElementsLocate,
                        Kernel::kScatterNDLocate,
                        Kernel::kBucketCount,
                        Kernel::kBucketAlloc,
                        Kernel::kBucketFill,
                        Kernel::kHeavyPlan,
                        Kernel::kHeavyScan,
                        Kernel::kHeavySortCount,
                        Kernel::kHeavySortScatter,
                        Kernel::kBucketSort,
                        Kernel::kScatterFold,
                        Kernel::kScatterFoldFloat32,
                        Kernel::kScatterFoldFloat64,
                        Kernel::kScatterFoldFloat32Add,
                        Kernel::kScatterFoldFloat32AddNative,
                        Kernel::kScatterFoldHalfAdd,
                        Kernel::kScatterFoldFloat64Add,
                        Kernel::kScatterFoldOrder32,
                        Kernel::kScatterFoldInt32,
                        Kernel::kScatterFoldIntegers,
                        Kernel::kCopyWords,
                        Kernel::kCopyWords16,
                        Kernel::kCopyWordsInt64,
                        Kernel::kClearWords}) {
    EXPECT_TRUE(seen[static_cast<size_t>(kernel)]) << shaderInfo(kernel).name << " was never planned";
  }
}

TEST(ShaderInterfaceTest, BindingCountReadsDecorationsAndStopsAtMalformedInstructions) {
  // Header, then OpDecorate %10 Binding 0, OpDecorate %11 Binding 2, OpDecorate %12 DescriptorSet 0.
  std::vector<uint32_t> words = {0x07230203, 0x00010300,       0,  20, 0, (4u << 16) | 71u, 10, 33,
                                 0,          (4u << 16) | 71u, 11, 33, 2, (4u << 16) | 71u, 12, 34,
                                 0};
  bool contiguous = true;
  EXPECT_EQ(spirvBindingCount(words.data(), words.size(), &contiguous), 3u);
  EXPECT_FALSE(contiguous) << "binding 1 is missing";
  words[9] = 0;  // a zero-length instruction: stop instead of looping or reading past the end
  EXPECT_EQ(spirvBindingCount(words.data(), words.size(), &contiguous), 1u);
  words[9] = (60u << 16) | 71u;  // longer than the module
  EXPECT_EQ(spirvBindingCount(words.data(), words.size(), &contiguous), 1u);
}

TEST(ShaderInterfaceTest, SpecIdMaskReadsSpecIdDecorationsOnly) {
  // Header, then OpDecorate %10 SpecId 0, OpDecorate %11 SpecId 5, OpDecorate %12 Binding 3,
  // OpDecorate %13 SpecId 40 (beyond the mask).
  std::vector<uint32_t> words = {0x07230203, 0x00010300,       0,  20, 0, (4u << 16) | 71u, 10, 1,
                                 0,          (4u << 16) | 71u, 11, 1,  5, (4u << 16) | 71u, 12, 33,
                                 3,          (4u << 16) | 71u, 13, 1,  40};
  EXPECT_EQ(spirvSpecIdMask(words.data(), words.size()), 0b100001u);
  words[9] = 0;  // a zero-length instruction: stop there
  EXPECT_EQ(spirvSpecIdMask(words.data(), words.size()), 0b1u);
}

// Pipelines are keyed by the constants a module declares: the planner's values in other slots must not
// reach the key, and the declared ones must. Checked on the embedded modules themselves.
TEST(ShaderInterfaceTest, DeclaredSpecValuesKeepOnlyWhatTheModuleDeclares) {
  const SpecValues planned = {256, 2, 8, 3, 6, 1};
  // bucket_count reads neither indices nor elements: only its workgroup size is specialized.
  EXPECT_EQ(declaredSpecValues(shaderInfo(Kernel::kBucketCount), planned), (SpecValues{256, 0, 0, 0, 0, 0}));
  // bucket_alloc adds GROUP_RESERVE (id 5), the GPUs' per-workgroup cursor reservation.
  EXPECT_EQ(declaredSpecValues(shaderInfo(Kernel::kBucketAlloc), planned), (SpecValues{256, 0, 0, 0, 0, 1}));
  // The scatter fold combines elements (size, reduction, kind) and may stage heavy runs (STAGED_RUNS,
  // id 5), but reads no indices.
  EXPECT_EQ(declaredSpecValues(shaderInfo(Kernel::kScatterFold), planned), (SpecValues{256, 0, 8, 3, 6, 1}));
  // gather_rows moves whole units (its width is the module), so only id 2 is dropped.
  EXPECT_EQ(declaredSpecValues(shaderInfo(Kernel::kGatherRows), planned), (SpecValues{256, 2, 0, 3, 6, 1}));
  // Every module takes its workgroup size from id 0, except report_index, one fixed invocation.
  for (uint32_t id = 0; id < static_cast<uint32_t>(Kernel::kCount); ++id) {
    const ShaderInfo& info = shaderInfo(static_cast<Kernel>(id));
    SCOPED_TRACE(info.name);
    EXPECT_EQ(info.spec_ids & 1u, static_cast<Kernel>(id) == Kernel::kReportIndex ? 0u : 1u);
    EXPECT_EQ(info.spec_ids >> kSpecCount, 0u) << "a SpecId the planner never fills";
  }
}

}  // namespace
}  // namespace vkindex::kernels
