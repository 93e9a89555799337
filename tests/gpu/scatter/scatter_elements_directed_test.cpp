// Directed ScatterElements cases against the CPU reference, byte-exact, in every form
// (support/scatter_forms.hpp): the ONNX examples, integer wrap and signedness, float max/min and
// float32 subnormal/NaN rules written out by hand; float32 add at every edge of the device's adder;
// sums that only index order gets right for float32, float16, bfloat16, double and complex64 (each
// proved order-sensitive on the host first); 1000 writers to one target, and a few in one dispatch; 20
// repeated runs (float32, double, float16); strings, empty indices, zero-sized dims, sub-word targets,
// more than one dispatch and lines longer than 2^16 updates. Pairs the device's kernels do not run yet
// fail with kUnsupported.
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
  std::vector<ScatterElementsCase> cases;
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
  for (const ScatterElementsCase& c : cases) ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c));
}

// 1000 updates to one target: the last in index order wins, also for sub-word elements whose
// neighbours in the same 32-bit word receive their own 1000 updates, and for strings.
TEST_F(ScatterElementsTest, LastOfAThousandWritersWins) {
  Rng rng(1000);
  for (DataType dtype : kLastWriterTypes) {
    // One target along axis 0 of a [5, 1] tensor, written as 2 and -3.
    const std::vector<int64_t> one_target = oneTargetOfFive(rng, 1000);
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

// A few updates in place (at most plan::kMaxSelfCheckedComponents indices) run as one self-checking
// walk (scatter_elements_move_checked): duplicates still leave the last writer, along either axis, for
// every width; the other forms keep their check pass.
TEST_F(ScatterElementsTest, AFewDuplicateUpdatesKeepTheLastWriter) {
  Rng rng(16);
  for (DataType dtype : kLastWriterTypes) {
    SCOPED_TRACE(dataTypeName(dtype));
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), {randomTensor(rng, dtype, {2, 9}), indexTensor(DataType::kInt64, {1, 8}, {3, -6, 0, 8, 3, 7, 3, -1}),
                    randomTensor(rng, dtype, {1, 8}), 1, Reduction::kNone}));
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), {randomTensor(rng, dtype, {4, 3}), indexTensor(DataType::kInt32, {4, 2}, {1, 0, -3, 2, 1, 0, 3, 1}),
                    randomTensor(rng, dtype, {4, 2}), 0, Reduction::kNone}));
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
    for (const EmptyTensorKind& k : emptyTensorKinds(Reduction::kAdd)) {
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
          context(), {reductionValues(rng, k.dtype, e.data), indexTensor(k.index_type, e.indices, {}),
                      reductionValues(rng, k.dtype, e.indices), e.axis, k.reduction}));
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
  const ScatterElementsCase uniform{randomTensor(rng, DataType::kFloat32, {301, 257}),
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
      const ScatterElementsCase c{smallExactValues(dtype, {targets}),
                                  randomIndices(rng, DataType::kInt64, {6000}, targets),
                                  orderSensitiveUpdates(rng, dtype, {6000}), 0, Reduction::kAdd};
      ASSERT_TRUE(orderChangesTheResult(c.op(context()), c.inputs(), rng));
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c));
    }
  }
  EXPECT_EQ(context().validationMessageCount(), 0u) << context().firstValidationMessage();
}

}  // namespace
}  // namespace vkindex::test
