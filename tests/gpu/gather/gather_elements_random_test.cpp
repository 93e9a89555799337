// Randomized GatherElements against the CPU reference: every data type x both index types, ranks 1-8
// with every axis (negative too), ranks 9-12 that do not coalesce, indices narrower than data in the other dims and
// wider along the axis, negative index values, zero-sized dims and empty indices, and views at unaligned offsets. Fixed
// seeds; byte-exact comparison.
#include <algorithm>

#include "support/gather_forms.hpp"

namespace vkindex::test {
namespace {

// Runs GatherElements (new-output form) and compares with the reference, byte for byte.
constexpr auto expectMatchesReference = expectBoundGatherMatchesReference<gatherElementsOperator>;

// A random GatherElements call of `rank` and `axis` (any sign): data of at most `max_elements`;
// indices with each dim other than the axis at most data's (often equal, sometimes smaller, rarely 0)
// and an axis dim that may be smaller or larger than data's; valid values of both signs.
GatherCall randomElementsCase(Rng& rng, DataType dtype, DataType index_type, size_t rank, int64_t axis,
                              uint64_t max_elements) {
  GatherCall c{gatherElementsOperator(axis), {}, {}};
  const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis);
  c.data = randomTensor(rng, dtype, randomShape(rng, rank, max_elements));
  const int64_t s = c.data.shape[a];
  // Smaller, equal or larger than data's axis dim (up to 2s + 3); the indices (and output) kept small.
  const Shape index_shape = randomElementsIndexShape(rng, c.data.shape, a, 2 * s + 3, max_elements);
  c.indices = randomIndices(rng, index_type, index_shape, std::max<int64_t>(s, 1));
  return c;
}

class GatherElementsRandomTest : public GpuTest, public ::testing::WithParamInterface<TypeAndIndexType> {};

TEST_P(GatherElementsRandomTest, MatchesReferenceByteExact) {
  expectRandomCallsMatchReference(context(), GetParam(), 0xe1e5, [](Rng& rng, DataType dtype, DataType index_type) {
    std::uniform_int_distribution<size_t> rank_pick(1, 8);
    const size_t rank = std::min(rank_pick(rng), rank_pick(rng));  // favour low ranks, still reach 8
    const int64_t r = static_cast<int64_t>(rank);
    const int64_t axis = std::uniform_int_distribution<int64_t>(-r, r - 1)(rng);
    return randomElementsCase(rng, dtype, index_type, rank, axis, 2000);
  });
}

INSTANTIATE_TEST_SUITE_P(AllTypes, GatherElementsRandomTest, ::testing::ValuesIn(everyTypeAndIndexType()),
                         typeAndIndexTypeName);

using GatherElementsShapesTest = GpuTest;

// Every rank 1-8 with every axis in [-r, r-1], so no (rank, axis) pair is left to chance; the data
// type rotates through all 16 and the index type alternates.
TEST_F(GatherElementsShapesTest, EveryRankAndEveryAxis) {
  Rng rng(0xa815);
  size_t n = 0;
  for (int64_t r = 1; r <= 8; ++r) {
    for (int64_t axis = -r; axis < r; ++axis, ++n) {
      const GatherCall c =
          randomElementsCase(rng, rotatingType(n), alternatingIndexType(n), static_cast<size_t>(r), axis, 600);
      ASSERT_NO_FATAL_FAILURE(expectGatherMatchesReference(context(), c.op, c.data, c.indices));
    }
  }
}

TEST_F(GatherElementsShapesTest, OnnxDocExamples) {
  // The two examples of the ONNX operator page, on int32 data.
  HostTensor data = indexTensor(DataType::kInt32, {2, 2}, {1, 2, 3, 4});
  expectMatchesReference(context(), data, indexTensor(DataType::kInt64, {2, 2}, {0, 0, 1, 0}), 1);
  data = indexTensor(DataType::kInt32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  expectMatchesReference(context(), data, indexTensor(DataType::kInt32, {2, 3}, {1, 2, 0, 2, 0, 0}), 0);
  // The same with negative values and a negative axis.
  expectMatchesReference(context(), data, indexTensor(DataType::kInt64, {2, 3}, {-2, -1, 0, -1, -3, -3}), -2);
}

TEST_F(GatherElementsShapesTest, AxisDimOfIndicesLargerThanDatas) {
  // The axis dim of indices is unconstrained: many lookups per line, repeats included.
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {2, 3}),
                         indexTensor(DataType::kInt64, {5, 3}, {1, 0, -1, -2, 1, 0, 0, 0, 1, 1, -1, -2, -2, 1, 0}), 0);
  expectMatchesReference(context(), dataOf(DataType::kUInt8, {3, 2}),
                         indexTensor(DataType::kInt32, {2, 7}, {1, 0, -1, -2, 1, 0, 0, 0, 1, 1, -1, -2, -2, 1}), -1);
  expectMatchesReference(context(), dataOf(DataType::kInt16, {1}),
                         indexTensor(DataType::kInt32, {9}, {0, -1, 0, -1, 0, 0, 0, -1, 0}), 0);
}

TEST_F(GatherElementsShapesTest, IndicesSmallerThanDataInOtherDims) {
  Rng rng(5);
  const HostTensor data = dataOf(DataType::kFloat16, {5, 6, 7});
  expectMatchesReference(context(), data, randomIndices(rng, DataType::kInt64, {2, 9, 3}, 6), 1);
  expectMatchesReference(context(), data, randomIndices(rng, DataType::kInt32, {1, 1, 1}, 7), -1);
  expectMatchesReference(context(), data, randomIndices(rng, DataType::kInt32, {5, 1, 7}, 5), 0);
  expectMatchesReference(context(), dataOf(DataType::kComplex128, {4, 3}),
                         randomIndices(rng, DataType::kInt64, {4, 2}, 4), 0);
}

TEST_F(GatherElementsShapesTest, ZeroSizedDimsAndEmptyIndices) {
  Rng rng(6);
  // Empty indices on a non-empty axis, in every dim.
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {3, 4}), indexTensor(DataType::kInt64, {0, 4}, {}), 0);
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {3, 4}), indexTensor(DataType::kInt64, {3, 0}, {}), 0);
  expectMatchesReference(context(), dataOf(DataType::kUInt8, {3, 4}), indexTensor(DataType::kInt32, {0, 0}, {}), 1);
  // An empty axis with indices empty along it, and with indices empty in another dim only.
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {3, 0}), indexTensor(DataType::kInt64, {3, 0}, {}), 1);
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {3, 0}), indexTensor(DataType::kInt32, {0, 5}, {}), 1);
  // A zero-sized dim other than the axis (indices must be empty there too).
  expectMatchesReference(context(), dataOf(DataType::kInt16, {3, 0, 2}), indexTensor(DataType::kInt64, {5, 0, 2}, {}),
                         0);
  expectMatchesReference(context(), dataOf(DataType::kFloat64, {0}), indexTensor(DataType::kInt32, {0}, {}), -1);
  // No indices, so nothing to check: an axis beyond the 32-bit index check is no obstacle.
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {0, int64_t(1) << 33}),
                         indexTensor(DataType::kInt64, {0, 3}, {}), 1);
  // Empty data elsewhere does not matter when indices are non-empty along a non-empty axis.
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {2, 3}), randomIndices(rng, DataType::kInt64, {1, 0}, 2),
                         0);
}

TEST_F(GatherElementsShapesTest, SubWordOutputsAlongEveryAxis) {
  // 1- and 2-byte elements whose output lines are not whole words: each output word holds elements
  // taken from different data words.
  Rng rng(7);
  for (int64_t inner = 1; inner <= 9; ++inner) {
    const HostTensor bytes = randomTensor(rng, DataType::kInt8, {5, inner});
    expectMatchesReference(context(), bytes, randomIndices(rng, DataType::kInt32, {7, inner}, 5), 0);
    expectMatchesReference(context(), bytes, randomIndices(rng, DataType::kInt64, {3, inner + 2}, inner), 1);
    const HostTensor halves = randomTensor(rng, DataType::kBFloat16, {3, inner});
    expectMatchesReference(context(), halves, randomIndices(rng, DataType::kInt64, {3, inner}, inner), -1);
  }
}

TEST_F(GatherElementsShapesTest, RankOneAndRankEight) {
  Rng rng(8);
  expectMatchesReference(context(), dataOf(DataType::kFloat32, {13}), randomIndices(rng, DataType::kInt64, {29}, 13),
                         0);
  expectMatchesReference(context(), dataOf(DataType::kBool, {13}), randomIndices(rng, DataType::kInt32, {5}, 13), -1);
  const HostTensor data = dataOf(DataType::kUInt16, {2, 1, 3, 2, 1, 2, 3, 2});
  expectMatchesReference(context(), data, randomIndices(rng, DataType::kInt64, {2, 1, 3, 2, 1, 2, 3, 2}, 3), 6);
  expectMatchesReference(context(), data, randomIndices(rng, DataType::kInt32, {1, 1, 2, 2, 1, 1, 3, 5}, 2), -1);
}

// Ranks 9 to 12 whose dims cannot coalesce (every non-axis indices dim shorter than data's) are more
// than the kernel's 8: the plan peels the outermost dims into blocks of output, the axis among them or
// not, and with 64 KiB bindings each block binds only the data windows its sources reach.
TEST_F(GatherElementsShapesTest, RanksBeyondEightThatDoNotCoalesce) {
  Rng rng(0x9e1);
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> small_bindings, makeContextWithBindings(65536));
  size_t n = 0;
  for (int64_t rank = 9; rank <= 12; ++rank) {
    for (const int64_t axis : {int64_t{0}, int64_t{1}, rank / 2, int64_t{-1}, -rank}) {
      const DataType dtype = kClassicDataTypes[n % std::size(kClassicDataTypes)];
      const DataType index_type = n++ % 2 ? DataType::kInt64 : DataType::kInt32;
      Shape data_shape(static_cast<size_t>(rank)), index_shape(static_cast<size_t>(rank));
      for (size_t d = 0; d < data_shape.size(); ++d) {
        data_shape[d] = std::uniform_int_distribution<int64_t>(3, 4)(rng);
        index_shape[d] = std::uniform_int_distribution<int64_t>(2, data_shape[d] - 1)(rng);
      }
      const size_t a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
      index_shape[a] = std::uniform_int_distribution<int64_t>(1, 5)(rng);
      const HostTensor data = randomTensor(rng, dtype, data_shape);
      const HostTensor indices = randomIndices(rng, index_type, index_shape, data_shape[a]);
      ASSERT_NO_FATAL_FAILURE(expectMatchesReference(context(), data, indices, axis));
      if (dtype != DataType::kString && rank <= 10) {
        ASSERT_NO_FATAL_FAILURE(expectMatchesReference(*small_bindings, data, indices, axis));
      }
    }
  }
  EXPECT_EQ(small_bindings->validationMessageCount(), 0u) << small_bindings->firstValidationMessage();
}

TEST_F(GatherElementsShapesTest, Strings) {
  Rng rng(9);
  const HostTensor words = randomTensor(rng, DataType::kString, {3, 4});
  expectMatchesReference(context(), words, randomIndices(rng, DataType::kInt64, {2, 6}, 4), 1);
  expectMatchesReference(context(), words, randomIndices(rng, DataType::kInt32, {5, 4}, 3), -2);
}

TEST_F(GatherElementsShapesTest, ManyElements) {
  // More output elements than a single small dispatch covers (grid-stride loops).
  Rng rng(10);
  expectMatchesReference(context(), randomTensor(rng, DataType::kFloat32, {301, 257}),
                         randomIndices(rng, DataType::kInt32, {301, 257}, 301), 0);
  expectMatchesReference(context(), randomTensor(rng, DataType::kUInt8, {257, 301}),
                         randomIndices(rng, DataType::kInt64, {257, 301}, 301), 1);
}

// Tensors viewing one shared buffer at offsets that are multiples of 4 but not 16; bytes around the
// output, including the rest of its last word, must survive.
TEST_F(GatherElementsShapesTest, ViewsAtUnalignedOffsetsPreserveNeighbouringBytes) {
  Rng rng(11);
  const HostTensor data = randomTensor(rng, DataType::kUInt8, {9, 7});
  const HostTensor indices = randomIndices(rng, DataType::kInt64, {5, 7}, 9);
  // 35 bytes: 1 neighbouring byte in the last word.
  expectGatherThroughUnalignedViews(context(), gatherElementsOperator(0), data, indices, 1);
}

// The caller's-output form writes exactly what the new-output form returns.
TEST_F(GatherElementsShapesTest, CallersOutputForm) {
  Rng rng(12);
  const HostTensor data = randomTensor(rng, DataType::kFloat16, {4, 5, 3});
  const HostTensor indices = randomIndices(rng, DataType::kInt32, {4, 2, 3}, 5);
  expectGatherMatchesReference(context(), gatherElementsOperator(1), data, indices, GatherForm::kCallersOutput);
}

}  // namespace
}  // namespace vkindex::test
