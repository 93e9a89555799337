// Bad input to GatherND: exact status codes and messages (the agreed wording), and proof that a bad
// index value writes nothing, with and without batch dims. This binary also runs under GPU-assisted
// validation (see tests/CMakeLists.txt): silence there shows that hostile tuples never make a shader
// touch memory outside its buffers.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "support/error_checks.hpp"
#include "support/gather_forms.hpp"
#include "support/typed_tensors.hpp"

namespace vkindex::test {
namespace {

// expectInvalid checks the caller's-output form too where the test names an output shape.
using GatherNDErrorsTest = GatherErrorsFixture<gatherNDOperator>;

// --- Host-side checks, in the agreed order ----------------------------------------------------------

TEST_F(GatherNDErrorsTest, WrongIndexType) {
  const Shape out_shape = {2};
  for (DataType bad : {DataType::kFloat32, DataType::kUInt32, DataType::kInt16, DataType::kUInt64, DataType::kInt8}) {
    Rng rng(1);
    expectInvalid(
        floats({4}), randomTensor(rng, bad, {2, 1}), 0,
        std::string("GatherND: input 'indices' has type ") + dataTypeName(bad) + "; allowed types are int32 and int64",
        &out_shape);
  }
  // The index type is checked first: before the ranks.
  Rng rng(2);
  expectInvalid(floats({}), randomTensor(rng, DataType::kFloat64, {}), 0,
                "GatherND: input 'indices' has type double; allowed types are int32 and int64");
}

TEST_F(GatherNDErrorsTest, ScalarDataOrIndices) {
  const std::string scalar_data = "GatherND: input 'data' must have rank >= 1, got a scalar (rank 0)";
  expectInvalid(floats({}), indexTensor(DataType::kInt64, {1}, {0}), 0, scalar_data);
  expectInvalid(floats({}), indexTensor(DataType::kInt32, {}, {0}), 0, scalar_data);  // data first
  expectInvalid(floats({3}), indexTensor(DataType::kInt64, {}, {0}), 0,
                "GatherND: input 'indices' must have rank >= 1, got a scalar (rank 0)");
}

TEST_F(GatherNDErrorsTest, BatchDimsOutOfRange) {
  const HostTensor data = floats({2, 3, 4});
  const HostTensor indices = indexTensor(DataType::kInt64, {2, 3, 1}, {0, 0, 0, 0, 0, 0});
  for (int64_t b : {int64_t{3}, int64_t{-1}, int64_t{100}, INT64_MIN, INT64_MAX}) {
    expectInvalid(data, indices, b,
                  "GatherND: attribute 'batch_dims' = " + std::to_string(b) +
                      " is out of range for input 'data' of rank 3 and input 'indices' of rank 3 (allowed [0, 2])");
  }
  // min(r, q) is the smaller rank, either way round.
  expectInvalid(data, indexTensor(DataType::kInt32, {2, 1}, {0, 0}), 2,
                "GatherND: attribute 'batch_dims' = 2 is out of range for input 'data' of rank 3 and input 'indices' "
                "of rank 2 (allowed [0, 1])");
  expectInvalid(floats({2}), indexTensor(DataType::kInt64, {2, 1}, {0, 0}), 1,
                "GatherND: attribute 'batch_dims' = 1 is out of range for input 'data' of rank 1 and input 'indices' "
                "of rank 2 (allowed [0, 0])");
  // Before the batch dims are compared.
  expectInvalid(data, indexTensor(DataType::kInt64, {5, 1}, {0, 0, 0, 0, 0}), -1,
                "GatherND: attribute 'batch_dims' = -1 is out of range for input 'data' of rank 3 and input 'indices' "
                "of rank 2 (allowed [0, 1])");
}

TEST_F(GatherNDErrorsTest, BatchDimsDiffer) {
  const HostTensor data = floats({2, 3, 4});
  expectInvalid(data, indexTensor(DataType::kInt64, {2, 4, 1}, std::vector<int64_t>(8, 0)), 2,
                "GatherND: input 'indices' dim 1 = 4 differs from input 'data' dim 1 = 3 (the first 2 batch dims must "
                "be equal)");
  // Smaller differs too (unlike GatherElements, batch dims must be equal).
  expectInvalid(data, indexTensor(DataType::kInt32, {1, 1}, {0}), 1,
                "GatherND: input 'indices' dim 0 = 1 differs from input 'data' dim 0 = 2 (the first 1 batch dims must "
                "be equal)");
  // Before the tuple length is checked.
  expectInvalid(data, indexTensor(DataType::kInt64, {3, 9}, std::vector<int64_t>(27, 0)), 1,
                "GatherND: input 'indices' dim 0 = 3 differs from input 'data' dim 0 = 2 (the first 1 batch dims must "
                "be equal)");
}

TEST_F(GatherNDErrorsTest, TupleLengthOutOfRange) {
  const HostTensor data = floats({2, 3, 4});
  expectInvalid(data, indexTensor(DataType::kInt64, {5, 4}, std::vector<int64_t>(20, 0)), 0,
                "GatherND: the last dim of input 'indices' is 4, the length of each index tuple, which must lie in "
                "[1, 3] (data's rank 3 minus batch_dims 0)");
  expectInvalid(data, indexTensor(DataType::kInt32, {5, 0}, {}), 0,
                "GatherND: the last dim of input 'indices' is 0, the length of each index tuple, which must lie in "
                "[1, 3] (data's rank 3 minus batch_dims 0)");
  expectInvalid(data, indexTensor(DataType::kInt64, {2, 3}, std::vector<int64_t>(6, 0)), 1,
                "GatherND: the last dim of input 'indices' is 3, the length of each index tuple, which must lie in "
                "[1, 2] (data's rank 3 minus batch_dims 1)");
  expectInvalid(floats({3}), indexTensor(DataType::kInt64, {2}, {0, 0}), 0,
                "GatherND: the last dim of input 'indices' is 2, the length of each index tuple, which must lie in "
                "[1, 1] (data's rank 1 minus batch_dims 0)");
}

// --- The caller's output ----------------------------------------------------------------------------

TEST_F(GatherNDErrorsTest, OutputOfWrongShapeOrTypeIsRejected) {
  // batch_dims 1, tuples of 1: output [4, 2] + [3].
  expectGatherOutputRejected(context(), gatherNDOperator(1), floats({4, 2, 3}),
                             indexTensor(DataType::kInt32, {4, 2, 1}, {0, 1, 1, 0, 0, 0, 1, 1}), {4, 2},
                             "GatherND: the output has shape [4, 2], expected [4, 2, 3]", DataType::kUInt32,
                             "GatherND: the output has type uint32 but input 'data' has type float");
  // A rank-1 indices tensor addressing whole elements: the expected shape is [].
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context(), floats({4, 2, 3})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuple, toDevice(context(), indexTensor(DataType::kInt64, {3}, {0, 1, 2})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor not_scalar, Tensor::create(context(), DataType::kFloat32, {1}));
  Status status = gatherND(context(), data, tuple, 0, not_scalar);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "GatherND: the output has shape [1], expected []");
}

TEST_F(GatherNDErrorsTest, OutputOverlappingAnInputIsRejected) {
  expectGatherOverlapRejected(context(), gatherNDOperator(0), "GatherND", {4, 1});
}

// --- Device-side checks: index values ----------------------------------------------------------------

// Values outside [-5, 4]: just past both ends, the types' extremes, 2^32 + 1 and -2^32 + 1 (whose low
// word alone would look valid) and 2^32 (low word 0).
std::vector<HostileIndex> badValues() { return hostileIndexCases(5); }

TEST_F(GatherNDErrorsTest, BadIndexValuesAreReportedAndNothingIsWritten) {
  // Data [5, 5, 2]; 2x3 tuples of 2 (all valid: components in [-5, 4]), one bad value planted in
  // component 0 or 1 of tuple [1, 0]. Output [2, 3, 2].
  for (const HostileIndex& c : badValues()) {
    for (size_t component : {size_t{0}, size_t{1}}) {
      const HostTensor indices = indexTensor(c.index_type, {2, 3, 2}, tuplesWithOneValue(component, c.value));
      ASSERT_EQ(referenceGatherND(floats({5, 5, 2}), indices, 0).bad_index_position, 6 + component);
      ASSERT_NO_FATAL_FAILURE(expectOutOfRange(floats({5, 5, 2}), indices, 0));
    }
  }
}

TEST_F(GatherNDErrorsTest, BadIndexValuesWithBatchDimsWriteNothing) {
  // The example of the messages list, verbatim: batch_dims 1, so component 1 indexes data dim 2.
  expectOutOfRange(
      floats({2, 3, 5}), indexTensor(DataType::kInt64, {2, 2, 2}, {0, 4, 2, -5, 2, 7, 1, 1}), 1,
      "GatherND: indices[1, 0] (component 1) = 7 is out of range for data dim 2 of size 5 (allowed [-5, 4])");
  // Every hostile value, with batch dims 1 and 2 (output slices and whole elements).
  for (const HostileIndex& c : badValues()) {
    std::vector<int64_t> values = {0, 4, 2, -5, 2, 1, 1, 1};
    values[5] = c.value;
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(floats({2, 3, 5}), indexTensor(c.index_type, {2, 2, 2}, values), 1));
    std::vector<int64_t> ones(2 * 3 * 1, -5);
    ones[4] = c.value;
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(floats({2, 3, 5}), indexTensor(c.index_type, {2, 3, 1}, ones), 2));
  }
}

TEST_F(GatherNDErrorsTest, FirstBadElementWins) {
  // The first bad ELEMENT in row-major order, not the first bad component nor the most wrong value:
  // tuple [0, 1] has a bad component 2, tuple [1, 0] a bad component 0 (and [1, 2] another).
  const std::vector<int64_t> values = laterBadTupleIndices();
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    expectOutOfRange(
        floats({4, 5, 6, 2}), indexTensor(index_type, {2, 3, 3}, values), 0,
        "GatherND: indices[0, 1] (component 2) = -7 is out of range for data dim 2 of size 6 (allowed [-6, 5])");
  }
}

TEST_F(GatherNDErrorsTest, BadIndexInRankOneIndices) {
  // A single tuple: its coordinates are empty.
  expectOutOfRange(floats({3, 4}), indexTensor(DataType::kInt32, {2}, {1, 4}), 0,
                   "GatherND: indices[] (component 1) = 4 is out of range for data dim 1 of size 4 (allowed [-4, 3])");
  expectOutOfRange(floats({3, 4}), indexTensor(DataType::kInt64, {1}, {-4}), 0,
                   "GatherND: indices[] (component 0) = -4 is out of range for data dim 0 of size 3 (allowed [-3, 2])");
}

TEST_F(GatherNDErrorsTest, EmptyDimAdmitsNoIndex) {
  expectOutOfRange(
      floats({2, 3, 0}), indexTensor(DataType::kInt64, {1, 3}, {0, 0, 0}), 0,
      "GatherND: indices[0] (component 2) = 0 is out of range for data dim 2 of size 0 (an empty axis admits no "
      "index)");
  // With batch_dims 1: the tuple's component 0 indexes data dim 1.
  expectOutOfRange(
      floats({2, 0, 3}), indexTensor(DataType::kInt32, {2, 1}, {-1, 0}), 1,
      "GatherND: indices[0] (component 0) = -1 is out of range for data dim 1 of size 0 (an empty axis admits "
      "no index)");
}

TEST_F(GatherNDErrorsTest, BadIndexIntoEmptySlicesIsStillReported) {
  // The output has no bytes (the slice dim is 0) but the tuples are still validated.
  expectOutOfRange(floats({4, 0}), indexTensor(DataType::kInt64, {2, 1}, {1, 4}), 0,
                   "GatherND: indices[1] (component 0) = 4 is out of range for data dim 0 of size 4 (allowed [-4, 3])");
}

TEST_F(GatherNDErrorsTest, BadIndexWithSubWordSlicesWritesNothing) {
  Rng rng(3);
  for (DataType dtype : {DataType::kUInt8, DataType::kBool, DataType::kBFloat16}) {
    const HostTensor data = randomTensor(rng, dtype, {6, 3});
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(data, indexTensor(DataType::kInt32, {5, 1}, {0, 1, -6, 5, 6}), 0));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(data, indexTensor(DataType::kInt64, {3, 2}, {0, 1, 5, 2, 3, -4}), 0));
  }
}

TEST_F(GatherNDErrorsTest, BadIndexInALaterIndicesWindowIsReported) {
  // 4 KiB bindings split 1000 tuples of 3 int64 components into several windows; the first bad
  // element is in a later window, and a second bad one after it must not win.
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> ctx, makeContextWithBindings(4096));
  std::vector<int64_t> values = steppedIndexValues(1000 * 3, 5);
  values[800 * 3 + 1] = 5;
  values[900 * 3 + 0] = -6;
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    expectOutOfRange(
        *ctx, floats({5, 5, 5, 2}), indexTensor(index_type, {1000, 3}, values), 0,
        "GatherND: indices[800] (component 1) = 5 is out of range for data dim 1 of size 5 (allowed [-5, 4])");
  }
  EXPECT_EQ(ctx->validationMessageCount(), 0u) << ctx->firstValidationMessage();
}

TEST_F(GatherNDErrorsTest, BadIndexIntoStringsLeavesTheOutputStringsUntouched) {
  expectGatherKeepsOutputStrings(
      context(), gatherNDOperator(0), stringTensor({2, 2}, {"a", "b", "c", "d"}),
      indexTensor(DataType::kInt64, {2, 2}, {1, -2, 0, 2}),
      "GatherND: indices[1] (component 1) = 2 is out of range for data dim 1 of size 2 (allowed [-2, 1])");
}

// Random shapes, types, batch dims and tuple lengths with 1-3 bad values planted at random elements:
// the message names the first one exactly (as the reference finds it) and the output keeps its
// canary. Half the cases run with 4 KiB bindings, so bad values land in later windows too.
TEST_F(GatherNDErrorsTest, RandomBadIndicesAreReportedExactlyAndWriteNothing) {
  Rng rng(0xbad9d);
  forEachBadIndexRound(context(), rng, [&](const BadIndexRound& round) {
    const size_t r = 1 + rng() % 4;
    const size_t b = rng() % r;
    const size_t k = 1 + rng() % (r - b);
    Shape data_shape = randomShape(rng, r, 600);
    for (int64_t& dim : data_shape) dim = std::max<int64_t>(dim, 1);
    Shape index_shape(data_shape.begin(), data_shape.begin() + static_cast<std::ptrdiff_t>(b));
    index_shape.push_back(1 + static_cast<int64_t>(rng() % 200));
    index_shape.push_back(static_cast<int64_t>(k));
    const HostTensor valid = randomTuples(rng, DataType::kInt64, index_shape, data_shape, b);
    std::vector<int64_t> values;
    for (uint64_t e = 0; e < valid.elementCount(); ++e) values.push_back(indexAt(valid, e));
    for (int planted = 1 + static_cast<int>(rng() % 3); planted > 0; --planted) {
      const uint64_t e = rng() % values.size();
      const std::vector<int64_t> bad_values = hostileIndexValues(round.index_type, data_shape[b + e % k]);
      values[e] = bad_values[rng() % bad_values.size()];
    }
    const HostTensor data = randomTensor(rng, round.dtype, data_shape);
    const HostTensor indices = indexTensor(round.index_type, index_shape, values);
    SCOPED_TRACE("round " + std::to_string(round.round) + ": " + describe(data) + ", " + describe(indices) +
                 ", batch_dims " + std::to_string(b));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(round.context, data, indices, static_cast<int64_t>(b)));
  });
}

// Boundary values are valid and must be read from exactly the first and last slices of each dim.
// Only empty data can have a dim of 2^32 or more, and then the check is all that runs, comparing in
// 64 bits (check_indices_wide): tuples into data [2^33, 0] and [3, 2^32 + 1, 0].
TEST_F(GatherNDErrorsTest, IndicesIntoADimOf2To32OrMoreAreCheckedIn64Bits) {
  const int64_t s = int64_t(1) << 33, t = (int64_t(1) << 32) + 1;
  EXPECT_TRUE(intoCanary(floats({s, 0}), indexTensor(DataType::kInt64, {3, 1}, {s - 1, -s, 0}), 0).ok());
  EXPECT_TRUE(intoCanary(floats({3, t, 0}), indexTensor(DataType::kInt64, {2, 2}, {2, t - 1, -3, -t}), 0).ok());
  for (int64_t bad : {s, -s - 1, INT64_MIN, INT64_MAX}) {
    ASSERT_NO_FATAL_FAILURE(
        expectOutOfRange(floats({s, 0}), indexTensor(DataType::kInt64, {3, 1}, {s - 1, -s, bad}), 0));
  }
  // The second component's extent is the long one; a value past it, then one past the short first.
  ASSERT_NO_FATAL_FAILURE(
      expectOutOfRange(floats({3, t, 0}), indexTensor(DataType::kInt64, {2, 2}, {2, t - 1, -3, t}), 0));
  ASSERT_NO_FATAL_FAILURE(
      expectOutOfRange(floats({3, t, 0}), indexTensor(DataType::kInt64, {2, 2}, {2, t - 1, 3, 0}), 0));
  expectOutOfRange(floats({3, t, 0}), indexTensor(DataType::kInt64, {2, 2}, {2, -t - 1, 0, 0}), 0,
                   "GatherND: indices[0] (component 1) = -4294967298 is out of range for data dim 1 of "
                   "size 4294967297 (allowed [-4294967297, 4294967296])");
}

TEST_F(GatherNDErrorsTest, BoundaryIndicesAreValid) {
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    expectGatherMatchesReference(context(), gatherNDOperator(0), floats({5, 3, 2}),
                                 indexTensor(index_type, {4, 2}, {4, -3, -5, 2, 0, -1, -1, 0}));
  }
}

}  // namespace
}  // namespace vkindex::test
