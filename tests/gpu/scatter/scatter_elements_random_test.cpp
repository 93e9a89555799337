// Randomized ScatterElements against the CPU reference, byte-exact, in every form (a new output, the
// caller's output, in place, and recorded into a command buffer of the test's own, out of place and in
// place; runner in support/scatter_forms.hpp):
// - reduction none over every data type x both index types x ranks 1-5 x every axis (both signs),
//   duplicate-heavy indices in two cases of three (the last update in index order must win);
// - every defined (type, reduction) pair (support/defined_reductions.hpp: add, mul, max, min on every
//   integer and float type, add and mul on complex, add and mul on bool, add on string) x both index types,
//   duplicate-heavy, float-like values of every kind: subnormals, NaNs with payloads, infinities, signed zeros
//   (support/reduction_values.hpp);
// - reduction none through the winner table and reductions through the fold by owner on contexts that
//   never walk, in one and in many windows; ranks 9-11 that do not coalesce into the kernels' 8 dims
//   (walked block by block); tensors beyond one binding and beyond maxStorageBufferRange.
// Fixed seeds. The directed cases are in scatter_elements_directed_test.cpp and
// scatter_elements_heavy_runs_test.cpp.
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

// Reduction none: every type x both index types x ranks 1-5 x every axis (its sign alternating),
// duplicate-heavy indices in two cases out of three.
class ScatterElementsNoneTest : public GpuTest, public ::testing::WithParamInterface<TypeGroup> {};

TEST_P(ScatterElementsNoneTest, EveryRankAndAxisMatchesReference) {
  expectEveryRankMatchesReference<ScatterElementsCase>(
      context(), GetParam(), 0x5ca7, [](Rng& rng, DataType dtype, DataType index_type, int64_t r, int64_t a, size_t n) {
        const int64_t axis = n % 2 ? a - r : a;
        return randomElementsCase(rng, dtype, index_type, static_cast<size_t>(r), axis, Reduction::kNone, n % 3 != 0,
                                  600);
      });
}

INSTANTIATE_TEST_SUITE_P(AllTypes, ScatterElementsNoneTest, ::testing::ValuesIn(widthGroups()), groupName);

// Every defined (type, reduction) pair but none (defined_reductions.hpp), both index types in turn,
// random ranks 1-4 and axes, duplicate-heavy indices in five rounds of six; float-like values of every
// kind (reductionValues).
class ScatterElementsReductionTest : public GpuTest, public ::testing::WithParamInterface<ReductionPair> {};

TEST_P(ScatterElementsReductionTest, DuplicateHeavyMatchesReference) {
  expectReductionRoundsMatchReference<ScatterElementsCase>(
      context(), GetParam(), 0x2ed,
      [](Rng& rng, DataType dtype, Reduction reduction, DataType index_type, bool few_targets) {
        const int64_t r = 1 + static_cast<int64_t>(rng() % 4);
        const int64_t axis = std::uniform_int_distribution<int64_t>(-r, r - 1)(rng);
        return randomElementsCase(rng, dtype, index_type, static_cast<size_t>(r), axis, reduction, few_targets, 600);
      });
}

INSTANTIATE_TEST_SUITE_P(DefinedPairs, ScatterElementsReductionTest, ::testing::ValuesIn(definedReductionPairs()),
                         pairName);

// Reduction none through the winner table (claim, then every update at once), which a device runs
// below Tuning::min_walk_lines lines; here on contexts that never walk, whatever each driver's own
// threshold: every type but strings (no kernel) x both index types x ranks 1-3 x random axes,
// duplicate-heavy in two cases of three; 1000 writers to one target and to four neighbours sharing a
// word; and 1 KiB bindings, so the table serves updates, indices and outputs in several windows.
TEST_F(ScatterElementsTest, WinnerTableMatchesReference) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> table, makeContextThatNeverWalks());
  ASSERT_EQ(tuningOf(*table).min_walk_lines, UINT64_MAX);
  Rng rng(0x7ab1e);
  size_t n = 0;
  for (const TypeGroup& group : widthGroups()) {
    for (const DataType dtype : group.types) {
      if (dtype == DataType::kString) continue;
      SCOPED_TRACE(dataTypeName(dtype));
      for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
        for (int64_t r = 1; r <= 3; ++r, ++n) {
          const int64_t axis = std::uniform_int_distribution<int64_t>(-r, r - 1)(rng);
          SCOPED_TRACE("case " + std::to_string(n));
          const ScatterElementsCase c = randomElementsCase(rng, dtype, index_type, static_cast<size_t>(r), axis,
                                                           Reduction::kNone, n % 3 != 0, 600);
          ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*table, c, alternating(n)));
        }
      }
    }
  }
  for (DataType dtype : {DataType::kUInt8, DataType::kFloat16, DataType::kFloat32, DataType::kComplex128}) {
    SCOPED_TRACE(dataTypeName(dtype));
    std::vector<int64_t> one_target(1000), four_targets(4000);
    for (int64_t& v : one_target) v = rng() % 2 ? 2 : -3;
    for (int64_t& v : four_targets) v = static_cast<int64_t>(rng() % 4);
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        *table, {randomTensor(rng, dtype, {5}), indexTensor(DataType::kInt64, {1000}, one_target),
                 randomTensor(rng, dtype, {1000}), 0, Reduction::kNone}));
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        *table, {randomTensor(rng, dtype, {2, 7}), indexTensor(DataType::kInt32, {1, 4000}, four_targets),
                 randomTensor(rng, dtype, {1, 4000}), 1, Reduction::kNone}));
  }
  EXPECT_EQ(table->validationMessageCount(), 0u) << table->firstValidationMessage();

  // The same in 1 KiB bindings.
  ContextOptions options;
  options.overrides.min_walk_lines = UINT64_MAX;
  options.overrides.max_binding_bytes = 1024;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> windows, makeContext(options));
  for (DataType dtype : {DataType::kUInt8, DataType::kInt16, DataType::kFloat32, DataType::kUInt64}) {
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      SCOPED_TRACE(std::string(dataTypeName(dtype)) + " windows, case " + std::to_string(n));
      const int64_t r = 1 + static_cast<int64_t>(n % 3);
      const int64_t axis = std::uniform_int_distribution<int64_t>(-r, r - 1)(rng);
      const ScatterElementsCase c =
          randomElementsCase(rng, dtype, index_type, static_cast<size_t>(r), axis, Reduction::kNone, n % 2 == 0, 200);
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*windows, c, alternating(n++)));
    }
  }
  EXPECT_EQ(windows->validationMessageCount(), 0u) << windows->firstValidationMessage();
}

// Reductions through the fold by owner (each update counted at its target, light targets' buckets
// folded by their owners in index order, heavy targets sorted, stably, and folded run by run),
// which a device runs below Tuning::min_walk_lines lines; here on a context that never walks:
// every defined (type, reduction) pair at random ranks 1-3 and axes, duplicate-heavy in one case of
// two; order-sensitive float adds split between a heavy target (more than VKINDEX_MAX_BUCKET
// updates) and light ones; light buckets of every size; kFewHeavyTargetUpdates updates to seven
// heavy targets, neighbours in one word for sub-word types; and many heavy targets
// (manyHeavyTargetCases), whose ids take two and three digit passes of the heavy sort.
TEST_F(ScatterElementsTest, FoldByOwnerMatchesReference) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> fold, makeContextThatNeverWalks());
  Rng rng(0xf01d);
  ASSERT_NO_FATAL_FAILURE(expectDefinedPairsMatchReference<ScatterElementsCase>(
      *fold, [&](DataType dtype, Reduction reduction, DataType index_type, int round) {
        const int64_t r = 1 + static_cast<int64_t>(rng() % 3);
        const int64_t axis = std::uniform_int_distribution<int64_t>(-r, r - 1)(rng);
        return randomElementsCase(rng, dtype, index_type, static_cast<size_t>(r), axis, reduction, round == 0, 600);
      }));
  const std::vector<int64_t> mixed = heavyAndLightTargets(rng, kMixedUpdates, kMixedTargets);
  for (DataType dtype : {DataType::kFloat32, DataType::kFloat16, DataType::kFloat64}) {
    const ScatterElementsCase c{smallExactValues(dtype, {kMixedTargets}),
                                indexTensor(DataType::kInt64, {kMixedUpdates}, mixed),
                                orderSensitiveUpdates(rng, dtype, {kMixedUpdates}), 0, Reduction::kAdd};
    ASSERT_TRUE(orderChangesTheResult(c.op(*fold), c.inputs(), rng)) << dataTypeName(dtype);
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*fold, c));
  }
  ASSERT_NO_FATAL_FAILURE(expectEveryBucketSizeMatchesReference<ScatterElementsCase>(
      *fold, rng, [&](DataType dtype, const std::vector<int64_t>& ramp) {
        const int64_t count = static_cast<int64_t>(ramp.size());
        return ScatterElementsCase{smallExactValues(dtype, {kRampTargets}),
                                   indexTensor(DataType::kInt32, {count}, ramp),
                                   orderSensitiveUpdates(rng, dtype, {count}), 0, Reduction::kAdd};
      }));
  ASSERT_NO_FATAL_FAILURE(expectFewHeavyTargetsMatchReference<ScatterElementsCase>(
      *fold, rng, [&](DataType dtype, const std::vector<int64_t>& few) {
        return ScatterElementsCase{randomTensor(rng, dtype, {7}),
                                   indexTensor(DataType::kInt32, {kFewHeavyTargetUpdates}, few),
                                   reductionValues(rng, dtype, {kFewHeavyTargetUpdates}), 0, Reduction::kAdd};
      }));
  for (const ManyHeavyTargets& h : manyHeavyTargetCases(rng, tuningOf(*fold).workgroup_size)) {
    SCOPED_TRACE(h.description);
    const ScatterElementsCase c{randomTensor(rng, h.dtype, {h.targets}),
                                indexTensor(DataType::kInt64, {h.updates}, h.indices),
                                reductionValues(rng, h.dtype, {h.updates}), 0, h.reduction};
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*fold, c));
  }
  EXPECT_EQ(fold->validationMessageCount(), 0u) << fold->firstValidationMessage();
}

// Ranks 9 to 11 whose dims cannot coalesce (every non-axis indices dim shorter than data's) are more
// than the kernels' 8: the plan walks them block by block, the axis among the peeled dims or not, every
// reduction the type defines, duplicates along an axis up to twice data's. Every other case also runs
// with 64 KiB bindings, where the larger tensors span several windows and each block binds its own.
TEST_F(ScatterElementsTest, RanksBeyondEightThatDoNotCoalesce) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> small_bindings, makeContextWithBindings(65536));
  Rng rng(0x9e2);
  const Reduction reductions[] = {Reduction::kNone, Reduction::kAdd, Reduction::kMul, Reduction::kMax, Reduction::kMin};
  const DataType types[] = {DataType::kFloat32,  DataType::kUInt8,   DataType::kFloat16, DataType::kInt64,
                            DataType::kBFloat16, DataType::kFloat64, DataType::kInt32};
  size_t n = 0;
  for (int64_t rank = 9; rank <= 11; ++rank) {
    for (const int64_t axis : {int64_t{0}, int64_t{1}, rank / 2, int64_t{-1}, -rank}) {
      ScatterElementsCase c;
      c.axis = axis;
      c.reduction = reductions[n % std::size(reductions)];
      const DataType dtype = types[n % std::size(types)];
      const DataType index_type = n++ % 2 ? DataType::kInt64 : DataType::kInt32;
      Shape data_shape(static_cast<size_t>(rank)), index_shape(static_cast<size_t>(rank));
      for (size_t d = 0; d < data_shape.size(); ++d) {
        data_shape[d] = rng() % 4 == 0 ? 4 : 3;
        index_shape[d] = 2;
      }
      const size_t a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
      index_shape[a] = std::uniform_int_distribution<int64_t>(1, 2 * data_shape[a])(rng);
      c.data = reductionValues(rng, dtype, data_shape);
      c.indices = randomIndices(rng, index_type, index_shape, data_shape[a]);
      c.updates = reductionValues(rng, dtype, index_shape);
      SCOPED_TRACE(c.description());
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c, alternating(n)));
      if (n % 2 == 0) {
        ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*small_bindings, c, alternating(n + 1)));
      }
    }
  }
  EXPECT_EQ(small_bindings->validationMessageCount(), 0u) << small_bindings->firstValidationMessage();
}

// Tensors larger than one binding (1 KiB bindings): data, indices and updates in several windows each,
// for every width, with none or a reduction, duplicate-heavy in every other case.
TEST_F(ScatterElementsTest, TensorsBeyondOneBindingMatchReference) {
  Rng rng(0xb1de);
  forEachCaseBeyondOneBinding([&](const WindowedCase& w) {
    const int64_t r = 1 + static_cast<int64_t>(rng() % 4);
    const int64_t axis = std::uniform_int_distribution<int64_t>(-r, r - 1)(rng);
    const ScatterElementsCase c =
        randomElementsCase(rng, w.dtype, w.index_type, static_cast<size_t>(r), axis, w.reduction, w.n % 2 == 0, 1000);
    expectAllFormsMatchReference(w.context, c, alternating(w.n));
  });
}

// Data larger than the device's real binding limit (lavapipe: 128 MiB; elsewhere a 128 MiB cap): each
// update along axis 0 lands in a random row, across every output window, added out of place after a
// windowed copy, then in place.
TEST_F(ScatterElementsTest, DataLargerThanMaxStorageBufferRange) {
  Rng rng(0x4b6);
  PastTheLimit big;
  ASSERT_NO_FATAL_FAILURE(dataPastTheBindingLimit(rng, DataType::kInt32, big));
  const HostTensor indices = randomIndices(rng, DataType::kInt64, {24, big.row_elements}, big.rows);
  const HostTensor updates = randomTensor(rng, DataType::kInt32, {24, big.row_elements});
  const ReferenceResult expected = referenceScatterElements(big.data, indices, updates, 0, Reduction::kAdd);
  ASSERT_FALSE(expected.bad_index_position);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(*big.context, big.data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(*big.context, indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor update_tensor, toDevice(*big.context, updates));
  VKINDEX_ASSERT_OK_AND_ASSIGN(
      Tensor output, scatterElements(*big.context, data_tensor, index_tensor, update_tensor, 0, Reduction::kAdd));
  EXPECT_TRUE(holds(output, expected.output));
  VKINDEX_ASSERT_OK(scatterElementsInPlace(*big.context, data_tensor, index_tensor, update_tensor, 0, Reduction::kAdd));
  EXPECT_TRUE(holds(data_tensor, expected.output));
  EXPECT_EQ(big.context->validationMessageCount(), 0u) << big.context->firstValidationMessage();
}

}  // namespace
}  // namespace vkindex::test
