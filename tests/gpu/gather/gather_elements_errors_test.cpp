// Bad input to GatherElements: exact status codes and messages (the agreed wording), and proof that a
// bad index value writes nothing. This binary also runs under GPU-assisted validation (see
// tests/CMakeLists.txt): silence there shows that hostile indices never make a shader touch memory
// outside its buffers.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "support/error_checks.hpp"
#include "support/gather_forms.hpp"
#include "support/typed_tensors.hpp"

namespace vkindex::test {
namespace {

class GatherElementsErrorsTest : public GatherErrorsFixture<gatherElementsOperator> {
 protected:
  // A host-side error: the same code and message from the new-output and the caller's-output forms
  // (into a canary of indices' shape).
  void expectInvalid(const HostTensor& data, const HostTensor& indices, int64_t axis, const std::string& message) {
    GatherErrorsFixture::expectInvalid(data, indices, axis, message, &indices.shape);
  }
};

// --- Host-side checks, in the agreed order ----------------------------------------------------------

TEST_F(GatherElementsErrorsTest, WrongIndexType) {
  for (DataType bad : {DataType::kFloat32, DataType::kUInt32, DataType::kInt16, DataType::kUInt64, DataType::kInt8}) {
    Rng rng(1);
    expectInvalid(floats({4}), randomTensor(rng, bad, {2}), 0,
                  std::string("GatherElements: input 'indices' has type ") + dataTypeName(bad) +
                      "; allowed types are int32 and int64");
  }
  // The index type is checked first: before data's rank.
  Rng rng(2);
  expectInvalid(floats({}), randomTensor(rng, DataType::kFloat64, {}), 0,
                "GatherElements: input 'indices' has type double; allowed types are int32 and int64");
}

TEST_F(GatherElementsErrorsTest, ScalarData) {
  const std::string message = "GatherElements: input 'data' must have rank >= 1, got a scalar (rank 0)";
  expectInvalid(floats({}), indexTensor(DataType::kInt64, {}, {0}), 0, message);
  // Before the rank agreement check.
  expectInvalid(floats({}), indexTensor(DataType::kInt32, {1}, {0}), 0, message);
}

TEST_F(GatherElementsErrorsTest, RanksDiffer) {
  expectInvalid(floats({2, 3}), indexTensor(DataType::kInt64, {2}, {0, 1}), 0,
                "GatherElements: input 'indices' has rank 1 but input 'data' has rank 2; they must be equal");
  expectInvalid(floats({3}), indexTensor(DataType::kInt32, {}, {0}), 0,
                "GatherElements: input 'indices' has rank 0 but input 'data' has rank 1; they must be equal");
  expectInvalid(floats({2, 1, 2}), indexTensor(DataType::kInt64, {1, 1, 1, 1}, {0}), 0,
                "GatherElements: input 'indices' has rank 4 but input 'data' has rank 3; they must be equal");
  // Before the axis check.
  expectInvalid(floats({2, 3}), indexTensor(DataType::kInt64, {2}, {0, 1}), 7,
                "GatherElements: input 'indices' has rank 1 but input 'data' has rank 2; they must be equal");
}

TEST_F(GatherElementsErrorsTest, AxisOutOfRange) {
  for (int64_t axis : {int64_t{2}, int64_t{-3}, int64_t{100}, INT64_MIN, INT64_MAX}) {
    expectInvalid(floats({2, 3}), indexTensor(DataType::kInt64, {2, 3}, {0, 0, 0, 0, 0, 0}), axis,
                  "GatherElements: attribute 'axis' = " + std::to_string(axis) +
                      " is out of range for input 'data' of rank 2 (allowed [-2, 1])");
  }
  expectInvalid(floats({4}), indexTensor(DataType::kInt32, {1}, {0}), 1,
                "GatherElements: attribute 'axis' = 1 is out of range for input 'data' of rank 1 (allowed [-1, 0])");
}

TEST_F(GatherElementsErrorsTest, IndicesDimExceedsDatasOutsideTheAxis) {
  // dim 1 of indices (4) > data's (3); the axis (0, also given as -3) is printed normalized.
  std::vector<int64_t> zeros(2 * 4 * 4, 0);
  for (int64_t axis : {0, -3}) {
    expectInvalid(floats({2, 3, 4}), indexTensor(DataType::kInt64, {2, 4, 4}, zeros), axis,
                  "GatherElements: input 'indices' dim 1 = 4 exceeds input 'data' dim 1 = 3 (dims other than axis 0 "
                  "allow at most data's)");
  }
  // The last dim, with the axis in the middle.
  expectInvalid(floats({2, 3, 4}), indexTensor(DataType::kInt32, {2, 9, 5}, std::vector<int64_t>(90, 0)), -2,
                "GatherElements: input 'indices' dim 2 = 5 exceeds input 'data' dim 2 = 4 (dims other than axis 1 "
                "allow at most data's)");
  // A zero-sized data dim admits only a zero-sized indices dim there.
  expectInvalid(floats({2, 0}), indexTensor(DataType::kInt64, {1, 1}, {0}), 0,
                "GatherElements: input 'indices' dim 1 = 1 exceeds input 'data' dim 1 = 0 (dims other than axis 0 "
                "allow at most data's)");
}

// --- The caller's output ----------------------------------------------------------------------------

TEST_F(GatherElementsErrorsTest, OutputOfWrongShapeOrTypeIsRejected) {
  expectGatherOutputRejected(context(), gatherElementsOperator(0), floats({4, 2}),
                             indexTensor(DataType::kInt32, {3, 2}, {0, 1, 2, 3, -1, -4}), {2, 3},
                             "GatherElements: the output has shape [2, 3], expected [3, 2]", DataType::kInt32,
                             "GatherElements: the output has type int32 but input 'data' has type float");
}

TEST_F(GatherElementsErrorsTest, OutputOverlappingAnInputIsRejected) {
  expectGatherOverlapRejected(context(), gatherElementsOperator(0), "GatherElements", {4});
}

// --- Device-side checks: index values ----------------------------------------------------------------

TEST_F(GatherElementsErrorsTest, BadIndexValuesAreReportedAndNothingIsWritten) {
  // One bad value planted at [1, 0] of 2x3 indices into data [5, 3], along axis 0 (size 5) and along
  // axis -1 (size 3); the other values are valid for both.
  // Values outside [-5, 4]: just past both ends, the types' extremes, 2^32 + 1 and -2^32 + 1 (whose low
  // word alone would look valid) and 2^32 (low word 0).
  for (const HostileIndex& c : hostileIndexCases(5)) {
    const HostTensor indices = indexTensor(c.index_type, {2, 3}, {2, -3, 0, c.value, 1, -1});
    ASSERT_EQ(referenceGatherElements(floats({5, 3}), indices, 0).bad_index_position, 3u) << c.value;
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(floats({5, 3}), indices, 0));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(floats({5, 3}), indices, -1));
  }
  // The example of the messages list, verbatim.
  expectOutOfRange(floats({2, 3}), indexTensor(DataType::kInt64, {2, 2}, {0, 2, 5, 0}), 1,
                   "GatherElements: indices[1, 0] = 5 is out of range for axis 1 of size 3 (allowed [-3, 2])");
  expectOutOfRange(floats({2, 3}), indexTensor(DataType::kInt64, {2, 2}, {0, 2, 4294967297LL, 0}), 1,
                   "GatherElements: indices[1, 0] = 4294967297 is out of range for axis 1 of size 3 (allowed [-3, 2])");
}

TEST_F(GatherElementsErrorsTest, FirstBadPositionWins) {
  // Several bad values across 3-D indices; the smallest flat position is reported, whatever the
  // values (a later, "more wrong" value must not win).
  const std::vector<int64_t> values = laterBadElementIndices();
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    expectOutOfRange(floats({3, 6, 5}), indexTensor(index_type, {3, 4, 5}, values), 1,
                     "GatherElements: indices[1, 2, 3] = 7 is out of range for axis 1 of size 6 (allowed [-6, 5])");
  }
}

TEST_F(GatherElementsErrorsTest, BadIndexInRankOneIndices) {
  expectOutOfRange(floats({4}), indexTensor(DataType::kInt32, {6}, {0, 3, -4, -5, 9, 0}), -1,
                   "GatherElements: indices[3] = -5 is out of range for axis 0 of size 4 (allowed [-4, 3])");
}

TEST_F(GatherElementsErrorsTest, EmptyAxisAdmitsNoIndex) {
  // The axis dim of indices may exceed data's, even an empty one: then any value is out of range.
  expectOutOfRange(
      floats({2, 0}), indexTensor(DataType::kInt64, {1, 1}, {0}), 1,
      "GatherElements: indices[0, 0] = 0 is out of range for axis 1 of size 0 (an empty axis admits no index)");
  expectOutOfRange(
      floats({0, 3}), indexTensor(DataType::kInt32, {2, 3}, {-1, 0, 0, 0, 0, 0}), -2,
      "GatherElements: indices[0, 0] = -1 is out of range for axis 0 of size 0 (an empty axis admits no index)");
}

TEST_F(GatherElementsErrorsTest, BadIndexWithSubWordOutputsWritesNothing) {
  // 1- and 2-byte elements: output words are assembled from several elements; none may be written.
  Rng rng(3);
  for (DataType dtype : {DataType::kUInt8, DataType::kBool, DataType::kFloat16}) {
    ASSERT_NO_FATAL_FAILURE(
        expectOutOfRange(randomTensor(rng, dtype, {6, 3}),
                         indexTensor(DataType::kInt32, {5, 3}, {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 6, 0}), 0));
  }
}

TEST_F(GatherElementsErrorsTest, BadIndexInALaterIndicesWindowIsReported) {
  // 4 KiB bindings split 3000 int64 indices into several windows; the first bad one is in a later
  // window, and a second bad one after it must not win.
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> ctx, makeContextWithBindings(4096));
  std::vector<int64_t> values = steppedIndexValues(3000, 100);
  values[2 * 1000 + 123] = -101;
  values[2 * 1000 + 900] = 100;
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    expectOutOfRange(
        *ctx, floats({100, 3}), indexTensor(index_type, {1000, 3}, values), 0,
        "GatherElements: indices[707, 2] = -101 is out of range for axis 0 of size 100 (allowed [-100, 99])");
  }
  EXPECT_EQ(ctx->validationMessageCount(), 0u) << ctx->firstValidationMessage();
}

TEST_F(GatherElementsErrorsTest, BadIndexInALatePeeledBlockWritesNothing) {
  // Ten dims that cannot coalesce: the plan runs one kernel pass per block of output (the two
  // outermost dims peeled, the axis among them), all behind one check of every index. A bad index in
  // the last block is named exactly, and no block writes anything.
  Rng rng(10);
  const HostTensor data = randomTensor(rng, DataType::kFloat32, Shape(10, 3));
  const HostTensor valid = randomIndices(rng, DataType::kInt64, Shape(10, 2), 3);
  std::vector<int64_t> values(valid.elementCount());
  for (uint64_t i = 0; i < values.size(); ++i) values[i] = indexAt(valid, i);
  values[1000] = 3;
  values[1010] = -100;  // a later bad index does not win
  ASSERT_NO_FATAL_FAILURE(expectOutOfRange(context(), data, indexTensor(DataType::kInt64, Shape(10, 2), values), 0));
  values[1000] = 0;
  values[1023] = -4;
  ASSERT_NO_FATAL_FAILURE(expectOutOfRange(context(), data, indexTensor(DataType::kInt32, Shape(10, 2), values), 1));
}

TEST_F(GatherElementsErrorsTest, BadIndexIntoStringsLeavesTheOutputStringsUntouched) {
  expectGatherKeepsOutputStrings(
      context(), gatherElementsOperator(0), stringTensor({3}, {"a", "b", "c"}),
      indexTensor(DataType::kInt64, {2}, {1, -4}),
      "GatherElements: indices[1] = -4 is out of range for axis 0 of size 3 (allowed [-3, 2])");
}

// Random shapes, types and axes with 1-3 bad values planted at random positions: the message names
// the first one exactly (as the reference finds it) and the output keeps its canary. Half the cases
// run with 4 KiB bindings, so bad values land in later windows too.
TEST_F(GatherElementsErrorsTest, RandomBadIndicesAreReportedExactlyAndWriteNothing) {
  Rng rng(0xbade1);
  forEachBadIndexRound(context(), rng, [&](const BadIndexRound& round) {
    const size_t rank = 1 + rng() % 3;
    Shape data_shape = randomShape(rng, rank, 600);
    for (int64_t& dim : data_shape) dim = std::max<int64_t>(dim, 1);
    const int64_t r = static_cast<int64_t>(rank);
    const int64_t axis = static_cast<int64_t>(rng() % rank) - (rng() % 2 ? r : 0);
    const size_t a = static_cast<size_t>(axis < 0 ? axis + r : axis);
    const int64_t s = data_shape[a];
    Shape index_shape = data_shape;
    index_shape[a] = 1 + static_cast<int64_t>(rng() % 40);
    const HostTensor valid = randomIndices(rng, DataType::kInt64, index_shape, s);
    std::vector<int64_t> values;
    for (uint64_t i = 0; i < valid.elementCount(); ++i) values.push_back(indexAt(valid, i));
    const std::vector<int64_t> bad_values = hostileIndexValues(round.index_type, s);
    for (int planted = 1 + static_cast<int>(rng() % 3); planted > 0; --planted) {
      values[rng() % values.size()] = bad_values[rng() % bad_values.size()];
    }
    const HostTensor data = randomTensor(rng, round.dtype, data_shape);
    const HostTensor indices = indexTensor(round.index_type, index_shape, values);
    SCOPED_TRACE("round " + std::to_string(round.round) + ": " + describe(data) + ", " + describe(indices) + ", axis " +
                 std::to_string(axis));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(round.context, data, indices, axis));
  });
}

// Boundary values are valid and must be read from exactly the first and last elements of each line.
TEST_F(GatherElementsErrorsTest, BoundaryIndicesAreValid) {
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    expectGatherMatchesReference(context(), gatherElementsOperator(0), floats({5, 3}),
                                 indexTensor(index_type, {4, 3}, {4, -5, 0, -1, 0, 4, -5, -1, 4, 0, -5, -1}));
  }
}

}  // namespace
}  // namespace vkindex::test
