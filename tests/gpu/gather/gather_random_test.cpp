// Randomized Gather against the CPU reference: every data type x both index types, ranks 1-8, negative
// axes and indices, rank-0 and empty indices, zero-sized dims. Fixed seeds; byte-exact comparison.
#include "support/gather_forms.hpp"

namespace vkindex::test {
namespace {

struct GatherCase {
  HostTensor data;
  HostTensor indices;
  int64_t axis = 0;
};

GatherCase randomGatherCase(Rng& rng) {
  GatherCase c;
  std::uniform_int_distribution<size_t> rank_pick(1, 8);
  size_t rank = std::min(rank_pick(rng), rank_pick(rng));  // favour low ranks, still reach 8
  Shape data_shape = randomShape(rng, rank, 3000);
  std::uniform_int_distribution<int64_t> axis_pick(-static_cast<int64_t>(rank), static_cast<int64_t>(rank) - 1);
  c.axis = axis_pick(rng);
  const int64_t s = data_shape[static_cast<size_t>(c.axis < 0 ? c.axis + static_cast<int64_t>(rank) : c.axis)];
  std::uniform_int_distribution<size_t> index_rank_pick(0, 3);
  Shape index_shape = randomShape(rng, index_rank_pick(rng), 40);
  if (s == 0) index_shape.push_back(0);  // an empty axis only admits empty indices
  c.data.shape = data_shape;
  c.indices = randomIndices(rng, DataType::kInt64, index_shape, std::max<int64_t>(s, 1));
  return c;
}

class GatherRandomTest : public GpuTest, public ::testing::WithParamInterface<TypeAndIndexType> {};

TEST_P(GatherRandomTest, MatchesReferenceByteExact) {
  expectRandomCallsMatchReference(context(), GetParam(), 0x9a7e5, [](Rng& rng, DataType dtype, DataType index_type) {
    GatherCase c = randomGatherCase(rng);
    HostTensor data = randomTensor(rng, dtype, c.data.shape);
    std::vector<int64_t> values;
    for (uint64_t i = 0; i < c.indices.elementCount(); ++i) values.push_back(indexAt(c.indices, i));
    return GatherCall{gatherOperator(c.axis), data, indexTensor(index_type, c.indices.shape, values)};
  });
}

INSTANTIATE_TEST_SUITE_P(AllTypes, GatherRandomTest, ::testing::ValuesIn(everyTypeAndIndexType()),
                         typeAndIndexTypeName);

// Directed shapes the random draw may miss: every unit width and sub-word row lengths 1..9 bytes.
class GatherShapesTest : public GpuTest {
 protected:
  void expectMatches(DataType dtype, const Shape& data_shape, DataType index_type, const Shape& index_shape,
                     const std::vector<int64_t>& values, int64_t axis) {
    expectGatherMatchesReference(context(), gatherOperator(axis), dataOf(dtype, data_shape),
                                 indexTensor(index_type, index_shape, values));
  }
};

// `count` index values drawn from [-axis_size, axis_size - 1], negative ones included.
std::vector<int64_t> indexValues(Rng& rng, int64_t count, int64_t axis_size) {
  std::uniform_int_distribution<int64_t> pick(-axis_size, axis_size - 1);
  std::vector<int64_t> picked(static_cast<size_t>(count));
  for (int64_t& value : picked) value = pick(rng);
  return picked;
}

TEST_F(GatherShapesTest, SubWordRowsOfEveryLength) {
  for (int64_t inner = 1; inner <= 9; ++inner) {
    expectMatches(DataType::kUInt8, {7, inner}, DataType::kInt32, {5}, {6, 0, -1, 3, 3}, 0);
    expectMatches(DataType::kFloat16, {5, inner}, DataType::kInt64, {2, 2}, {4, -5, 0, 2}, 0);
  }
}

TEST_F(GatherShapesTest, LastAxisOfBytes) {
  expectMatches(DataType::kBool, {3, 11}, DataType::kInt64, {7}, {10, 0, -11, 5, 5, 1, 9}, -1);
  expectMatches(DataType::kInt8, {1, 13}, DataType::kInt32, {}, {12}, 1);
}

TEST_F(GatherShapesTest, LastAxisOfBytesAcrossManySegments) {
  // One-unit rows step their coordinates from word to word: with an odd index count, words straddle
  // outer slices and segments (256 words on CPU drivers) begin mid-slice, so every carry is tested.
  Rng rng(43);
  expectMatches(DataType::kUInt8, {67, 1031}, DataType::kInt32, {1023}, indexValues(rng, 1023, 1031), -1);
  expectMatches(DataType::kInt16, {33, 515}, DataType::kInt64, {11, 47}, indexValues(rng, 517, 515), 1);
}

TEST_F(GatherShapesTest, LastAxisOfBytesByColumns) {
  // Index counts a multiple of a word's units: every outer slice's words line up, and an invocation
  // assembles one word column of up to 256 slices (CPU drivers; 4 on GPUs), reading its indices
  // once. Slice counts past one block and column counts that are not a multiple of the workgroup.
  Rng rng(44);
  expectMatches(DataType::kUInt8, {600, 37}, DataType::kInt32, {20}, indexValues(rng, 20, 37), 1);
  expectMatches(DataType::kBool, {4, 50, 7}, DataType::kInt64, {2, 4}, indexValues(rng, 8, 7), -1);
  expectMatches(DataType::kInt16, {300, 9}, DataType::kInt64, {2, 6}, indexValues(rng, 12, 9), 1);
  expectMatches(DataType::kInt8, {1, 1031}, DataType::kInt32, {1028}, indexValues(rng, 1028, 1031), -1);
}

TEST_F(GatherShapesTest, ShortWordRowsByColumns) {
  // Rows of at most 4 units in outer slices that share their indices: an invocation copies one row
  // position of a block of slices (CPU drivers: 256 / row units; GPUs: 4, one-unit rows only), reading
  // its index once. Slice counts past one block, index counts that are not a multiple of the workgroup,
  // every unit width, rows of 1 to 4 units; and rows of 5 units, which keep the segments.
  Rng rng(45);
  expectMatches(DataType::kFloat32, {600, 37}, DataType::kInt32, {19}, indexValues(rng, 19, 37), -1);
  expectMatches(DataType::kFloat64, {257, 11}, DataType::kInt64, {3, 5}, indexValues(rng, 15, 11), 1);
  expectMatches(DataType::kComplex128, {3, 100, 5}, DataType::kInt32, {7}, indexValues(rng, 7, 5), 2);
  expectMatches(DataType::kInt32, {300, 9, 3}, DataType::kInt64, {4}, indexValues(rng, 4, 9), 1);
  expectMatches(DataType::kUInt16, {520, 13, 8}, DataType::kInt32, {2, 3}, indexValues(rng, 6, 13), -2);
  expectMatches(DataType::kFloat32, {270, 6, 20}, DataType::kInt64, {5}, indexValues(rng, 5, 6), 1);
  expectMatches(DataType::kFloat32, {200, 6, 5}, DataType::kInt64, {5}, indexValues(rng, 5, 6), 1);
}

TEST_F(GatherShapesTest, EveryUnitWidth) {
  // Rows of 16, 8 and 4 bytes pick uvec4, uvec2 and uint units.
  expectMatches(DataType::kComplex128, {9, 1}, DataType::kInt32, {4}, {8, 0, -1, 4}, 0);
  expectMatches(DataType::kFloat64, {9, 3}, DataType::kInt64, {3}, {1, -9, 8}, 0);
  expectMatches(DataType::kFloat32, {9, 3}, DataType::kInt32, {3}, {1, -9, 8}, 0);
  expectMatches(DataType::kFloat32, {4, 8}, DataType::kInt32, {6}, {3, 2, 1, 0, -1, -4}, 0);
}

TEST_F(GatherShapesTest, ScalarIndexDropsTheAxis) {
  expectMatches(DataType::kInt32, {3, 4, 5}, DataType::kInt64, {}, {-2}, 1);
}

TEST_F(GatherShapesTest, EmptyIndicesAndEmptyDims) {
  expectMatches(DataType::kFloat32, {3, 4}, DataType::kInt64, {0}, {}, 0);
  expectMatches(DataType::kFloat32, {3, 0}, DataType::kInt64, {2}, {2, -3}, 0);
  expectMatches(DataType::kFloat32, {0, 3}, DataType::kInt64, {2, 0}, {}, 0);
  expectMatches(DataType::kUInt8, {2, 0, 3}, DataType::kInt32, {0}, {}, 1);
  // No indices, so nothing to check: an axis beyond the 32-bit index check is no obstacle.
  expectMatches(DataType::kFloat32, {0, int64_t(1) << 33}, DataType::kInt64, {0}, {}, 1);
  expectMatches(DataType::kFloat32, {int64_t(1) << 33, 0}, DataType::kInt64, {2, 0}, {}, 0);
}

TEST_F(GatherShapesTest, RankEightData) {
  expectMatches(DataType::kInt16, {2, 1, 3, 2, 1, 2, 3, 2}, DataType::kInt64, {2, 1}, {-1, 0}, 4);
  expectMatches(DataType::kInt16, {2, 1, 3, 2, 1, 2, 3, 2}, DataType::kInt32, {3}, {1, 0, -2}, -1);
}

}  // namespace
}  // namespace vkindex::test
