// Randomized GatherND against the CPU reference: every data type x both index types, data ranks 1-8
// with every batch_dims in [0, min(r, q) - 1] and every tuple length in [1, r - b], rank-1 indices
// (a single tuple: scalar-like outputs), negative index values, zero-sized dims and empty indices, and
// views at unaligned offsets. Fixed seeds; byte-exact comparison.
#include <algorithm>

#include "support/gather_forms.hpp"

namespace vkindex::test {
namespace {

// Runs GatherND (new-output form) and compares with the reference, byte for byte.
constexpr auto expectMatchesReference = expectBoundGatherMatchesReference<gatherNDOperator>;

class GatherNDRandomTest : public GpuTest, public ::testing::WithParamInterface<TypeAndIndexType> {};

// A random GatherND call: data of rank r (at most `max_elements`), batch_dims b, tuples of length k,
// and `extra` tuple dims between the batch dims and the tuple (so q = b + extra + 1; extra = 0 with
// b = 0 gives rank-1 indices: one tuple).
GatherCall randomNdCase(Rng& rng, DataType dtype, DataType index_type, size_t r, size_t b, size_t k, size_t extra,
                        uint64_t max_elements) {
  GatherCall c{gatherNDOperator(static_cast<int64_t>(b)), {}, {}};
  Shape data_shape = randomShape(rng, r, max_elements);
  Shape index_shape(data_shape.begin(), data_shape.begin() + static_cast<std::ptrdiff_t>(b));
  const Shape tuple_dims = randomShape(rng, extra, 40);
  index_shape.insert(index_shape.end(), tuple_dims.begin(), tuple_dims.end());
  index_shape.push_back(static_cast<int64_t>(k));
  bool empty = false;
  for (size_t d = 0; d + 1 < index_shape.size(); ++d) empty = empty || index_shape[d] == 0;
  // An empty indexed dim admits no index: keep it only when the indices are empty anyway.
  for (size_t c_dim = b; c_dim < b + k && !empty; ++c_dim) {
    if (data_shape[c_dim] == 0) data_shape[c_dim] = 1;
  }
  c.data = randomTensor(rng, dtype, data_shape);
  c.indices = randomTuples(rng, index_type, index_shape, data_shape, b);
  return c;
}

TEST_P(GatherNDRandomTest, MatchesReferenceByteExact) {
  expectRandomCallsMatchReference(context(), GetParam(), 0x9d0, [](Rng& rng, DataType dtype, DataType index_type) {
    std::uniform_int_distribution<size_t> rank_pick(1, 8);
    const size_t r = std::min(rank_pick(rng), rank_pick(rng));  // favour low ranks, still reach 8
    const size_t b = std::uniform_int_distribution<size_t>(0, r - 1)(rng) * (rng() % 2);  // b = 0 half the time
    const size_t k = std::uniform_int_distribution<size_t>(1, r - b)(rng);
    const size_t extra = std::uniform_int_distribution<size_t>(0, 2)(rng);
    return randomNdCase(rng, dtype, index_type, r, b, k, extra, 2000);
  });
}

INSTANTIATE_TEST_SUITE_P(AllTypes, GatherNDRandomTest, ::testing::ValuesIn(everyTypeAndIndexType()),
                         typeAndIndexTypeName);

using GatherNDShapesTest = GpuTest;

TEST_F(GatherNDShapesTest, OnnxDocExamples) {
  // The examples of the ONNX operator page, on int32 data.
  const HostTensor square = indexTensor(DataType::kInt32, {2, 2}, {0, 1, 2, 3});
  expectMatchesReference(context(), square, indexTensor(DataType::kInt64, {2, 2}, {0, 0, 1, 1}), 0);  // [0, 3]
  expectMatchesReference(context(), square, indexTensor(DataType::kInt64, {2, 1}, {1, 0}), 0);        // rows
  const HostTensor cube = indexTensor(DataType::kInt32, {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  expectMatchesReference(context(), cube, indexTensor(DataType::kInt64, {2, 2}, {0, 1, 1, 0}), 0);
  expectMatchesReference(context(), cube, indexTensor(DataType::kInt32, {2, 1, 2}, {0, 1, 1, 0}), 0);
  expectMatchesReference(context(), cube, indexTensor(DataType::kInt32, {2, 1}, {1, 0}), 1);
  // The same with negative values.
  expectMatchesReference(context(), cube, indexTensor(DataType::kInt64, {2, 2}, {-2, -1, -1, 0}), 0);
}

// Every data rank 1-8, every batch_dims in [0, r - 1] and every tuple length in [1, r - b] (120
// combinations), so none is left to chance; the data type rotates through all 16, the index type
// alternates and the number of extra tuple dims cycles through 0, 1, 2.
TEST_F(GatherNDShapesTest, EveryRankBatchDimsAndTupleLength) {
  Rng rng(0xb47c);
  size_t n = 0;
  for (size_t r = 1; r <= 8; ++r) {
    for (size_t b = 0; b < r; ++b) {
      for (size_t k = 1; k <= r - b; ++k, ++n) {
        // With b > 0 the indices have rank >= b + 1 already; extra tuple dims are optional then.
        const GatherCall c = randomNdCase(rng, rotatingType(n), alternatingIndexType(n), r, b, k, n % 3, 500);
        ASSERT_NO_FATAL_FAILURE(expectGatherMatchesReference(context(), c.op, c.data, c.indices));
      }
    }
  }
}

TEST_F(GatherNDShapesTest, RankOneIndicesGiveOneSlice) {
  const HostTensor data = dataOf(DataType::kFloat32, {3, 4, 5});
  // A full tuple: a scalar output (shape []).
  expectMatchesReference(context(), data, indexTensor(DataType::kInt64, {3}, {2, -1, 4}), 0);
  expectMatchesReference(context(), data, indexTensor(DataType::kInt32, {3}, {-3, 0, -5}), 0);
  // Partial tuples: a row, a plane.
  expectMatchesReference(context(), data, indexTensor(DataType::kInt32, {2}, {1, -4}), 0);
  expectMatchesReference(context(), data, indexTensor(DataType::kInt64, {1}, {-1}), 0);
  // Rank-1 data.
  expectMatchesReference(context(), dataOf(DataType::kUInt8, {7}), indexTensor(DataType::kInt32, {1}, {-7}), 0);
  expectMatchesReference(context(), dataOf(DataType::kString, {7}), indexTensor(DataType::kInt64, {1}, {6}), 0);
}

TEST_F(GatherNDShapesTest, BatchDims) {
  Rng rng(3);
  // batch_dims 1 and 2 with whole-element tuples, row tuples and extra tuple dims.
  Shape data_shape = {3, 4, 5, 2};
  const HostTensor data = dataOf(DataType::kFloat64, data_shape);
  expectMatchesReference(context(), data, randomTuples(rng, DataType::kInt64, {3, 3}, data_shape, 1), 1);
  expectMatchesReference(context(), data, randomTuples(rng, DataType::kInt32, {3, 6, 1}, data_shape, 1), 1);
  expectMatchesReference(context(), data, randomTuples(rng, DataType::kInt64, {3, 4, 2}, data_shape, 2), 2);
  expectMatchesReference(context(), data, randomTuples(rng, DataType::kInt32, {3, 4, 2, 3, 1}, data_shape, 2), 2);
  expectMatchesReference(context(), data, randomTuples(rng, DataType::kInt64, {3, 4, 5, 1}, data_shape, 3), 3);
  // Sub-word data with batches: output slices of odd byte lengths.
  data_shape = {5, 3, 7};
  const HostTensor bytes = dataOf(DataType::kBool, data_shape);
  expectMatchesReference(context(), bytes, randomTuples(rng, DataType::kInt64, {5, 2, 1}, data_shape, 1), 1);
  expectMatchesReference(context(), bytes, randomTuples(rng, DataType::kInt32, {5, 9, 2}, data_shape, 1), 1);
}

TEST_F(GatherNDShapesTest, ZeroSizedDimsAndEmptyIndices) {
  Rng rng(4);
  // Empty indices (a zero tuple dim): the output is empty too.
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {3, 5}), indexTensor(DataType::kInt64, {0, 1}, {}), 0);
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {3, 5}), indexTensor(DataType::kInt32, {2, 0, 2}, {}),
                         0);
  // Empty indices into an empty indexed dim (no index to check).
  expectMatchesReference(context(), dataOf(DataType::kUInt16, {0, 5}), indexTensor(DataType::kInt64, {0, 1}, {}), 0);
  // No tuples, so nothing to check: indexed dims beyond the 32-bit index check are no obstacle.
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {int64_t(1) << 33, 0}),
                         indexTensor(DataType::kInt64, {0, 1}, {}), 0);
  // A zero batch dim.
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {0, 3}), indexTensor(DataType::kInt64, {0, 1}, {}), 1);
  // Valid indices, empty slices: the output has a zero dim after the tuple dims.
  const Shape data_shape = {4, 0};
  expectMatchesReference(context(), dataOf(DataType::kFloat32, data_shape),
                         randomTuples(rng, DataType::kInt64, {3, 1}, data_shape, 0), 0);
  const Shape batched = {2, 3, 0, 2};
  expectMatchesReference(context(), dataOf(DataType::kInt8, batched),
                         randomTuples(rng, DataType::kInt32, {2, 5, 1}, batched, 1), 1);
}

TEST_F(GatherNDShapesTest, SubWordSlicesOfEveryLength) {
  Rng rng(5);
  for (int64_t inner = 1; inner <= 9; ++inner) {
    const Shape data_shape = {5, 3, inner};
    expectMatchesReference(context(), dataOf(DataType::kUInt8, data_shape),
                           randomTuples(rng, DataType::kInt32, {7, 2}, data_shape, 0), 0);
    expectMatchesReference(context(), dataOf(DataType::kFloat16, data_shape),
                           randomTuples(rng, DataType::kInt64, {4, 1}, data_shape, 0), 0);
    expectMatchesReference(context(), dataOf(DataType::kInt8, data_shape),
                           randomTuples(rng, DataType::kInt64, {6, 3}, data_shape, 0), 0);
  }
}

TEST_F(GatherNDShapesTest, Strings) {
  Rng rng(6);
  const Shape data_shape = {3, 4, 2};
  const HostTensor words = randomTensor(rng, DataType::kString, data_shape);
  expectMatchesReference(context(), words, randomTuples(rng, DataType::kInt64, {5, 2}, data_shape, 0), 0);
  expectMatchesReference(context(), words, randomTuples(rng, DataType::kInt32, {3, 2, 2}, data_shape, 1), 1);
}

TEST_F(GatherNDShapesTest, ManyElements) {
  // Many tuples and long slices (grid-stride loops).
  Rng rng(7);
  Shape data_shape = {301, 257};
  expectMatchesReference(context(), randomTensor(rng, DataType::kFloat32, data_shape),
                         randomTuples(rng, DataType::kInt32, {70000, 2}, data_shape, 0), 0);
  expectMatchesReference(context(), randomTensor(rng, DataType::kUInt8, data_shape),
                         randomTuples(rng, DataType::kInt64, {300, 1}, data_shape, 0), 0);
}

// Tensors viewing one shared buffer at offsets that are multiples of 4 but not 16; bytes around the
// output, including the rest of its last word, must survive.
TEST_F(GatherNDShapesTest, ViewsAtUnalignedOffsetsPreserveNeighbouringBytes) {
  Rng rng(8);
  const Shape data_shape = {3, 9, 7};
  const HostTensor data = randomTensor(rng, DataType::kUInt8, data_shape);
  const HostTensor indices = randomTuples(rng, DataType::kInt64, {3, 5, 1}, data_shape, 1);
  ASSERT_EQ(referenceGatherND(data, indices, 1).output.shape, (Shape{3, 5, 7}));
  // 105 bytes: 3 neighbouring bytes in the last word.
  expectGatherThroughUnalignedViews(context(), gatherNDOperator(1), data, indices, 3);
}

// The caller's-output form writes exactly what the reference computes.
TEST_F(GatherNDShapesTest, CallersOutputForm) {
  Rng rng(9);
  const Shape data_shape = {4, 5, 3};
  const HostTensor data = randomTensor(rng, DataType::kComplex64, data_shape);
  const HostTensor indices = randomTuples(rng, DataType::kInt32, {2, 3, 2}, data_shape, 0);
  ASSERT_EQ(gatherNDOperator(0).output_shape(data, indices), (Shape{2, 3, 3}));
  expectGatherMatchesReference(context(), gatherNDOperator(0), data, indices, GatherForm::kCallersOutput);
}

}  // namespace
}  // namespace vkindex::test
