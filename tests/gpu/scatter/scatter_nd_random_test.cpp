// Randomized and directed ScatterND against the CPU reference, byte-exact, in every form (a new output,
// the caller's output, in place, and recorded into a command buffer of the test's own, out of place and
// in place; runner in support/scatter_forms.hpp):
// - reduction none over every data type x both index types x data ranks 1-5 x every tuple length k in
//   [1, r], duplicate-heavy tuples in three cases of four (the last update in index order must win);
// - every defined (type, reduction) pair (support/defined_reductions.hpp: add, mul, max, min on every
//   integer and float type, add and mul on complex, add and mul on bool, add on string) x both index types,
//   duplicate-heavy, float-like values of every kind: subnormals, NaNs with payloads, infinities, signed zeros
//   (support/reduction_values.hpp);
// - directed cases: the ONNX examples, integer wrap and signedness and float max/min written out by
//   hand; sums that only index order gets right for float32, float16, bfloat16, double and complex64,
//   over slices and single elements (each proved order-sensitive on the host first); 1000 writers to
//   one slice; 20 repeated runs (float32, double, float16); rank-1 indices (one tuple, scalar
//   updates), strings, empty indices, zero-sized dims, empty tuples (k = 0: each addresses all of
//   data), sub-word slices and more than 2^16 tuples.
// Fixed seeds. Pairs the device's kernels do not run yet fail with kUnsupported.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/context_impl.hpp"
#include "support/reduction_values.hpp"
#include "support/scatter_forms.hpp"
#include "support/typed_tensors.hpp"

namespace vkindex::test {
namespace {

// --- Cases --------------------------------------------------------------------------------------------

// One call: its inputs and attributes, in the form the shared runners of scatter_forms.hpp take.
struct ScatterCase {
  HostTensor data;
  HostTensor indices;
  HostTensor updates;
  Reduction reduction = Reduction::kNone;

  std::string description() const {
    return "data " + describe(data) + ", indices " + describe(indices) + ", updates " + describe(updates) +
           ", reduction " + reductionName(reduction);
  }
  ScatterOperator op(Context& context) const { return scatterNDOperator(context, reduction); }
  ScatterInputs inputs() const { return {data, indices, updates}; }
};

// The shared runners for this file's cases (a braced case cannot name a template's type).
void expectAllFormsMatchReference(Context& context, const ScatterCase& c, Forms forms = Forms::kAll) {
  expectCaseMatchesReference(context, c, forms);
}
void expectHandWritten(Context& context, const ScatterCase& c, const HostTensor& expected) {
  expectCaseGives(context, c, expected);
}

// --- Random cases ------------------------------------------------------------------------------------

// updates' shape for `indices` into `data_shape`: indices.shape[:-1] + data_shape[k:].
Shape updatesShape(const Shape& index_shape, const Shape& data_shape) {
  const size_t k = static_cast<size_t>(index_shape.back());
  Shape shape(index_shape.begin(), index_shape.end() - 1);
  shape.insert(shape.end(), data_shape.begin() + static_cast<std::ptrdiff_t>(k), data_shape.end());
  return shape;
}

// A ScatterND call on `data` with `indices`, updates drawn from `mix`.
ScatterCase makeCase(Rng& rng, HostTensor data, HostTensor indices, Reduction reduction,
                     ValueMix mix = ValueMix::kEveryKind) {
  ScatterCase c;
  c.updates = reductionValues(rng, data.dtype, updatesShape(indices.shape, data.shape), mix);
  c.data = std::move(data);
  c.indices = std::move(indices);
  c.reduction = reduction;
  return c;
}

// A random ScatterND call: data of rank r (at most `max_elements`), tuples of length k, and `extra`
// tuple dims before the tuple (q = extra + 1; extra = 0 gives rank-1 indices: one tuple). With
// `few_targets`, every tuple is one of at most three (each component written as v or v - s at random),
// so the same slices receive many updates; otherwise the components are uniform in [-s, s-1].
ScatterCase randomCase(Rng& rng, DataType dtype, DataType index_type, size_t r, size_t k, size_t extra,
                       Reduction reduction, bool few_targets, uint64_t max_elements) {
  Shape data_shape = randomShape(rng, r, max_elements);
  Shape index_shape = randomShape(rng, extra, 40);
  index_shape.push_back(static_cast<int64_t>(k));
  bool empty = false;
  for (size_t d = 0; d + 1 < index_shape.size(); ++d) empty = empty || index_shape[d] == 0;
  // An empty indexed dim admits no index: keep it only when the indices are empty anyway.
  for (size_t d = 0; d < k && !empty; ++d) {
    if (data_shape[d] == 0) data_shape[d] = 1;
  }
  HostTensor indices = randomTuples(rng, index_type, index_shape, data_shape, 0);
  if (few_targets && !empty) {
    const HostTensor pool = randomTuples(rng, DataType::kInt64, {3, static_cast<int64_t>(k)}, data_shape, 0);
    const uint64_t pool_size = 1 + rng() % 3;
    std::vector<int64_t> values;
    for (uint64_t t = 0; t < indices.elementCount() / k; ++t) {
      const uint64_t chosen = rng() % pool_size;
      for (size_t c = 0; c < k; ++c) {
        const int64_t s = data_shape[c];
        int64_t v = indexAt(pool, chosen * k + c);
        v = v < 0 ? v + s : v;
        values.push_back(rng() % 2 ? v - s : v);
      }
    }
    indices = indexTensor(index_type, index_shape, values);
  }
  return makeCase(rng, reductionValues(rng, dtype, data_shape), std::move(indices), reduction);
}

// Every defined (type, reduction) pair but none (defined_reductions.hpp), both index types in turn,
// random ranks 1-4, tuple lengths and extra tuple dims, duplicate-heavy tuples in five rounds of six;
// float-like values of every kind (reductionValues).
class ScatterNDReductionTest : public GpuTest, public ::testing::WithParamInterface<ReductionPair> {};

TEST_P(ScatterNDReductionTest, DuplicateHeavyMatchesReference) {
  expectReductionRoundsMatchReference<ScatterCase>(
      context(), GetParam(), 0x4ed,
      [](Rng& rng, DataType dtype, Reduction reduction, DataType index_type, bool few_targets) {
        const size_t r = 1 + rng() % 4;
        const size_t k = 1 + rng() % r;
        const size_t extra = 1 + rng() % 2;
        return randomCase(rng, dtype, index_type, r, k, extra, reduction, few_targets, 600);
      });
}

INSTANTIATE_TEST_SUITE_P(DefinedPairs, ScatterNDReductionTest, ::testing::ValuesIn(definedReductionPairs()), pairName);

// Reduction none: every type x both index types x data ranks 1-5 x every tuple length, the number of
// extra tuple dims cycling through 0, 1, 2; duplicate-heavy tuples in two cases out of three.
class ScatterNDNoneTest : public GpuTest, public ::testing::WithParamInterface<TypeGroup> {};

TEST_P(ScatterNDNoneTest, EveryRankAndTupleLengthMatchesReference) {
  expectEveryRankMatchesReference<ScatterCase>(
      context(), GetParam(), 0x5c4d, [](Rng& rng, DataType dtype, DataType index_type, int64_t r, int64_t j, size_t n) {
        const size_t k = static_cast<size_t>(j) + 1;
        return randomCase(rng, dtype, index_type, static_cast<size_t>(r), k, n % 3, Reduction::kNone, n % 4 != 3, 600);
      });
}

INSTANTIATE_TEST_SUITE_P(AllTypes, ScatterNDNoneTest, ::testing::ValuesIn(widthGroups()), groupName);

// --- Fixed cases ---------------------------------------------------------------------------------------

using ScatterNDTest = GpuTest;

// 4 x 4 x 4 blocks of the ONNX examples.
std::vector<float> concat(const std::vector<std::vector<float>>& parts) {
  std::vector<float> all;
  for (const std::vector<float>& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

TEST_F(ScatterNDTest, OnnxDocExamples) {
  // The examples of the ONNX operator page and node tests (ScatterND, opsets 11-18).
  expectHandWritten(context(),
                    {floats({8}, {1, 2, 3, 4, 5, 6, 7, 8}), indexTensor(DataType::kInt64, {4, 1}, {4, 3, 1, 7}),
                     floats({4}, {9, 10, 11, 12}), Reduction::kNone},
                    floats({8}, {1, 11, 3, 10, 9, 6, 7, 12}));
  const std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1};
  const std::vector<float> b = {8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<float> fives = {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8};
  const std::vector<float> ones = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};
  const HostTensor data = floats({4, 4, 4}, concat({a, a, b, b}));
  const HostTensor updates = floats({2, 4, 4}, concat({fives, ones}));
  expectHandWritten(context(), {data, indexTensor(DataType::kInt64, {2, 1}, {0, 2}), updates, Reduction::kNone},
                    floats({4, 4, 4}, concat({fives, a, ones, b})));
  // Both update slices to slice 0 (as -4 and 0), with each reduction.
  const HostTensor twice = indexTensor(DataType::kInt32, {2, 1}, {-4, 0});
  expectHandWritten(context(), {data, twice, updates, Reduction::kNone}, floats({4, 4, 4}, concat({ones, a, b, b})));
  expectHandWritten(
      context(), {data, twice, updates, Reduction::kAdd},
      floats({4, 4, 4}, concat({{7, 8, 9, 10, 13, 14, 15, 16, 18, 17, 16, 15, 16, 15, 14, 13}, a, b, b})));
  expectHandWritten(
      context(), {data, twice, updates, Reduction::kMul},
      floats({4, 4, 4}, concat({{5, 10, 15, 20, 60, 72, 84, 96, 168, 147, 126, 105, 128, 96, 64, 32}, a, b, b})));
  expectHandWritten(context(), {data, twice, updates, Reduction::kMax},
                    floats({4, 4, 4}, concat({{5, 5, 5, 5, 6, 6, 7, 8, 8, 7, 7, 7, 8, 8, 8, 8}, a, b, b})));
  expectHandWritten(context(), {data, twice, updates, Reduction::kMin},
                    floats({4, 4, 4}, concat({{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 3, 2, 1}, a, b, b})));
}

TEST_F(ScatterNDTest, IntegerReductionsWrapAndCompareBySignedness) {
  // Rows of a [2, 2] tensor: slice updates with carries across 32-bit halves and signedness.
  const HostTensor i64 = integers(DataType::kInt64, {2, 2}, {0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, 5, 0x8000000000000000u});
  const HostTensor rows = indexTensor(DataType::kInt64, {2, 1}, {1, -2});
  const HostTensor row_updates = integers(DataType::kInt64, {2, 2}, {~uint64_t{0}, 1, 1, 1});
  expectHandWritten(context(), {i64, rows, row_updates, Reduction::kAdd},
                    integers(DataType::kInt64, {2, 2}, {0x100000000u, 0x8000000000000000u, 4, 0x8000000000000001u}));
  expectHandWritten(context(), {i64, rows, row_updates, Reduction::kMax},
                    integers(DataType::kInt64, {2, 2}, {0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, 5, 1}));
  expectHandWritten(context(), {i64, rows, row_updates, Reduction::kMin},
                    integers(DataType::kInt64, {2, 2}, {1, 1, ~uint64_t{0}, 0x8000000000000000u}));
  HostTensor u64 = i64;
  u64.dtype = DataType::kUInt64;
  HostTensor u64_updates = row_updates;
  u64_updates.dtype = DataType::kUInt64;
  expectHandWritten(
      context(), {u64, rows, u64_updates, Reduction::kMax},
      integers(DataType::kUInt64, {2, 2}, {0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, ~uint64_t{0}, 0x8000000000000000u}));
  expectHandWritten(
      context(), {u64, rows, u64_updates, Reduction::kMul},
      integers(DataType::kUInt64, {2, 2}, {0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, 0u - uint64_t{5}, 0x8000000000000000u}));
  // Elements (k = 2) of int32 and uint32: wrapping add and mul, signed and unsigned comparison.
  const HostTensor points = indexTensor(DataType::kInt32, {3, 2}, {0, 1, -2, -1, 1, 0});
  const HostTensor i32 = integers(DataType::kInt32, {2, 2}, {1, 0x7FFFFFFFu, 0x10000u, 0xFFFFFFFFu});
  const HostTensor i32_updates = integers(DataType::kInt32, {3}, {1, 1, 0x10000u});
  expectHandWritten(context(), {i32, points, i32_updates, Reduction::kAdd},
                    integers(DataType::kInt32, {2, 2}, {1, 0x80000001u, 0x20000u, 0xFFFFFFFFu}));
  expectHandWritten(context(), {i32, points, i32_updates, Reduction::kMul},
                    integers(DataType::kInt32, {2, 2}, {1, 0x7FFFFFFFu, 0, 0xFFFFFFFFu}));
  expectHandWritten(context(), {i32, points, i32_updates, Reduction::kMin},
                    integers(DataType::kInt32, {2, 2}, {1, 1, 0x10000u, 0xFFFFFFFFu}));
  HostTensor u32 = i32;
  u32.dtype = DataType::kUInt32;
  HostTensor u32_updates = integers(DataType::kUInt32, {3}, {0xFFFFFFFFu, 0xFFFFFFFEu, 2});
  expectHandWritten(context(), {u32, points, u32_updates, Reduction::kMax},
                    integers(DataType::kUInt32, {2, 2}, {1, 0xFFFFFFFFu, 0x10000u, 0xFFFFFFFFu}));
  expectHandWritten(context(), {u32, points, u32_updates, Reduction::kMin},
                    integers(DataType::kUInt32, {2, 2}, {1, 0x7FFFFFFFu, 2, 0xFFFFFFFFu}));
}

TEST_F(ScatterNDTest, FloatMaxMinFollowTheAgreedRule) {
  const uint32_t kPlusZero = 0x00000000u, kMinusZero = 0x80000000u, kNaN = 0x7FC00000u, kOne = 0x3F800000u,
                 kTwo = 0x40000000u, kThree = 0x40400000u;
  // Slices of two elements: [+0, -0] then [NaN, 1]; updates fold into slice 0, then slice 1.
  const HostTensor data = floatBitsTensor({2, 2}, {kPlusZero, kMinusZero, kNaN, kOne});
  const HostTensor indices = indexTensor(DataType::kInt64, {4, 1}, {0, -2, 1, 1});
  const HostTensor updates = floatBitsTensor({4, 2}, {kMinusZero, kPlusZero, kNaN, kNaN, kThree, kTwo, kOne, kNaN});
  // max: +0 stays (-0 is not greater), -0 stays; NaN stays; 1 then 2: 2, then NaN: 2.
  expectHandWritten(context(), {data, indices, updates, Reduction::kMax},
                    floatBitsTensor({2, 2}, {kPlusZero, kMinusZero, kNaN, kTwo}));
  // min: the same zeros; NaN stays; 1 then 2, NaN: 1.
  expectHandWritten(context(), {data, indices, updates, Reduction::kMin},
                    floatBitsTensor({2, 2}, {kPlusZero, kMinusZero, kNaN, kOne}));
}

// Updates whose sum depends on the order they are added in (orderSensitiveUpdates: big values that
// swallow small ones and then cancel), for float32, float16, bfloat16, double and complex64. Slices of
// two elements (k = 1 of rank 2) and single elements (k = 2), the tuples to each target spread over the
// indices.
TEST_F(ScatterNDTest, FloatAddFoldsInIndexOrder) {
  Rng rng(0x04de8);
  const int64_t kTargets = 3, kLength = 96;
  std::vector<int64_t> rows, points;
  for (int64_t i = 0; i < kLength; ++i) rows.push_back((i / 4) % kTargets - (rng() % 2 ? kTargets : 0));
  for (int64_t i = 0; i < kLength; ++i) {
    points.push_back(rows[static_cast<size_t>(i)]);
    points.push_back((i / 4 / kTargets) % 2 - 2 * static_cast<int64_t>(rng() % 2));  // a block per element
  }
  std::vector<ScatterCase> cases;
  for (DataType dtype :
       {DataType::kFloat32, DataType::kFloat16, DataType::kBFloat16, DataType::kFloat64, DataType::kComplex64}) {
    cases.push_back({smallExactValues(dtype, {kTargets, 2}), indexTensor(DataType::kInt64, {kLength, 1}, rows),
                     orderSensitiveUpdates(rng, dtype, {kLength, 2}), Reduction::kAdd});
    // Whole elements: tuples (row, column) with int32 indices.
    cases.push_back({smallExactValues(dtype, {kTargets, 2}), indexTensor(DataType::kInt32, {kLength, 2}, points),
                     orderSensitiveUpdates(rng, dtype, {kLength}), Reduction::kAdd});
  }
  // The test must tell orders apart, on the host, for every case before any runs: reversed and shuffled
  // orders give other bits.
  for (const ScatterCase& c : cases)
    ASSERT_TRUE(orderChangesTheResult(c.op(context()), c.inputs(), rng)) << c.description();
  for (const ScatterCase& c : cases) ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c));
}

// Reductions through the fold by owner (each update element counted at its target, light targets'
// buckets folded by their owners in index order, heavy targets sorted, stably, and folded run by
// run), which a device runs below Tuning::min_walk_lines slice elements; here on a context that
// never walks: every defined (type, reduction) pair with random ranks, tuple lengths and extra
// dims, duplicate-heavy in one case of two; order-sensitive float adds split between a heavy row
// (more than VKINDEX_MAX_BUCKET updates) and light ones, in slices of one and three elements; light
// buckets of every size; kFewHeavyTargetUpdates tuples to seven heavy elements, neighbours in one
// word for sub-word types; and many heavy targets (manyHeavyTargetCases), whose ids take two and
// three digit passes of the heavy sort.
TEST_F(ScatterNDTest, FoldByOwnerMatchesReference) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> fold, makeContextThatNeverWalks());
  Rng rng(0xf01e);
  ASSERT_NO_FATAL_FAILURE(expectDefinedPairsMatchReference<ScatterCase>(
      *fold, [&](DataType dtype, Reduction reduction, DataType index_type, int round) {
        const size_t r = 1 + rng() % 3;
        const size_t k = 1 + rng() % r;
        const size_t extra = 1 + rng() % 2;
        return randomCase(rng, dtype, index_type, r, k, extra, reduction, round == 0, 600);
      }));
  const std::vector<int64_t> mixed = heavyAndLightTargets(rng, kMixedUpdates, kMixedTargets);
  for (DataType dtype : {DataType::kFloat32, DataType::kFloat16, DataType::kFloat64}) {
    SCOPED_TRACE(dataTypeName(dtype));
    for (const int64_t slice : {1, 3}) {
      Shape data_shape = {kMixedTargets}, updates_shape = {kMixedUpdates};
      if (slice > 1) data_shape.push_back(slice), updates_shape.push_back(slice);
      const ScatterCase c{smallExactValues(dtype, data_shape), indexTensor(DataType::kInt64, {kMixedUpdates, 1}, mixed),
                          orderSensitiveUpdates(rng, dtype, updates_shape), Reduction::kAdd};
      ASSERT_TRUE(orderChangesTheResult(c.op(*fold), c.inputs(), rng)) << c.description();
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*fold, c));
    }
  }
  ASSERT_NO_FATAL_FAILURE(expectEveryBucketSizeMatchesReference<ScatterCase>(
      *fold, rng, [&](DataType dtype, const std::vector<int64_t>& ramp) {
        const int64_t count = static_cast<int64_t>(ramp.size());
        return ScatterCase{smallExactValues(dtype, {kRampTargets}), indexTensor(DataType::kInt32, {count, 1}, ramp),
                           orderSensitiveUpdates(rng, dtype, {count}), Reduction::kAdd};
      }));
  ASSERT_NO_FATAL_FAILURE(expectFewHeavyTargetsMatchReference<ScatterCase>(
      *fold, rng, [&](DataType dtype, const std::vector<int64_t>& few) {
        return makeCase(rng, randomTensor(rng, dtype, {7}),
                        indexTensor(DataType::kInt32, {kFewHeavyTargetUpdates, 1}, few), Reduction::kAdd);
      }));
  for (const ManyHeavyTargets& h : manyHeavyTargetCases(rng, tuningOf(*fold).workgroup_size)) {
    SCOPED_TRACE(h.description);
    const ScatterCase c = makeCase(rng, randomTensor(rng, h.dtype, {h.targets}),
                                   indexTensor(DataType::kInt64, {h.updates, 1}, h.indices), h.reduction);
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*fold, c));
  }
  EXPECT_EQ(fold->validationMessageCount(), 0u) << fold->firstValidationMessage();
}

// 1000 tuples to one slice: the last in index order wins, also for sub-word elements whose neighbours
// in the same 32-bit word receive their own 1000 updates, and for strings.
TEST_F(ScatterNDTest, LastOfAThousandWritersWins) {
  Rng rng(1000);
  for (DataType dtype : kLastWriterTypes) {
    // One slice of three elements (row 2 of [5, 3], written as 2 and -3).
    const std::vector<int64_t> one_row = oneTargetOfFive(rng, 1000);
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), makeCase(rng, randomTensor(rng, dtype, {5, 3}), indexTensor(DataType::kInt64, {1000, 1}, one_row),
                            Reduction::kNone)));
    // Four neighbouring elements [0, 0..3] of a [1, 7] tensor, each written 1000 times, interleaved.
    std::vector<int64_t> four_points;
    for (int i = 0; i < 4000; ++i) {
      four_points.push_back(rng() % 2 ? 0 : -1);
      four_points.push_back(static_cast<int64_t>(rng() % 4));
    }
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), makeCase(rng, randomTensor(rng, dtype, {1, 7}),
                            indexTensor(DataType::kInt32, {4000, 2}, four_points), Reduction::kNone)));
  }
}

// The same duplicate-heavy call 20 times: the same bytes every time (see expectRepeatedFloatRunsIdentical).
TEST_F(ScatterNDTest, RepeatedRunsGiveIdenticalBytes) {
  Rng rng(20);
  std::vector<int64_t> index_values(300);
  for (int64_t& v : index_values) v = rng() % 3 == 0 ? 7 : -2;  // rows 7 and 6
  expectRepeatedFloatRunsIdentical(
      context(), [&](Reduction reduction) { return scatterNDOperator(context(), reduction); },
      indexTensor(DataType::kInt32, {300, 1}, index_values), {8, 16}, {300, 16}, rng);
}

TEST_F(ScatterNDTest, RankOneIndicesUpdateOneSlice) {
  Rng rng(3);
  const HostTensor data = randomTensor(rng, DataType::kFloat32, {3, 4, 5});
  // A full tuple: a scalar update (updates shape []).
  for (Reduction reduction : {Reduction::kNone, Reduction::kMax}) {
    const ScatterCase point = makeCase(rng, data, indexTensor(DataType::kInt64, {3}, {2, -1, 4}), reduction);
    ASSERT_EQ(point.updates.shape, Shape{});
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), point));
  }
  // Partial tuples: a row, a plane.
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, data, indexTensor(DataType::kInt32, {2}, {1, -4}), Reduction::kNone)));
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, data, indexTensor(DataType::kInt64, {1}, {-1}), Reduction::kNone)));
  // Rank-1 data, sub-word elements and strings.
  ASSERT_NO_FATAL_FAILURE(
      expectAllFormsMatchReference(context(), makeCase(rng, randomTensor(rng, DataType::kUInt8, {7}),
                                                       indexTensor(DataType::kInt32, {1}, {-7}), Reduction::kNone)));
  ASSERT_NO_FATAL_FAILURE(
      expectAllFormsMatchReference(context(), makeCase(rng, randomTensor(rng, DataType::kString, {7}),
                                                       indexTensor(DataType::kInt64, {1}, {6}), Reduction::kNone)));
}

TEST_F(ScatterNDTest, Strings) {
  Rng rng(6);
  const Shape data_shape = {3, 4, 2};
  const HostTensor words = randomTensor(rng, DataType::kString, data_shape);
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, words, randomTuples(rng, DataType::kInt64, {5, 2}, data_shape, 0), Reduction::kNone)));
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(),
      makeCase(rng, words, randomTuples(rng, DataType::kInt32, {3, 2, 3}, data_shape, 0), Reduction::kNone)));
  // Hand-written: the last of the duplicate rows wins.
  HostTensor data;
  data.dtype = DataType::kString;
  data.shape = {3, 2};
  data.strings = {"a", "b", "c", "d", "e", "f"};
  HostTensor updates = data;
  updates.shape = {3, 2};
  updates.strings = {"u", "v", "w", "x", "y", "z"};
  HostTensor expected = data;
  expected.strings = {"a", "b", "y", "z", "w", "x"};
  expectHandWritten(context(), {data, indexTensor(DataType::kInt64, {3, 1}, {1, -1, -2}), updates, Reduction::kNone},
                    expected);
}

TEST_F(ScatterNDTest, EmptyIndicesAndZeroSizedDims) {
  Rng rng(4);
  struct Empty {
    Shape data;
    Shape indices;
  };
  const Empty cases[] = {
      {{3, 5}, {0, 1}},     // no tuple
      {{3, 5}, {2, 0, 2}},  // no tuple, two tuple dims
      {{0, 5}, {0, 1}},     // no tuple into an empty indexed dim
      {{0}, {0, 1}},        // rank-1 empty data
      {{4, 0}, {3, 1}},     // valid tuples, empty slices
      {{2, 0, 3}, {2, 1}},  // valid tuples, empty slices with a dim after the zero
  };
  for (const Empty& e : cases) {
    for (const EmptyTensorKind& k : emptyTensorKinds(Reduction::kMul)) {
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
          context(), makeCase(rng, reductionValues(rng, k.dtype, e.data),
                              randomTuples(rng, k.index_type, e.indices, e.data, 0), k.reduction)));
    }
  }
}

// Tuples of no components (indices.shape[-1] == 0): every tuple addresses the whole of data and
// updates holds one data-shaped slice per tuple, combined in index order (none: the last one wins).
// Rank-1 indices [0] are one such tuple, [0, 0] none. Each path: the walk (one tuple, or a reduction),
// the winner table (none, several tuples) and, on devices that fold few walkers by owner (lavapipe,
// the gpu_tuning registrations), the fold.
TEST_F(ScatterNDTest, EmptyTuplesAddressAllOfData) {
  Rng rng(11);
  struct EmptyTuples {
    DataType dtype;
    Reduction reduction;
    Shape data;
    Shape indices;
  };
  const EmptyTuples cases[] = {
      {DataType::kFloat32, Reduction::kNone, {3, 5}, {4, 0}},    // the winner table: the last tuple wins
      {DataType::kFloat32, Reduction::kNone, {4, 4}, {0}},       // rank-1 indices: one tuple, one walk
      {DataType::kFloat32, Reduction::kAdd, {3, 5}, {2, 3, 0}},  // two tuple dims
      {DataType::kFloat32, Reduction::kMul, {2, 2, 3}, {0}},     //
      {DataType::kFloat32, Reduction::kMax, {6}, {5, 0}},        //
      {DataType::kFloat32, Reduction::kMin, {1}, {7, 0}},        // one data element: the fold by owner
      {DataType::kFloat64, Reduction::kAdd, {4, 3}, {3, 0}},     // soft float64
      {DataType::kInt64, Reduction::kMul, {5}, {4, 0}},          // 64-bit words in pairs
      {DataType::kFloat16, Reduction::kAdd, {9}, {6, 0}},        // sub-word elements
      {DataType::kComplex64, Reduction::kMul, {2, 2}, {3, 0}},   //
      {DataType::kUInt8, Reduction::kNone, {7}, {3, 0}},         // sub-word slices
      {DataType::kUInt8, Reduction::kMax, {2, 3}, {2, 2, 0}},    //
      {DataType::kBool, Reduction::kNone, {5}, {2, 0}},          //
      {DataType::kString, Reduction::kNone, {2, 3}, {3, 0}},     // ids on the device, strings on the host
      {DataType::kFloat32, Reduction::kAdd, {3, 5}, {0, 0}},     // no tuple: the output is data
      {DataType::kFloat32, Reduction::kNone, {0, 4}, {2, 0}},    // empty data
  };
  for (const EmptyTuples& e : cases) {
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      const ScatterCase c =
          makeCase(rng, reductionValues(rng, e.dtype, e.data), indexTensor(index_type, e.indices, {}), e.reduction);
      SCOPED_TRACE(c.description());
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c));
    }
  }
}

TEST_F(ScatterNDTest, SubWordSlicesOfEveryLength) {
  Rng rng(5);
  for (int64_t inner = 1; inner <= 9; ++inner) {
    const Shape data_shape = {5, 3, inner};
    for (DataType dtype : {DataType::kUInt8, DataType::kFloat16, DataType::kBool}) {
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
          context(), makeCase(rng, randomTensor(rng, dtype, data_shape),
                              randomTuples(rng, DataType::kInt32, {7, 2}, data_shape, 0), Reduction::kNone)));
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
          context(), makeCase(rng, randomTensor(rng, dtype, data_shape),
                              randomTuples(rng, DataType::kInt64, {6, 3}, data_shape, 0), Reduction::kNone)));
    }
  }
}

// Slices of 1100, 1102 and 1101 floats (16-, 8- and 4-byte units) span several row segments, the last
// partial (a CPU driver's segment is 256 units), and most tuples repeat one of three rows: the last
// writer's slice lands whole, and the untouched rows keep their bytes.
TEST_F(ScatterNDTest, LongSlicesMoveInRowSegments) {
  Rng rng(11);
  for (int64_t inner : {1100, 1102, 1101}) {
    SCOPED_TRACE("slices of " + std::to_string(inner) + " floats");
    std::vector<int64_t> rows(50);
    for (int64_t& v : rows) v = rng() % 4 == 0 ? static_cast<int64_t>(rng() % 6) : -1 - static_cast<int64_t>(rng() % 3);
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), makeCase(rng, randomTensor(rng, DataType::kFloat32, {6, inner}),
                            indexTensor(DataType::kInt64, {50, 1}, rows), Reduction::kNone)));
  }
}

// A KV row update (one tuple in place) is one self-checking dispatch: scatter_nd_rows_checked* for
// whole-word slices of 1024, 1100, 1102, 1101, 2 and 1 floats (16-, 8- and 4-byte units, one or several
// row segments, one word), scatter_nd_move_checked for 3 halves. A few tuples in place fuse too where
// the winner table would exceed its 64 MiB (more than 2^24 rows): then the last of duplicate tuples wins
// by scanning the later tuples, as 8 tuples into a float32 [2^24 + 1, 1] show (in place and recorded in
// place; the other forms copy data first and check in passes). On the CPU drivers invocations run in
// order, so a broken scan could still land the last writer there: this case checks the addressing and
// the check of that path, and a GPU (scripts/device-check.sh) its ordering.
TEST_F(ScatterNDTest, FewTuplesInPlaceKeepLastWins) {
  Rng rng(12);
  for (int64_t inner : {1024, 1100, 1102, 1101, 2, 1}) {
    SCOPED_TRACE("slices of " + std::to_string(inner) + " floats");
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), makeCase(rng, randomTensor(rng, DataType::kFloat32, {64, inner}),
                            indexTensor(DataType::kInt64, {1, 1}, {37}), Reduction::kNone)));
  }
  ASSERT_NO_FATAL_FAILURE(
      expectAllFormsMatchReference(context(), makeCase(rng, randomTensor(rng, DataType::kFloat16, {6, 3}),
                                                       indexTensor(DataType::kInt64, {1, 1}, {-5}), Reduction::kNone)));
  const int64_t rows = (int64_t(1) << 24) + 1;
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(),
      makeCase(rng, randomTensor(rng, DataType::kFloat32, {rows, 1}),
               indexTensor(DataType::kInt32, {8, 1}, {2, rows - 1, 5, 2, -1, 7, -rows + 5, 2}), Reduction::kNone),
      Forms::kWithRecording));
}

TEST_F(ScatterNDTest, ManyElements) {
  // Many tuples and long slices; uniform targets and then duplicate-heavy ones. 70000 tuples: more than
  // 2^16 updates per target element to walk in order (a kernel that walks the tuples in one invocation
  // must not stop early; llvmpipe, for one, ends any shader loop after 65535 iterations).
  Rng rng(7);
  const Shape data_shape = {301, 257};
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, randomTensor(rng, DataType::kFloat32, data_shape),
                          randomTuples(rng, DataType::kInt32, {70000, 2}, data_shape, 0), Reduction::kNone)));
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(),
      makeCase(rng, reductionValues(rng, DataType::kFloat32, data_shape, ValueMix::kNormalsOnly),
               randomTuples(rng, DataType::kInt64, {300, 1}, {3}, 0), Reduction::kAdd, ValueMix::kNormalsOnly)));
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, randomTensor(rng, DataType::kUInt8, data_shape),
                          randomTuples(rng, DataType::kInt64, {300, 1}, {2}, 0), Reduction::kNone)));
}

// Tensors larger than one binding (1 KiB bindings): data, indices and updates in several windows each,
// for every width, with none (the winner table) or a reduction (the walk), duplicate-heavy in every
// other case.
TEST_F(ScatterNDTest, TensorsBeyondOneBindingMatchReference) {
  Rng rng(0xb1d5);
  forEachCaseBeyondOneBinding([&](const WindowedCase& w) {
    const size_t r = 1 + rng() % 3;
    const ScatterCase c = randomCase(rng, w.dtype, w.index_type, r, 1 + rng() % r, 1, w.reduction, w.n % 2 == 0, 1000);
    expectAllFormsMatchReference(w.context, c, alternating(w.n));
  });
}

// A KV-cache-like tensor larger than the device's real binding limit (lavapipe: 128 MiB; elsewhere a
// 128 MiB cap): rows past the limit, duplicates among them, written in place (the winner table) and
// added out of place (a walk after a windowed copy).
TEST_F(ScatterNDTest, DataLargerThanMaxStorageBufferRange) {
  Rng rng(0x4b5);
  PastTheLimit big;
  ASSERT_NO_FATAL_FAILURE(dataPastTheBindingLimit(rng, DataType::kFloat32, big));
  std::vector<int64_t> targets;
  for (int i = 0; i < 48; ++i) targets.push_back(big.rows - 1 - static_cast<int64_t>(rng() % 3000));  // past the limit
  for (int i = 0; i < 16; ++i)
    targets.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(big.rows)) - big.rows);
  targets[7] = targets[3];
  const HostTensor indices = indexTensor(DataType::kInt64, {64, 1}, targets);
  const HostTensor updates = reductionValues(rng, DataType::kFloat32, {64, big.row_elements}, ValueMix::kNormalsOnly);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(*big.context, indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor update_tensor, toDevice(*big.context, updates));
  for (Reduction reduction : {Reduction::kAdd, Reduction::kNone}) {
    SCOPED_TRACE(reductionName(reduction));
    const ReferenceResult expected = referenceScatterND(big.data, indices, updates, reduction);
    ASSERT_FALSE(expected.bad_index_position);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(*big.context, big.data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output,
                                 scatterND(*big.context, data_tensor, index_tensor, update_tensor, reduction));
    EXPECT_TRUE(holds(output, expected.output));
    EXPECT_TRUE(holds(data_tensor, big.data)) << "out of place, big.data stays as it was";
    VKINDEX_ASSERT_OK(scatterNDInPlace(*big.context, data_tensor, index_tensor, update_tensor, reduction));
    EXPECT_TRUE(holds(data_tensor, expected.output));
  }
  EXPECT_EQ(big.context->validationMessageCount(), 0u) << big.context->firstValidationMessage();
}

}  // namespace
}  // namespace vkindex::test
