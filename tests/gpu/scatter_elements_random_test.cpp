// Randomized and directed ScatterElements against the CPU reference, byte-exact, in every form (a new
// output, the caller's output, in place, and recorded into a command buffer of the test's own, out of
// place and in place; runner in support/scatter_forms.hpp):
// - reduction none over every data type x both index types x ranks 1-5 x every axis (both signs),
//   duplicate-heavy indices in two cases of three (the last update in index order must win);
// - every defined (type, reduction) pair (support/defined_reductions.hpp: add, mul, max, min on every
//   integer and float type, add and mul on complex) x both index types, duplicate-heavy, float-like
//   values of every kind: subnormals, NaNs with payloads, infinities, signed zeros
//   (support/reduction_values.hpp);
// - directed cases: the ONNX examples, integer wrap and signedness, float max/min and float32
//   subnormal/NaN rules written out by hand; sums that only index order gets right for float32,
//   float16, bfloat16, double and complex64 (each proved order-sensitive on the host first); 1000
//   writers to one target; 20 repeated runs (float32, double, float16); strings, empty indices,
//   zero-sized dims, sub-word targets, more than one dispatch and lines longer than 2^16 updates;
// - ranks 9-11 that do not coalesce into the kernels' 8 dims (walked block by block);
// - reduction none through the winner table on contexts that never walk, in one and in many windows.
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

// ScatterElements bound to `axis` and `reduction`.
ScatterOperator scatterElementsOperator(Context& context, int64_t axis, Reduction reduction) {
  ScatterOperator op;
  op.reference = [=](const HostTensor& data, const HostTensor& indices, const HostTensor& updates) {
    return referenceScatterElements(data, indices, updates, axis, reduction);
  };
  op.run = [&context, axis, reduction](const Tensor& data, const Tensor& indices, const Tensor& updates) {
    return scatterElements(context, data, indices, updates, axis, reduction);
  };
  op.run_into = [&context, axis, reduction](const Tensor& data, const Tensor& indices, const Tensor& updates,
                                            Tensor& output) {
    return scatterElements(context, data, indices, updates, axis, reduction, output);
  };
  op.run_in_place = [&context, axis, reduction](Tensor& data, const Tensor& indices, const Tensor& updates) {
    return scatterElementsInPlace(context, data, indices, updates, axis, reduction);
  };
  op.record = [&context, axis, reduction](VkCommandBuffer cmd, const Tensor& data, const Tensor& indices,
                                          const Tensor& updates, Tensor& output) {
    return recordScatterElements(context, cmd, data, indices, updates, axis, reduction, output);
  };
  return op;
}

// One call: its inputs and attributes, in the form the shared runners of scatter_forms.hpp take.
struct ScatterCase {
  HostTensor data;
  HostTensor indices;
  HostTensor updates;
  int64_t axis = 0;
  Reduction reduction = Reduction::kNone;

  std::string description() const {
    return "data " + describe(data) + ", indices " + describe(indices) + ", updates " + describe(updates) + ", axis " +
           std::to_string(axis) + ", reduction " + reductionName(reduction);
  }
  ScatterOperator op(Context& context) const { return scatterElementsOperator(context, axis, reduction); }
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

// A random ScatterElements call of `rank` and `axis` (any sign): data of at most `max_elements`;
// indices with each dim other than the axis at most data's (often equal, sometimes smaller, rarely 0)
// and an axis dim that may be smaller or larger than data's. With `few_targets`, every line along the
// axis sends all its updates to one or two targets (each written as v or v - s at random), so most
// targets receive many updates; otherwise the values are uniform in [-s, s-1].
ScatterCase randomCase(Rng& rng, DataType dtype, DataType index_type, size_t rank, int64_t axis, Reduction reduction,
                       bool few_targets, uint64_t max_elements) {
  ScatterCase c;
  c.axis = axis;
  c.reduction = reduction;
  const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis);
  c.data = reductionValues(rng, dtype, randomShape(rng, rank, max_elements));
  const int64_t s = c.data.shape[a];
  Shape index_shape(rank);
  std::uniform_int_distribution<int> pick(0, 9);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t m = c.data.shape[d];
    if (d == a) {
      if (s == 0) continue;  // an empty axis admits no index: the indices are empty along it
      // Smaller, equal or larger than data's axis dim (up to 2s + 3; longer with few targets).
      index_shape[d] = std::uniform_int_distribution<int64_t>(1, few_targets ? 2 * s + 12 : 2 * s + 3)(rng);
    } else if (m == 0 || pick(rng) < 5) {
      index_shape[d] = m;
    } else {
      index_shape[d] = std::uniform_int_distribution<int64_t>(pick(rng) == 0 ? 0 : 1, m)(rng);
    }
  }
  auto count = [&] {
    uint64_t n = 1;
    for (int64_t dim : index_shape) n *= static_cast<uint64_t>(dim);
    return n;
  };
  while (count() > max_elements) {
    int64_t& largest = *std::max_element(index_shape.begin(), index_shape.end());
    largest /= 2;
  }
  std::vector<int64_t> values(count());
  const int64_t targets[2] = {std::uniform_int_distribution<int64_t>(0, std::max<int64_t>(s, 1) - 1)(rng),
                              std::uniform_int_distribution<int64_t>(0, std::max<int64_t>(s, 1) - 1)(rng)};
  const int64_t pool = 1 + static_cast<int64_t>(rng() % 2);
  for (int64_t& v : values) {
    if (few_targets) {
      v = targets[rng() % static_cast<uint64_t>(pool)] - (rng() % 2 ? s : 0);
    } else {
      v = std::uniform_int_distribution<int64_t>(-s, s - 1)(rng);
    }
  }
  c.indices = indexTensor(index_type, index_shape, values);
  c.updates = reductionValues(rng, dtype, index_shape);
  return c;
}

// Reduction none: every type x both index types x ranks 1-5 x every axis (its sign alternating),
// duplicate-heavy indices in two cases out of three.
class ScatterElementsNoneTest : public GpuTest, public ::testing::WithParamInterface<TypeGroup> {};

TEST_P(ScatterElementsNoneTest, EveryRankAndAxisMatchesReference) {
  for (const DataType dtype : GetParam().types) {
    SCOPED_TRACE(dataTypeName(dtype));
    Rng rng(0x5ca7 + 97 * static_cast<uint64_t>(dtype));
    size_t n = 0;
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      for (int64_t r = 1; r <= 5; ++r) {
        for (int64_t a = 0; a < r; ++a, ++n) {
          const int64_t axis = n % 2 ? a - r : a;
          SCOPED_TRACE("case " + std::to_string(n));
          const ScatterCase c =
              randomCase(rng, dtype, index_type, static_cast<size_t>(r), axis, Reduction::kNone, n % 3 != 0, 600);
          ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c, alternating(n)));
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, ScatterElementsNoneTest, ::testing::ValuesIn(widthGroups()), groupName);

// Every defined (type, reduction) pair but none (defined_reductions.hpp), both index types in turn,
// random ranks 1-4 and axes, duplicate-heavy indices in five rounds of six; float-like values of every
// kind (reductionValues).
class ScatterElementsReductionTest : public GpuTest, public ::testing::WithParamInterface<ReductionPair> {};

TEST_P(ScatterElementsReductionTest, DuplicateHeavyMatchesReference) {
  const auto [dtype, reduction] = GetParam();
  Rng rng(0x2ed + 131 * static_cast<uint64_t>(reduction) + static_cast<uint64_t>(dtype));
  for (int round = 0; round < 6; ++round) {
    const DataType index_type = round % 2 ? DataType::kInt64 : DataType::kInt32;
    const size_t rank = 1 + rng() % 4;
    const int64_t r = static_cast<int64_t>(rank);
    const int64_t axis = std::uniform_int_distribution<int64_t>(-r, r - 1)(rng);
    SCOPED_TRACE("round " + std::to_string(round));
    const ScatterCase c = randomCase(rng, dtype, index_type, rank, axis, reduction, round != 5, 600);
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c, alternating(static_cast<size_t>(round))));
  }
}

INSTANTIATE_TEST_SUITE_P(DefinedPairs, ScatterElementsReductionTest, ::testing::ValuesIn(definedReductionPairs()),
                         pairName);

// --- Fixed cases ---------------------------------------------------------------------------------------

using ScatterElementsTest = GpuTest;

TEST_F(ScatterElementsTest, OnnxDocExamples) {
  // The examples of the ONNX operator page (ScatterElements, opsets 11-18).
  expectHandWritten(
      context(),
      {floats({3, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0}), indexTensor(DataType::kInt64, {2, 3}, {1, 0, 2, 0, 2, 1}),
       floats({2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f}), 0, Reduction::kNone},
      floats({3, 3}, {2.0f, 1.1f, 0.0f, 1.0f, 0.0f, 2.2f, 0.0f, 2.1f, 1.2f}));
  expectHandWritten(context(),
                    {floats({1, 5}, {1, 2, 3, 4, 5}), indexTensor(DataType::kInt64, {1, 2}, {1, 3}),
                     floats({1, 2}, {1.1f, 2.1f}), 1, Reduction::kNone},
                    floats({1, 5}, {1.0f, 1.1f, 3.0f, 2.1f, 5.0f}));
  // reduction add with a duplicate (opset 16): 2 + 1.1 + 2.1 in float, in that order.
  expectHandWritten(context(),
                    {floats({1, 5}, {1, 2, 3, 4, 5}), indexTensor(DataType::kInt64, {1, 2}, {1, 1}),
                     floats({1, 2}, {1.1f, 2.1f}), 1, Reduction::kAdd},
                    floats({1, 5}, {1.0f, (2.0f + 1.1f) + 2.1f, 3.0f, 4.0f, 5.0f}));
  // reduction max and min with duplicates (opset 18).
  expectHandWritten(context(),
                    {floats({1, 5}, {1, 2, 3, 4, 5}), indexTensor(DataType::kInt32, {1, 2}, {1, 1}),
                     floats({1, 2}, {1.1f, 2.1f}), 1, Reduction::kMax},
                    floats({1, 5}, {1.0f, 2.1f, 3.0f, 4.0f, 5.0f}));
  expectHandWritten(context(),
                    {floats({1, 5}, {1, 2, 3, 4, 5}), indexTensor(DataType::kInt32, {1, 2}, {1, 1}),
                     floats({1, 2}, {1.1f, 2.1f}), 1, Reduction::kMin},
                    floats({1, 5}, {1.0f, 1.1f, 3.0f, 4.0f, 5.0f}));
  // Negative indices (opset 13's example) and a negative axis.
  expectHandWritten(context(),
                    {floats({1, 5}, {1, 2, 3, 4, 5}), indexTensor(DataType::kInt64, {1, 2}, {1, -3}),
                     floats({1, 2}, {1.1f, 2.1f}), -1, Reduction::kNone},
                    floats({1, 5}, {1.0f, 1.1f, 2.1f, 4.0f, 5.0f}));
}

TEST_F(ScatterElementsTest, IntegerReductionsWrapAndCompareBySignedness) {
  const uint64_t kAllOnes = ~uint64_t{0};
  // int32: add wraps past INT32_MAX, mul wraps, max/min compare signed (-1 < 1).
  const HostTensor i32 = integers(DataType::kInt32, {3}, {0x7FFFFFFFu, 0x10000u, 1});
  const HostTensor one = indexTensor(DataType::kInt32, {2}, {0, -3});
  expectHandWritten(context(), {i32, one, integers(DataType::kInt32, {2}, {1, 1}), 0, Reduction::kAdd},
                    integers(DataType::kInt32, {3}, {0x80000001u, 0x10000u, 1}));
  expectHandWritten(context(),
                    {i32, indexTensor(DataType::kInt64, {2}, {1, 1}), integers(DataType::kInt32, {2}, {0x10000u, 3}), 0,
                     Reduction::kMul},
                    integers(DataType::kInt32, {3}, {0x7FFFFFFFu, 0, 1}));
  expectHandWritten(context(),
                    {i32, indexTensor(DataType::kInt32, {2}, {2, 2}), integers(DataType::kInt32, {2}, {kAllOnes, 5}), 0,
                     Reduction::kMax},
                    integers(DataType::kInt32, {3}, {0x7FFFFFFFu, 0x10000u, 5}));
  expectHandWritten(context(),
                    {i32, indexTensor(DataType::kInt32, {2}, {2, 2}), integers(DataType::kInt32, {2}, {kAllOnes, 5}), 0,
                     Reduction::kMin},
                    integers(DataType::kInt32, {3}, {0x7FFFFFFFu, 0x10000u, 0xFFFFFFFFu}));
  // uint32: 0xFFFFFFFF is the largest; add wraps to 0.
  const HostTensor u32 = integers(DataType::kUInt32, {2}, {0xFFFFFFFFu, 1});
  const HostTensor both = indexTensor(DataType::kInt64, {2}, {0, 1});
  expectHandWritten(context(), {u32, both, integers(DataType::kUInt32, {2}, {1, 0xFFFFFFFFu}), 0, Reduction::kMax},
                    integers(DataType::kUInt32, {2}, {0xFFFFFFFFu, 0xFFFFFFFFu}));
  expectHandWritten(context(), {u32, both, integers(DataType::kUInt32, {2}, {1, 0xFFFFFFFFu}), 0, Reduction::kMin},
                    integers(DataType::kUInt32, {2}, {1, 1}));
  expectHandWritten(context(), {u32, both, integers(DataType::kUInt32, {2}, {1, 0xFFFFFFFFu}), 0, Reduction::kAdd},
                    integers(DataType::kUInt32, {2}, {0, 0}));
  // int64: a carry across the 32-bit halves, a wrapping product, signed comparison of the high word.
  const HostTensor i64 = integers(DataType::kInt64, {3}, {0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, 0x100000000u});
  expectHandWritten(context(),
                    {i64, indexTensor(DataType::kInt32, {3}, {0, 1, 0}), integers(DataType::kInt64, {3}, {1, 1, 2}), 0,
                     Reduction::kAdd},
                    integers(DataType::kInt64, {3}, {0x100000002u, 0x8000000000000000u, 0x100000000u}));
  expectHandWritten(context(),
                    {i64, indexTensor(DataType::kInt64, {2}, {2, -1}),
                     integers(DataType::kInt64, {2}, {0x100000001u, 3}), 0, Reduction::kMul},
                    integers(DataType::kInt64, {3}, {0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, 0x300000000u}));
  expectHandWritten(context(),
                    {i64, indexTensor(DataType::kInt64, {2}, {0, 0}),
                     integers(DataType::kInt64, {2}, {0x8000000000000000u, 0x1FFFFFFFFu}), 0, Reduction::kMax},
                    integers(DataType::kInt64, {3}, {0x1FFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, 0x100000000u}));
  expectHandWritten(context(),
                    {i64, indexTensor(DataType::kInt64, {2}, {0, 0}),
                     integers(DataType::kInt64, {2}, {0x8000000000000000u, 0x1FFFFFFFFu}), 0, Reduction::kMin},
                    integers(DataType::kInt64, {3}, {0x8000000000000000u, 0x7FFFFFFFFFFFFFFFu, 0x100000000u}));
  // uint64: the top bit is large; the low word decides when the high words are equal.
  const HostTensor u64 = integers(DataType::kUInt64, {2}, {0x8000000000000000u, 0x500000002u});
  expectHandWritten(
      context(),
      {u64, indexTensor(DataType::kInt32, {3}, {0, 1, 1}),
       integers(DataType::kUInt64, {3}, {0x7FFFFFFFFFFFFFFFu, 0x500000001u, 0x500000003u}), 0, Reduction::kMax},
      integers(DataType::kUInt64, {2}, {0x8000000000000000u, 0x500000003u}));
  expectHandWritten(
      context(),
      {u64, indexTensor(DataType::kInt32, {3}, {0, 1, 1}),
       integers(DataType::kUInt64, {3}, {0x7FFFFFFFFFFFFFFFu, 0x500000001u, 0x500000003u}), 0, Reduction::kMin},
      integers(DataType::kUInt64, {2}, {0x7FFFFFFFFFFFFFFFu, 0x500000001u}));
  expectHandWritten(context(),
                    {u64, indexTensor(DataType::kInt32, {2}, {0, 0}),
                     integers(DataType::kUInt64, {2}, {0x8000000000000000u, 3}), 0, Reduction::kAdd},
                    integers(DataType::kUInt64, {2}, {3, 0x500000002u}));
  expectHandWritten(
      context(),
      {u64, indexTensor(DataType::kInt32, {2}, {1, 1}),
       integers(DataType::kUInt64, {2}, {0xFFFFFFFFFFFFFFFFu, 0x100000001u}), 0, Reduction::kMul},
      integers(DataType::kUInt64, {2}, {0x8000000000000000u, (0u - uint64_t{0x500000002u}) * uint64_t{0x100000001u}}));
}

TEST_F(ScatterElementsTest, FloatMaxMinFollowTheAgreedRule) {
  // max(cur, upd) = upd > cur ? upd : cur; min = upd < cur ? upd : cur, updates folded in index order.
  const uint32_t kPlusZero = 0x00000000u, kMinusZero = 0x80000000u, kNaN = 0x7FC00000u, kOne = 0x3F800000u,
                 kTwo = 0x40000000u, kThree = 0x40400000u, kNegNaN = 0xFFC00001u;
  // Targets: +0, -0, NaN, 1, 1, 1.
  const HostTensor data = floatBitsTensor({6}, {kPlusZero, kMinusZero, kNaN, kOne, kOne, kOne});
  const HostTensor indices = indexTensor(DataType::kInt64, {9}, {0, 1, 2, 3, 4, 4, 4, 5, 5});
  // max: +0 then -0: +0 stays; -0 then +0: -0 stays; a NaN stays; a NaN update never replaces;
  // 1 then 2, NaN, 3: 3; 1 then -0, +0: 1.
  const HostTensor updates =
      floatBitsTensor({9}, {kMinusZero, kPlusZero, kOne, kNegNaN, kTwo, kNaN, kThree, kMinusZero, kPlusZero});
  expectHandWritten(context(), {data, indices, updates, 0, Reduction::kMax},
                    floatBitsTensor({6}, {kPlusZero, kMinusZero, kNaN, kOne, kThree, kOne}));
  // min: element 5 takes -0 (< 1), then +0 does not replace -0.
  expectHandWritten(context(), {data, indices, updates, 0, Reduction::kMin},
                    floatBitsTensor({6}, {kPlusZero, kMinusZero, kNaN, kOne, kOne, kMinusZero}));
}

// float32 add and mul as the agreed semantics have them: subnormal inputs and results exact, exact
// zero sums, and the x86 NaN rule (a NaN current quieted, else a NaN update quieted, else the default
// NaN 0xFFC00000). The reference is held to the same bits here, in a process with a driver loaded: a
// driver that set flush-to-zero on the host thread would corrupt every expected output, and show here.
TEST_F(ScatterElementsTest, FloatAddMulKeepSubnormalsAndFollowTheNaNRule) {
  // Targets: the smallest subnormal, the smallest normal, a signalling NaN, 1, +inf, -0.
  const HostTensor data =
      floatBitsTensor({6}, {0x00000001u, 0x00800000u, 0x7F800123u, 0x3F800000u, 0x7F800000u, 0x80000000u});
  const HostTensor indices = indexTensor(DataType::kInt32, {6}, {0, 1, 2, 3, 4, 5});
  struct Expected {
    Reduction reduction;
    std::vector<uint32_t> updates, result;
  };
  const Expected cases[] = {
      // add: 2 units; 2^-126 - 2^-127 (a subnormal result); NaN current; NaN update; inf - inf; -0 + -0.
      {Reduction::kAdd,
       {0x00000001u, 0x80400000u, 0x3F800000u, 0xFF800005u, 0xFF800000u, 0x80000000u},
       {0x00000002u, 0x00400000u, 0x7FC00123u, 0xFFC00005u, 0xFFC00000u, 0x80000000u}},
      // mul: half a unit (a tie, to zero); 2^-127; NaN current; NaN update; inf x 0; -0 x 1.
      {Reduction::kMul,
       {0x3F000000u, 0x3F000000u, 0x3F800000u, 0xFF800005u, 0x00000000u, 0x3F800000u},
       {0x00000000u, 0x00400000u, 0x7FC00123u, 0xFFC00005u, 0xFFC00000u, 0x80000000u}},
  };
  for (const Expected& e : cases) {
    expectHandWritten(context(), {data, indices, floatBitsTensor({6}, e.updates), 0, e.reduction},
                      floatBitsTensor({6}, e.result));
  }
}

// `line` followed by itself: two identical lines.
template <class T>
std::vector<T> twice(const std::vector<T>& line) {
  std::vector<T> both(line);
  both.insert(both.end(), line.begin(), line.end());
  return both;
}

// float32 add at every edge of the device's adder (Tuning::native_float32_add: it answers only
// where operands and sum are normal numbers, shaders/common/native_float32_add.glsl), one step per
// target with the bits written out: ties to even (up, down, negative, and a sticky bit just past the
// tie), a tie into overflow, overflow, exact cancellation to +0, a sum that is subnormal, one that is
// exactly the smallest normal, and subnormal, zero and infinite operands. Then a chain per target
// that passes through those states and back, against the reference. Both as two lines (walked on
// lavapipe) and as a vector (folded by owner there); on SwiftShader, whose adder cannot be told to
// round, every step is the soft add.
TEST_F(ScatterElementsTest, Float32AddIsExactAtEveryEdgeOfTheDevicesAdder) {
  struct Step {
    uint32_t data, update, sum;
  };
  const Step steps[] = {
      {0x3F800000u, 0x33800000u, 0x3F800000u},  // 1 + 2^-24: a tie, to even (down)
      {0x3F800000u, 0x34400000u, 0x3F800002u},  // 1 + 3 * 2^-24: a tie, to even (up)
      {0xBF800000u, 0xB3800000u, 0xBF800000u},  // -1 - 2^-24: a negative tie
      {0x3F800000u, 0x33800001u, 0x3F800001u},  // just past the tie: up
      {0x7F7FFFFFu, 0x73000000u, 0x7F800000u},  // FLT_MAX + half its unit: a tie into overflow
      {0x7F7FFFFFu, 0x7F7FFFFFu, 0x7F800000u},  // overflow to +inf
      {0x40400000u, 0xC0400000u, 0x00000000u},  // 3 - 3 = +0
      {0x00C00000u, 0x80A00000u, 0x00200000u},  // 1.5 * 2^-126 - 1.25 * 2^-126: a subnormal sum
      {0x01000000u, 0x80800000u, 0x00800000u},  // 2^-125 - 2^-126: exactly the smallest normal
      {0x3F800001u, 0xBF800000u, 0x34000000u},  // (1 + 2^-23) - 1: exact cancellation to a normal
      {0x00000003u, 0x3F800000u, 0x3F800000u},  // a subnormal operand
      {0x00800000u, 0x00000001u, 0x00800001u},  // a subnormal operand that counts: 2^-126 + 2^-149
      {0x00000000u, 0x40200000u, 0x40200000u},  // a zero operand
      {0xC0200000u, 0x80000000u, 0xC0200000u},  // -2.5 + -0
      {0x7F800000u, 0x3F800000u, 0x7F800000u},  // inf + 1
  };
  const int64_t n = static_cast<int64_t>(std::size(steps));
  std::vector<uint32_t> data, updates, sums;
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < n; ++i) {
    data.push_back(steps[i].data);
    updates.push_back(steps[i].update);
    sums.push_back(steps[i].sum);
    positions.push_back(i);
  }
  // One line (a vector), then the same line twice.
  expectHandWritten(context(),
                    {floatBitsTensor({n}, data), indexTensor(DataType::kInt32, {n}, positions),
                     floatBitsTensor({n}, updates), 0, Reduction::kAdd},
                    floatBitsTensor({n}, sums));
  expectHandWritten(context(),
                    {floatBitsTensor({2, n}, twice(data)), indexTensor(DataType::kInt64, {2, n}, twice(positions)),
                     floatBitsTensor({2, n}, twice(updates)), 1, Reduction::kAdd},
                    floatBitsTensor({2, n}, twice(sums)));

  // The chains: every target receives the chain 5 times over, in index order, from its own start value
  // (40 updates each: heavy targets in the fold); the sums run subnormal, zero, normal and tied along
  // the way.
  const std::vector<uint32_t> chain = {0x80A00000u, 0x00800000u, 0x80A00000u, 0x3F800000u,
                                       0x33800000u, 0x34400000u, 0xBF800002u, 0x00800000u};
  const std::vector<uint32_t> starts = {0x00C00000u, 0x3F800000u, 0x00000000u, 0x80000001u};
  const int64_t targets = static_cast<int64_t>(starts.size()), length = 5 * static_cast<int64_t>(chain.size());
  std::vector<uint32_t> chain_updates;
  std::vector<int64_t> chain_positions;
  for (int64_t step = 0; step < length; ++step) {
    for (int64_t t = 0; t < targets; ++t) {
      chain_updates.push_back(chain[step % chain.size()]);
      chain_positions.push_back(t);
    }
  }
  expectAllFormsMatchReference(context(), {floatBitsTensor({targets}, starts),
                                           indexTensor(DataType::kInt64, {targets * length}, chain_positions),
                                           floatBitsTensor({targets * length}, chain_updates), 0, Reduction::kAdd});
}

// Updates whose sum depends on the order they are added in (orderSensitiveUpdates: big values that
// swallow small ones and then cancel), for every float-like type that rounds differently: float32,
// float16, bfloat16, double, complex64. The updates to each target are spread over the indices.
TEST_F(ScatterElementsTest, FloatAddFoldsInIndexOrder) {
  Rng rng(0x04de7);
  const int64_t kTargets = 3, kLength = 96;
  std::vector<int64_t> index_values;
  for (int64_t i = 0; i < kLength; ++i) index_values.push_back((i / 4) % kTargets - (rng() % 2 ? kTargets : 0));
  std::vector<int64_t> row_indices(index_values);  // two dims: every row folds its own sequence
  row_indices.insert(row_indices.end(), index_values.begin(), index_values.end());
  std::vector<ScatterCase> cases;
  for (DataType dtype :
       {DataType::kFloat32, DataType::kFloat16, DataType::kBFloat16, DataType::kFloat64, DataType::kComplex64}) {
    cases.push_back({smallExactValues(dtype, {kTargets}), indexTensor(DataType::kInt64, {kLength}, index_values),
                     orderSensitiveUpdates(rng, dtype, {kLength}), 0, Reduction::kAdd});
    // The test must tell orders apart, on the host, for every type before any runs: reversed and
    // shuffled orders give other bits.
    ASSERT_TRUE(orderChangesTheResult(cases.back().op(context()), cases.back().inputs(), rng)) << dataTypeName(dtype);
    // Two dims along axis 1, int32 indices.
    HostTensor rows = orderSensitiveUpdates(rng, dtype, {kLength});
    const HostTensor second = orderSensitiveUpdates(rng, dtype, {kLength});
    rows.bytes.insert(rows.bytes.end(), second.bytes.begin(), second.bytes.end());
    rows.shape = {2, kLength};
    cases.push_back({smallExactValues(dtype, {2, kTargets}), indexTensor(DataType::kInt32, {2, kLength}, row_indices),
                     rows, 1, Reduction::kAdd});
  }
  for (const ScatterCase& c : cases) ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c));
}

// 1000 updates to one target: the last in index order wins, also for sub-word elements whose
// neighbours in the same 32-bit word receive their own 1000 updates, and for strings.
TEST_F(ScatterElementsTest, LastOfAThousandWritersWins) {
  Rng rng(1000);
  for (DataType dtype : {DataType::kFloat32, DataType::kUInt8, DataType::kFloat16, DataType::kComplex128,
                         DataType::kInt64, DataType::kString}) {
    // One target along axis 0 of a [5, 1] tensor, written as 2 and -3.
    std::vector<int64_t> one_target(1000);
    for (int64_t& v : one_target) v = rng() % 2 ? 2 : -3;
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), {randomTensor(rng, dtype, {5, 1}), indexTensor(DataType::kInt64, {1000, 1}, one_target),
                    randomTensor(rng, dtype, {1000, 1}), 0, Reduction::kNone}));
    // Four neighbouring targets [0..3] of a row, each written 1000 times, interleaved (axis 1).
    std::vector<int64_t> four_targets(4000);
    for (size_t i = 0; i < four_targets.size(); ++i) four_targets[i] = static_cast<int64_t>(rng() % 4);
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), {randomTensor(rng, dtype, {1, 7}), indexTensor(DataType::kInt32, {1, 4000}, four_targets),
                    randomTensor(rng, dtype, {1, 4000}), 1, Reduction::kNone}));
  }
}

// The same duplicate-heavy call 20 times: the same bytes every time (see expectRepeatedFloatRunsIdentical).
TEST_F(ScatterElementsTest, RepeatedRunsGiveIdenticalBytes) {
  Rng rng(20);
  std::vector<int64_t> index_values(300 * 16);
  for (int64_t& v : index_values) v = rng() % 3 == 0 ? 7 : -2;  // targets 7 and 6
  expectRepeatedFloatRunsIdentical(
      context(), [&](Reduction reduction) { return scatterElementsOperator(context(), 0, reduction); },
      indexTensor(DataType::kInt32, {300, 16}, index_values), {8, 16}, {300, 16}, rng);
}

TEST_F(ScatterElementsTest, Strings) {
  Rng rng(9);
  const HostTensor words = randomTensor(rng, DataType::kString, {3, 4});
  ASSERT_NO_FATAL_FAILURE(
      expectAllFormsMatchReference(context(), {words, randomIndices(rng, DataType::kInt64, {2, 6}, 4),
                                               randomTensor(rng, DataType::kString, {2, 6}), 1, Reduction::kNone}));
  ASSERT_NO_FATAL_FAILURE(
      expectAllFormsMatchReference(context(), {words, randomIndices(rng, DataType::kInt32, {5, 4}, 3),
                                               randomTensor(rng, DataType::kString, {5, 4}), -2, Reduction::kNone}));
  // Hand-written: the last of the duplicates wins.
  HostTensor data;
  data.dtype = DataType::kString;
  data.shape = {3};
  data.strings = {"a", "b", "c"};
  HostTensor updates = data;
  updates.shape = {4};
  updates.strings = {"x", "y", "z", "w"};
  HostTensor expected = data;
  expected.strings = {"a", "w", "z"};
  expectHandWritten(context(), {data, indexTensor(DataType::kInt64, {4}, {1, -2, -1, 1}), updates, 0, Reduction::kNone},
                    expected);
}

TEST_F(ScatterElementsTest, EmptyIndicesAndZeroSizedDims) {
  Rng rng(6);
  struct Empty {
    Shape data;
    Shape indices;
    int64_t axis;
  };
  const Empty cases[] = {
      {{3, 4}, {0, 4}, 0},
      {{3, 4}, {3, 0}, 0},
      {{3, 4}, {0, 0}, 1},
      {{3, 0}, {3, 0}, 1},
      {{3, 0}, {0, 5}, 1},
      {{0}, {0}, -1},
      {{3, 0, 2}, {5, 0, 2}, 0},
      {{2, 3}, {1, 0}, 0},                 // empty indices along a non-axis dim, data
                                           // not empty
      {{0, int64_t(1) << 33}, {0, 3}, 1},  // no indices to check: an axis beyond the 32-bit check is no obstacle
  };
  for (const Empty& e : cases) {
    for (DataType dtype : {DataType::kFloat32, DataType::kUInt8, DataType::kString}) {
      for (Reduction reduction : {Reduction::kNone, Reduction::kAdd}) {
        if (reduction != Reduction::kNone && dtype != DataType::kFloat32) continue;
        const DataType index_type = dtype == DataType::kUInt8 ? DataType::kInt32 : DataType::kInt64;
        ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
            context(), {reductionValues(rng, dtype, e.data), indexTensor(index_type, e.indices, {}),
                        reductionValues(rng, dtype, e.indices), e.axis, reduction}));
      }
    }
  }
}

TEST_F(ScatterElementsTest, SubWordTargetsAlongEveryAxis) {
  // 1- and 2-byte elements: targets in one 32-bit word receive updates from different invocations.
  Rng rng(7);
  for (int64_t inner = 1; inner <= 9; ++inner) {
    for (DataType dtype : {DataType::kInt8, DataType::kBool, DataType::kBFloat16}) {
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
          context(), {randomTensor(rng, dtype, {5, inner}), randomIndices(rng, DataType::kInt32, {7, inner}, 5),
                      randomTensor(rng, dtype, {7, inner}), 0, Reduction::kNone}));
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
          context(), {randomTensor(rng, dtype, {3, inner}), randomIndices(rng, DataType::kInt64, {3, inner + 2}, inner),
                      randomTensor(rng, dtype, {3, inner + 2}), -1, Reduction::kNone}));
    }
  }
}

TEST_F(ScatterElementsTest, ManyElements) {
  // More updates than a single small dispatch covers; uniform targets and then duplicate-heavy ones.
  Rng rng(10);
  const ScatterCase uniform{randomTensor(rng, DataType::kFloat32, {301, 257}),
                            randomIndices(rng, DataType::kInt32, {301, 257}, 301),
                            randomTensor(rng, DataType::kFloat32, {301, 257}), 0, Reduction::kNone};
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), uniform));
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), {reductionValues(rng, DataType::kFloat32, {301, 257}, ValueMix::kNormalsOnly),
                  randomIndices(rng, DataType::kInt64, {301, 257}, 3),
                  reductionValues(rng, DataType::kFloat32, {301, 257}, ValueMix::kNormalsOnly), 1, Reduction::kAdd}));
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), {randomTensor(rng, DataType::kUInt8, {257, 301}), randomIndices(rng, DataType::kInt64, {257, 301}, 2),
                  randomTensor(rng, DataType::kUInt8, {257, 301}), 1, Reduction::kNone}));
}

// More than 2^16 updates along one line of the axis, to few targets: every one counts, in order (a
// kernel that walks a line in one invocation must not stop early; llvmpipe, for one, ends any shader
// loop after 65535 iterations).
TEST_F(ScatterElementsTest, LinesLongerThan65536Updates) {
  Rng rng(70000);
  for (Reduction reduction : {Reduction::kNone, Reduction::kAdd, Reduction::kMax}) {
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), {randomTensor(rng, DataType::kInt32, {3, 2}), randomIndices(rng, DataType::kInt32, {70000, 2}, 3),
                    randomTensor(rng, DataType::kInt32, {70000, 2}), 0, reduction}));
  }
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), {reductionValues(rng, DataType::kFloat32, {2, 5}, ValueMix::kNormalsOnly),
                  randomIndices(rng, DataType::kInt64, {2, 66000}, 5),
                  reductionValues(rng, DataType::kFloat32, {2, 66000}, ValueMix::kNormalsOnly), -1, Reduction::kAdd}));
}

// A vector of more updates than Tuning::max_single_line_walk_updates on SwiftShader (2^19), three
// writers per target on average: the winner table on every device's own tuning, its claims racing
// across hundreds of workgroups, and still the last writer wins.
TEST_F(ScatterElementsTest, AVectorOfManyUpdatesKeepsTheLastWriter) {
  Rng rng(600000);
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(),
      {randomTensor(rng, DataType::kFloat32, {200003}), randomIndices(rng, DataType::kInt32, {600000}, 200003),
       randomTensor(rng, DataType::kFloat32, {600000}), 0, Reduction::kNone}));
}

// Float32 and complex64 adds onto a vector with many updates per element (DeviceInfo::
// min_float32_add_fold_duplicates: SwiftShader folds them by owner from 4 each, where it walks every
// line otherwise), on every device's own tuning: 6000 updates onto 61 elements and onto 1500 (4
// each), order-sensitive, and the bytes of the walk.
TEST_F(ScatterElementsTest, DuplicateRichVectorAddsFoldInIndexOrder) {
  Rng rng(0xd0b1e);
  for (DataType dtype : {DataType::kFloat32, DataType::kComplex64}) {
    for (const int64_t targets : {int64_t{61}, int64_t{1500}}) {
      SCOPED_TRACE(std::string(dataTypeName(dtype)) + " onto " + std::to_string(targets));
      const ScatterCase c{smallExactValues(dtype, {targets}), randomIndices(rng, DataType::kInt64, {6000}, targets),
                          orderSensitiveUpdates(rng, dtype, {6000}), 0, Reduction::kAdd};
      ASSERT_TRUE(orderChangesTheResult(c.op(context()), c.inputs(), rng));
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c));
    }
  }
  EXPECT_EQ(context().validationMessageCount(), 0u) << context().firstValidationMessage();
}

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
        const ScatterCase c{
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

// Reduction none through the winner table (claim, then every update at once), which a device runs
// below Tuning::min_walk_lines lines; here on contexts that never walk, whatever each driver's own
// threshold: every type but strings (no kernel) x both index types x ranks 1-3 x random axes,
// duplicate-heavy in two cases of three; 1000 writers to one target and to four neighbours sharing a
// word; and 1 KiB bindings, so the table serves updates, indices and outputs in several windows.
TEST_F(ScatterElementsTest, WinnerTableMatchesReference) {
  ContextOptions options;
  options.overrides.min_walk_lines = UINT64_MAX;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> table, makeContext(options));
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
          const ScatterCase c =
              randomCase(rng, dtype, index_type, static_cast<size_t>(r), axis, Reduction::kNone, n % 3 != 0, 600);
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

  options.overrides.max_binding_bytes = 1024;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> windows, makeContext(options));
  for (DataType dtype : {DataType::kUInt8, DataType::kInt16, DataType::kFloat32, DataType::kUInt64}) {
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      SCOPED_TRACE(std::string(dataTypeName(dtype)) + " windows, case " + std::to_string(n));
      const int64_t r = 1 + static_cast<int64_t>(n % 3);
      const int64_t axis = std::uniform_int_distribution<int64_t>(-r, r - 1)(rng);
      const ScatterCase c =
          randomCase(rng, dtype, index_type, static_cast<size_t>(r), axis, Reduction::kNone, n % 2 == 0, 200);
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
  ContextOptions options;
  options.overrides.min_walk_lines = UINT64_MAX;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> fold, makeContext(options));
  Rng rng(0xf01d);
  size_t n = 0;
  for (const auto& [dtype, reduction] : definedReductionPairs()) {
    SCOPED_TRACE(std::string(dataTypeName(dtype)) + " " + reductionName(reduction));
    for (int round = 0; round < 2; ++round, ++n) {
      const int64_t r = 1 + static_cast<int64_t>(rng() % 3);
      const int64_t axis = std::uniform_int_distribution<int64_t>(-r, r - 1)(rng);
      const DataType index_type = n % 2 ? DataType::kInt64 : DataType::kInt32;
      const ScatterCase c =
          randomCase(rng, dtype, index_type, static_cast<size_t>(r), axis, reduction, round == 0, 600);
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*fold, c, alternating(n)));
    }
  }
  const std::vector<int64_t> mixed = heavyAndLightTargets(rng, kMixedUpdates, kMixedTargets);
  for (DataType dtype : {DataType::kFloat32, DataType::kFloat16, DataType::kFloat64}) {
    const ScatterCase c{smallExactValues(dtype, {kMixedTargets}), indexTensor(DataType::kInt64, {kMixedUpdates}, mixed),
                        orderSensitiveUpdates(rng, dtype, {kMixedUpdates}), 0, Reduction::kAdd};
    ASSERT_TRUE(orderChangesTheResult(c.op(*fold), c.inputs(), rng)) << dataTypeName(dtype);
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*fold, c));
  }
  const std::vector<int64_t> ramp = everyBucketSize(rng, kRampTargets);
  const int64_t ramp_count = static_cast<int64_t>(ramp.size());
  for (DataType dtype : {DataType::kFloat32, DataType::kBFloat16, DataType::kFloat64}) {
    const ScatterCase c{smallExactValues(dtype, {kRampTargets}), indexTensor(DataType::kInt32, {ramp_count}, ramp),
                        orderSensitiveUpdates(rng, dtype, {ramp_count}), 0, Reduction::kAdd};
    ASSERT_TRUE(orderChangesTheResult(c.op(*fold), c.inputs(), rng)) << dataTypeName(dtype);
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(*fold, c));
  }
  std::vector<int64_t> few(kFewHeavyTargetUpdates);
  for (int64_t& v : few) v = static_cast<int64_t>(rng() % 7);
  for (DataType dtype : {DataType::kInt8, DataType::kUInt16, DataType::kFloat32, DataType::kInt64}) {
    SCOPED_TRACE(dataTypeName(dtype));
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        *fold, {randomTensor(rng, dtype, {7}), indexTensor(DataType::kInt32, {kFewHeavyTargetUpdates}, few),
                reductionValues(rng, dtype, {kFewHeavyTargetUpdates}), 0, Reduction::kAdd}));
  }
  for (const ManyHeavyTargets& h : manyHeavyTargetCases(rng, tuningOf(*fold).workgroup_size)) {
    SCOPED_TRACE(h.description);
    const ScatterCase c{randomTensor(rng, h.dtype, {h.targets}), indexTensor(DataType::kInt64, {h.updates}, h.indices),
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
  ContextOptions options;
  options.overrides.max_binding_bytes = 65536;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> small_bindings, makeContext(options));
  Rng rng(0x9e2);
  const Reduction reductions[] = {Reduction::kNone, Reduction::kAdd, Reduction::kMul, Reduction::kMax, Reduction::kMin};
  const DataType types[] = {DataType::kFloat32,  DataType::kUInt8,   DataType::kFloat16, DataType::kInt64,
                            DataType::kBFloat16, DataType::kFloat64, DataType::kInt32};
  size_t n = 0;
  for (int64_t rank = 9; rank <= 11; ++rank) {
    for (const int64_t axis : {int64_t{0}, int64_t{1}, rank / 2, int64_t{-1}, -rank}) {
      ScatterCase c;
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
    const ScatterCase c =
        randomCase(rng, w.dtype, w.index_type, static_cast<size_t>(r), axis, w.reduction, w.n % 2 == 0, 1000);
    expectAllFormsMatchReference(w.context, c, alternating(w.n));
  });
}

// Data larger than the device's real binding limit (lavapipe: 128 MiB; elsewhere a 128 MiB cap): each
// update along axis 0 lands in a random row, across every output window, added out of place after a
// windowed copy, then in place.
TEST_F(ScatterElementsTest, DataLargerThanMaxStorageBufferRange) {
  std::unique_ptr<Context> capped;
  VKINDEX_ASSERT_OK_AND_ASSIGN(Context * ctx, contextWithModestBindings(capped));
  const uint64_t limit = ctx->device().max_storage_buffer_range;
  const int64_t row_floats = 1024;
  const int64_t rows = rowsPastTheBindingLimit(*ctx, row_floats * 4);
  Rng rng(0x4b6);
  const HostTensor data = randomTensor(rng, DataType::kInt32, {rows, row_floats});
  ASSERT_GT(data.bytes.size(), limit);
  const HostTensor indices = randomIndices(rng, DataType::kInt64, {24, row_floats}, rows);
  const HostTensor updates = randomTensor(rng, DataType::kInt32, {24, row_floats});
  const ReferenceResult expected = referenceScatterElements(data, indices, updates, 0, Reduction::kAdd);
  ASSERT_FALSE(expected.bad_index_position);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(*ctx, data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(*ctx, indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor update_tensor, toDevice(*ctx, updates));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output,
                               scatterElements(*ctx, data_tensor, index_tensor, update_tensor, 0, Reduction::kAdd));
  EXPECT_TRUE(holds(output, expected.output));
  VKINDEX_ASSERT_OK(scatterElementsInPlace(*ctx, data_tensor, index_tensor, update_tensor, 0, Reduction::kAdd));
  EXPECT_TRUE(holds(data_tensor, expected.output));
  EXPECT_EQ(ctx->validationMessageCount(), 0u) << ctx->firstValidationMessage();
}

}  // namespace
}  // namespace vkindex::test
