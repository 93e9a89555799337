// ScatterElements reductions onto a few heavy targets through the fold by owner, on contexts tuned as a
// GPU that never walks: runs reduced or staged by workgroups must keep index order, and float32 adds
// take the device's adder only where it is exact. Against the CPU reference, byte-exact, in every form
// (support/scatter_forms.hpp).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/context_impl.hpp"
#include "gpu/scatter/scatter_elements_cases.hpp"
#include "support/reduction_values.hpp"
#include "support/typed_tensors.hpp"

namespace vkindex::test {
namespace {

// Contexts tuned as a GPU that never walks a reduction, so that heavy runs fold by owner, each in a
// workgroup where a call has at most 1024 (Tuning::most_workgroup_runs): 256- and 32-wide groups.
void makeHeavyRunContexts(std::unique_ptr<Context>& folding, std::unique_ptr<Context>& narrow) {
  ContextOptions options;
  options.overrides.gpu_tuning = true;
  options.overrides.min_walk_lines = UINT64_MAX;
  VKINDEX_ASSERT_OK_AND_ASSIGN(folding, makeTestContext(options));
  options.overrides.workgroup_size = 32;
  VKINDEX_ASSERT_OK_AND_ASSIGN(narrow, makeTestContext(options));
  ASSERT_EQ(tuningOf(*folding).most_workgroup_runs, 1024u);
}

// Max and min onto a few targets through the fold by owner, on a context tuned as a GPU that never
// walks: a workgroup reduces each heavy run chunk by chunk (scatter_fold.comp's reduceRun), which must
// keep what index order keeps: of equal elements (+0 and -0) the earlier, no NaN update, a NaN target.
// Values of every kind, 20000 updates onto 6 targets (runs of about 3300, in chunks of a dozen or
// more), and runs of almost only NaNs (chunks without a winner), in 256- and 32-wide workgroups. And
// 2000 heavy targets of about 40 updates, more than the device's most_workgroup_runs (1024): those
// runs are walked, one invocation each, by the same passes.
TEST_F(ScatterElementsTest, HeavyMaxAndMinRunsReducedByWorkgroupsKeepIndexOrder) {
  std::unique_ptr<Context> folding, narrow;
  ASSERT_NO_FATAL_FAILURE(makeHeavyRunContexts(folding, narrow));
  Rng rng(0x4ea7);
  size_t n = 0;
  for (Context* ctx : {folding.get(), narrow.get()}) {
    for (const DataType dtype : {DataType::kFloat32, DataType::kFloat16, DataType::kBFloat16, DataType::kFloat64}) {
      for (const Reduction reduction : {Reduction::kMax, Reduction::kMin}) {
        SCOPED_TRACE(std::string(dataTypeName(dtype)) + " " + reductionName(reduction) + ", workgroup " +
                     std::to_string(tuningOf(*ctx).workgroup_size));
        ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
            *ctx,
            {reductionValues(rng, dtype, {6}), randomIndices(rng, DataType::kInt32, {20000}, 6),
             reductionValues(rng, dtype, {20000}), 0, reduction},
            alternating(n++)));
      }
    }
    // float32, 97% NaNs with payloads, the rest signed zeros and ties; one target a NaN.
    const uint32_t kPlusZero = 0x00000000u, kMinusZero = 0x80000000u, kOne = 0x3F800000u, kTwo = 0x40000000u;
    std::vector<uint32_t> updates(20000);
    for (uint32_t& bits : updates) {
      const uint32_t pick = static_cast<uint32_t>(rng() % 100);
      const uint32_t others[] = {kPlusZero, kMinusZero, kOne, kTwo};
      bits = pick < 97 ? (0x7F800001u + static_cast<uint32_t>(rng() % 0x7FFFFF)) | (pick % 2 ? 0x80000000u : 0u)
                       : others[pick % 4];
    }
    for (const Reduction reduction : {Reduction::kMax, Reduction::kMin}) {
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
          *ctx,
          {floatBitsTensor({6}, {kMinusZero, kPlusZero, 0x7FC00000u, kOne, kTwo, 0xFF800000u}),
           randomIndices(rng, DataType::kInt64, {20000}, 6), floatBitsTensor({20000}, updates), 0, reduction},
          alternating(n++)));
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
          *ctx,
          {reductionValues(rng, DataType::kFloat32, {2000}), randomIndices(rng, DataType::kInt32, {80000}, 2000),
           reductionValues(rng, DataType::kFloat32, {80000}), 0, reduction},
          alternating(n++)));
    }
  }
}

// Add and mul onto a few heavy targets through the fold by owner, on a context tuned as a GPU: a
// workgroup stages each heavy run's update elements in shared memory, 2048 words at a time (2048
// elements of up to 4 bytes, 1024 of 8, 512 of 16), for invocation 0 to fold in index order
// (scatter_fold.comp's stageChunk). Runs of about 6700 updates (chunks and a partial last one) and of
// 20000 (also two passes of the CPU drivers' 16384 steps, a chunk cut by each pass), every fold module
// (float32, complex64 and float16 add; float64 and complex128 add; float32 and bfloat16 mul;
// complex128 mul; int32 mul; int8, uint16 and int64 add), with float adds whose result depends on
// the order, in 256- and 32-wide workgroups. And, in 256-wide ones, 2000 heavy targets of 40 updates,
// more than the device's most_workgroup_runs (1024): those runs are walked, one invocation each, by
// the same passes.
TEST_F(ScatterElementsTest, HeavyAddAndMulRunsStagedByWorkgroupsKeepIndexOrder) {
  std::unique_ptr<Context> folding, narrow;
  ASSERT_NO_FATAL_FAILURE(makeHeavyRunContexts(folding, narrow));
  // Float adds take updates whose sum depends on their order (orderSensitiveUpdates' blocks of four,
  // each onto one target in turn); the rest random values onto random targets.
  const auto blockIndices = [](int64_t updates, int64_t targets) {
    std::vector<int64_t> values;
    for (int64_t i = 0; i < updates; ++i) values.push_back((i / 4) % targets);
    return indexTensor(DataType::kInt32, {updates}, values);
  };
  struct Fold {
    DataType dtype;
    Reduction reduction;
    bool order_sensitive;
  };
  const Fold folds[] = {{DataType::kFloat32, Reduction::kAdd, true},    {DataType::kComplex64, Reduction::kAdd, true},
                        {DataType::kFloat16, Reduction::kAdd, true},    {DataType::kFloat64, Reduction::kAdd, true},
                        {DataType::kComplex128, Reduction::kAdd, true}, {DataType::kFloat32, Reduction::kMul, false},
                        {DataType::kBFloat16, Reduction::kMul, false},  {DataType::kComplex128, Reduction::kMul, false},
                        {DataType::kInt32, Reduction::kMul, false},     {DataType::kInt8, Reduction::kAdd, false},
                        {DataType::kUInt16, Reduction::kAdd, false},    {DataType::kInt64, Reduction::kAdd, false}};
  Rng rng(0x57a9e);
  size_t n = 0;
  for (Context* ctx : {folding.get(), narrow.get()}) {
    for (const Fold& fold : folds) {
      for (const int64_t targets : {6, 2, 2000}) {
        if (targets == 2000 && ctx != folding.get()) continue;  // walked: one width is enough
        const int64_t updates = targets == 2000 ? 80000 : 40000;
        SCOPED_TRACE(std::string(dataTypeName(fold.dtype)) + " " + reductionName(fold.reduction) + ", " +
                     std::to_string(targets) + " targets, workgroup " + std::to_string(tuningOf(*ctx).workgroup_size));
        const bool sensitive = fold.order_sensitive;
        const ScatterElementsCase c{
            sensitive ? smallExactValues(fold.dtype, {targets}) : reductionValues(rng, fold.dtype, {targets}),
            sensitive ? blockIndices(updates, targets) : randomIndices(rng, DataType::kInt32, {updates}, targets),
            sensitive ? orderSensitiveUpdates(rng, fold.dtype, {updates}) : reductionValues(rng, fold.dtype, {updates}),
            0, fold.reduction};
        if (sensitive) {
          ASSERT_TRUE(orderChangesTheResult(c.op(*ctx), c.inputs(), rng));
        }
        ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*ctx, c, alternating(n++)));
      }
    }
  }
  EXPECT_EQ(folding->validationMessageCount(), 0u) << folding->firstValidationMessage();
  EXPECT_EQ(narrow->validationMessageCount(), 0u) << narrow->firstValidationMessage();
}

// float32 add onto heavy targets staged by workgroups (a context tuned as a GPU), where the device's
// adder takes blocks of 16 steps at once (common/scatter_apply.glsl's foldRunWord) and a block with
// one inexact step goes again one step at a time. Each round of a run is two such blocks: one whose
// sums stay normal (1.5, then ties to even around it), one whose sums go through +0, subnormals and
// the smallest normals (from 1.5 - 1.5). Targets start tiny (the first block is exact from the second
// round on), zero, subnormal, or large enough that no sum ever leaves the normals; the run ends with
// a block cut short. Without the device's adder (SwiftShader) every step is the soft add, the same
// bits.
TEST_F(ScatterElementsTest, HeavyFloat32AddRunsTakeTheDevicesAdderOnlyWhereExact) {
  std::unique_ptr<Context> folding, narrow;
  ASSERT_NO_FATAL_FAILURE(makeHeavyRunContexts(folding, narrow));
  const uint32_t kTieUp = 0x33800000u, kTieDown = 0xB3800000u, kTiePastEven = 0x34400000u, kBack = 0xB4800000u;
  const std::vector<uint32_t> normal = {0x3FC00000u, kTieUp,       kTieDown, kTiePastEven, kBack,    kTieUp,
                                        kTieDown,    kTiePastEven, kBack,    kTieUp,       kTieDown, kTiePastEven,
                                        kBack,       kTieUp,       kTieDown, kTieUp};
  const std::vector<uint32_t> edges = {0xBFC00000u, 0x00C00000u, 0x80A00000u, 0x00800000u, 0x80800000u, 0x80800000u,
                                       0x00800000u, 0x00000001u, 0x3F800000u, 0xBF800000u, 0x00C00000u, 0x80A00000u,
                                       0x00A00000u, 0x80000000u, 0x00800000u, 0x00800000u};
  const std::vector<uint32_t> starts = {0x00C00000u, 0x3F800000u, 0x00000000u, 0x80000001u, 0x4B000000u};
  const int64_t targets = static_cast<int64_t>(starts.size());
  std::vector<uint32_t> run;
  for (int round = 0; round < 40; ++round) {
    run.insert(run.end(), normal.begin(), normal.end());
    run.insert(run.end(), edges.begin(), edges.end());
  }
  run.insert(run.end(), edges.begin(), edges.begin() + 9);  // and a last block cut short
  std::vector<uint32_t> updates;
  std::vector<int64_t> positions;
  for (const uint32_t bits : run) {
    for (int64_t t = 0; t < targets; ++t) {
      updates.push_back(bits);
      positions.push_back(t);
    }
  }
  const int64_t n = static_cast<int64_t>(updates.size());
  size_t turn = 0;
  for (Context* ctx : {folding.get(), narrow.get()}) {
    SCOPED_TRACE("workgroup " + std::to_string(tuningOf(*ctx).workgroup_size));
    ASSERT_NO_FATAL_FAILURE(
        expectAllFormsMatchReference(*ctx,
                                     {floatBitsTensor({targets}, starts), indexTensor(DataType::kInt32, {n}, positions),
                                      floatBitsTensor({n}, updates), 0, Reduction::kAdd},
                                     alternating(turn++)));
    EXPECT_EQ(ctx->validationMessageCount(), 0u) << ctx->firstValidationMessage();
  }
}

}  // namespace
}  // namespace vkindex::test
