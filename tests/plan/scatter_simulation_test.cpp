// ScatterElements and ScatterND plans run through the CPU simulator (scatter_simulator.hpp) on tiny
// fake devices, so that data, indices and updates each span many binding windows: every access inside
// its window, every data element receiving exactly its updates in index order, whatever the offsets,
// element width, index type, reduction (a walk, a winner table, or the fold by owner) and form (in
// place, or a copy of data first), ScatterND's empty tuples (k = 0) included.
#include <gtest/gtest.h>

#include <random>

#include "plan_test_support.hpp"
#include "scatter_simulator.hpp"

namespace vkindex::plan::test {
namespace {

const DataType kTypes[] = {DataType::kUInt8, DataType::kFloat16, DataType::kFloat32, DataType::kInt64,
                           DataType::kComplex128};

// A random shape of `rank` dims with at most `max_elements` elements (dims of 1 to 12).
Shape randomShape(std::mt19937& rng, size_t rank, uint64_t max_elements) {
  Shape shape(rank);
  uint64_t count = 1;
  for (int64_t& dim : shape) {
    dim = 1 + static_cast<int64_t>(rng() % 12);
    count *= static_cast<uint64_t>(dim);
  }
  while (count > max_elements) {
    int64_t& largest = *std::max_element(shape.begin(), shape.end());
    count = count / static_cast<uint64_t>(largest) * static_cast<uint64_t>(largest / 2);
    largest /= 2;
  }
  return shape;
}

// A random case on a device whose windows hold a few dozen elements at most.
ScatterCase randomScatterCase(std::mt19937& rng, bool nd) {
  ScatterCase c;
  c.nd = nd;
  c.data_type = kTypes[rng() % std::size(kTypes)];
  c.index_type = rng() % 2 ? DataType::kInt64 : DataType::kInt32;
  c.reduction = rng() % 2 ? Reduction::kNone : Reduction::kAdd;
  c.in_place = rng() % 2;
  const size_t rank = 1 + rng() % 4;
  c.data_shape = randomShape(rng, rank, 400);
  if (nd) {
    const int64_t k = 1 + static_cast<int64_t>(rng() % rank);
    c.indices_shape = {1 + static_cast<int64_t>(rng() % 60), k};
  } else {
    const size_t axis = rng() % rank;
    c.axis = static_cast<int64_t>(axis) - (rng() % 2 ? static_cast<int64_t>(rank) : 0);
    c.indices_shape = c.data_shape;
    for (size_t d = 0; d < rank; ++d) {
      c.indices_shape[d] = d == axis ? 1 + static_cast<int64_t>(rng() % 24)
                                     : 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(c.data_shape[d]));
    }
  }
  const uint64_t offsets[] = {0, 4, 16, 20, 256, 260};
  c.data_offset = offsets[rng() % std::size(offsets)];
  c.indices_offset = offsets[rng() % std::size(offsets)];
  c.updates_offset = offsets[rng() % std::size(offsets)];
  c.output_offset = offsets[rng() % std::size(offsets)];
  const uint64_t alignment = rng() % 2 ? 16 : 64;
  c.device = fakeDevice(alignment * (4 + rng() % 12), alignment);
  // ScatterElements none: the walk, or the winner table where it fits a window, claimed either way.
  c.device.min_walk_lines = rng() % 2 ? 0 : UINT64_MAX;
  c.device.max_single_line_walk_updates = rng() % 2 ? UINT64_MAX : rng() % 8;  // a vector's walk or table
  c.device.min_atomic_walk_lines = rng() % 2 ? 0 : UINT64_MAX;  // integer reductions walked or by atomics
  c.device.min_float32_add_fold_duplicates = rng() % 4;         // float32 adds on one line folded, or not
  c.device.claim_by_store = rng() % 2 != 0;
  return c;
}

void simulateRandomCases(bool nd, uint32_t seed) {
  std::mt19937 rng(seed);
  int planned = 0;
  for (int round = 0; round < 400; ++round) {
    const ScatterCase c = randomScatterCase(rng, nd);
    SCOPED_TRACE(describe(c));
    const Status status = simulateScatter(c, static_cast<uint32_t>(rng()));
    if (status.ok()) {
      ++planned;
    } else {
      // Refused only where one slice (with its tuple) cannot fit a window.
      ASSERT_EQ(status.code(), StatusCode::kUnsupported) << status.toString();
      ASSERT_TRUE(nd) << status.toString();
      ASSERT_NE(status.message().find("a slice of"), std::string::npos) << status.toString();
    }
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(planned, 300) << "most cases must plan";
}

TEST(ScatterSimulationTest, ElementsAcrossWindows) { simulateRandomCases(false, 11); }

TEST(ScatterSimulationTest, TuplesAcrossWindows) { simulateRandomCases(true, 12); }

// A KV row update (one tuple in place, reduction none) is one self-checking dispatch: whole-word slices
// move in 16-, 8- or 4-byte units (scatter_nd_rows_checked*, no winner table), others element by
// element (scatter_nd_move_checked). Every type, slices of 1 to 8 elements, offsets 0 to 16.
TEST(ScatterSimulationTest, KvRowUpdateIsOneDispatch) {
  int rows_kernels = 0;
  for (DataType type : kTypes) {
    for (int64_t inner : {1, 2, 3, 5, 8}) {
      for (uint64_t offset : {0, 4, 8, 16}) {
        ScatterCase c;
        c.nd = true;
        c.data_type = type;
        c.data_shape = {6, inner};
        c.indices_shape = {1, 1};
        c.index_type = DataType::kInt64;
        c.in_place = true;
        c.data_offset = c.output_offset = offset;
        c.updates_offset = 256 + offset;
        c.device = fakeDevice(uint64_t(1) << 20, 16);
        SCOPED_TRACE(describe(c));
        const Status simulated = simulateScatter(c, static_cast<uint32_t>(inner + offset));
        ASSERT_TRUE(simulated.ok()) << simulated.toString();
        StatusOr<ScatterShape> shape =
            inferScatterNDShape(c.data_shape, type, c.indices_shape, DataType::kInt64, {1, inner}, type, c.reduction);
        ASSERT_TRUE(shape.ok());
        const uint64_t bytes = 6 * inner * elementSize(type);
        const StatusOr<OpPlan> plan =
            planScatter(*shape, placed(offset, bytes), placed(0, 8), placed(256 + offset, bytes / 6),
                        placed(offset, bytes), true, c.device, c.device);
        ASSERT_TRUE(plan.ok());
        ASSERT_EQ(plan->steps.size(), 1u) << kernels(*plan);
        const bool whole_words = inner * elementSize(type) % 4 == 0 && offset % 4 == 0;
        EXPECT_EQ(isSelfCheckingScatterNDRowsKernel(plan->steps[0].kernel), whole_words) << kernels(*plan);
        rows_kernels += whole_words ? 1 : 0;
      }
    }
  }
  EXPECT_GT(rows_kernels, 30);
}

TEST(ScatterSimulationTest, LinesLongerThanAWindow) {
  // A 1-D axis of 3000 int64 updates (24 KiB) on 256-byte windows: runs of single axis positions
  // split the inner lines, and targets span 113 output windows.
  for (bool in_place : {false, true}) {
    ScatterCase c;
    c.data_shape = {40, 700};
    c.data_type = DataType::kInt64;
    c.indices_shape = {6, 500};
    c.axis = 0;
    c.reduction = Reduction::kAdd;
    c.in_place = in_place;
    c.updates_offset = 20;
    c.device = fakeDevice(256, 16);
    SCOPED_TRACE(describe(c));
    EXPECT_TRUE(simulateScatter(c, 3).ok());
  }
}

// Reductions by the fold by owner (a device that never walks, every tensor in one window): vectors,
// rows along the last axis and narrow ScatterND slices, whose targets receive from a few updates
// each (light buckets, filled in a random order that the owners must sort) to thousands (heavy targets,
// sorted by heavy id and folded run by run), beyond DeviceInfo::max_walk_steps updates in one case of
// five so that the heavy runs take several fold passes, and up to 600 targets in one case of three so
// that heavy ids take up to three digit passes. Half the devices give each heavy run a workgroup where
// a call has at most 1024 or 4 heavy targets (Tuning::most_workgroup_runs), which reduces max
// runs and stages add runs.
TEST(ScatterSimulationTest, FoldByOwner) {
  std::mt19937 rng(0xf01d);
  for (int round = 0; round < 40; ++round) {
    ScatterCase c;
    c.nd = round % 2 == 1;
    c.data_type = kTypes[rng() % std::size(kTypes)];
    c.index_type = rng() % 2 ? DataType::kInt64 : DataType::kInt32;
    c.reduction = c.data_type == DataType::kComplex128 || rng() % 2 ? Reduction::kAdd : Reduction::kMax;
    c.in_place = rng() % 2;
    const int64_t targets = 1 + static_cast<int64_t>(rng() % (round % 3 == 0 ? 600 : 60));
    const int64_t updates = round % 5 == 0 ? 160000 : 1 + static_cast<int64_t>(rng() % 1200);
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 3);
    if (c.nd) {
      c.data_shape = {targets, rows};
      c.indices_shape = {updates, 1};
    } else {
      c.data_shape = {rows, targets};
      c.indices_shape = {1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(rows)), updates};
      c.axis = rng() % 2 ? 1 : -1;
    }
    const uint64_t offsets[] = {0, 4, 16, 260};
    c.data_offset = offsets[rng() % std::size(offsets)];
    c.indices_offset = offsets[rng() % std::size(offsets)];
    c.updates_offset = offsets[rng() % std::size(offsets)];
    c.output_offset = offsets[rng() % std::size(offsets)];
    c.device = fakeDevice(uint64_t(1) << 20, rng() % 2 ? 16 : 64);
    c.device.min_walk_lines = UINT64_MAX;
    c.device.most_workgroup_runs = round % 4 == 0 ? 1024 : round % 4 == 1 ? 4 : 0;
    SCOPED_TRACE(describe(c));
    ASSERT_TRUE(simulateScatter(c, static_cast<uint32_t>(rng())).ok());
    if (::testing::Test::HasFailure()) return;
  }
}

// ScatterND's tuples of no components (k = 0): every tuple addresses the whole of data, and the steps
// bind no index (the simulator gives them an empty indices window, so a read would fail). Walks,
// winner tables and folds by owner, with updates spanning several windows.
TEST(ScatterSimulationTest, EmptyTuplesAddressAllOfData) {
  std::mt19937 rng(0xe0);
  for (int round = 0; round < 60; ++round) {
    ScatterCase c;
    c.nd = true;
    c.data_type = kTypes[rng() % std::size(kTypes)];
    c.index_type = rng() % 2 ? DataType::kInt64 : DataType::kInt32;
    const Reduction reductions[] = {Reduction::kNone, Reduction::kAdd, Reduction::kMul};
    c.reduction = reductions[rng() % std::size(reductions)];
    c.in_place = rng() % 2;
    c.data_shape = randomShape(rng, 1 + rng() % 2, 8);
    c.indices_shape = round % 4 == 0 ? Shape{0} : Shape{1 + static_cast<int64_t>(rng() % 50), 0};
    const uint64_t offsets[] = {0, 4, 16, 260};
    c.data_offset = offsets[rng() % std::size(offsets)];
    c.indices_offset = offsets[rng() % std::size(offsets)];
    c.updates_offset = offsets[rng() % std::size(offsets)];
    c.output_offset = offsets[rng() % std::size(offsets)];
    c.device = fakeDevice(256, 16);
    c.device.min_walk_lines = rng() % 2 ? 0 : UINT64_MAX;
    c.device.claim_by_store = rng() % 2 != 0;
    SCOPED_TRACE(describe(c));
    ASSERT_TRUE(simulateScatter(c, static_cast<uint32_t>(rng())).ok());
    if (::testing::Test::HasFailure()) return;
  }
}

// Ranks 9 to 12 whose dims cannot coalesce (every non-axis indices dim shorter than data's) are more
// than the kernels' VKINDEX_MAX_ELEMENT_DIMS: the plan walks them block by block
// (plan/element_blocks.hpp), the axis among the peeled dims or not, each block binding only its own
// ranges of the tensors, and every data element must still receive exactly its updates in index order,
// for every reduction and with the axis longer than data's (duplicates). A third of the cases bind at
// most 64 KiB, where the larger tensors span several windows: more dims are peeled until each block's
// updates fit one, and a block's targets take a pass per window. Blocks beyond kMaxPeeledBlocks are
// refused.
TEST(ScatterSimulationTest, HighRanksThatDoNotCoalescePeelTheirOuterDims) {
  std::mt19937 rng(0x9ea);
  const Reduction reductions[] = {Reduction::kNone, Reduction::kAdd, Reduction::kMul, Reduction::kMax};
  int windowed = 0;
  for (int round = 0; round < 30; ++round) {
    ScatterCase c;
    c.data_type = kTypes[rng() % 4];  // no complex128: it has no max
    c.index_type = rng() % 2 ? DataType::kInt64 : DataType::kInt32;
    c.reduction = reductions[rng() % std::size(reductions)];
    c.in_place = rng() % 2;
    const size_t rank = 9 + rng() % 4;
    const size_t axis = round % 3 == 0 ? 0 : rng() % rank;  // the axis peeled in a third of the rounds
    c.axis = static_cast<int64_t>(axis) - (rng() % 2 ? static_cast<int64_t>(rank) : 0);
    c.data_shape.resize(rank);
    c.indices_shape.resize(rank);
    for (size_t d = 0; d < rank; ++d) {
      c.data_shape[d] = rng() % 4 == 0 ? 4 : 3;
      c.indices_shape[d] = d == axis ? 1 + static_cast<int64_t>(rng() % 6) : 2;
    }
    const uint64_t offsets[] = {0, 4, 16, 260};
    c.data_offset = offsets[rng() % std::size(offsets)];
    c.indices_offset = offsets[rng() % std::size(offsets)];
    c.updates_offset = offsets[rng() % std::size(offsets)];
    c.output_offset = offsets[rng() % std::size(offsets)];
    c.device = fakeDevice(round % 3 == 1 ? uint64_t(1) << 16 : uint64_t(1) << 28, rng() % 2 ? 16 : 64);
    c.device.min_walk_lines = rng() % 2 ? 0 : UINT64_MAX;
    c.device.claim_by_store = rng() % 2 != 0;
    SCOPED_TRACE(describe(c));
    const Status status = simulateScatter(c, static_cast<uint32_t>(rng()));
    uint64_t data_bytes = elementSize(c.data_type);
    for (int64_t dim : c.data_shape) data_bytes *= static_cast<uint64_t>(dim);
    ASSERT_TRUE(status.ok()) << status.toString();
    windowed += data_bytes > c.device.max_storage_buffer_range ? 1 : 0;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GE(windowed, 5) << "some cases must span several windows";
  // 256-byte windows (224 bytes of room) hold 56 floats: data [3] x 9 with indices [2] x 9 peels 4
  // dims for blocks of 32 updates, whose targets (1 + 3^4 + ... + 3^0 + 3^4 floats from their base)
  // span several windows.
  ScatterCase c;
  c.data_shape = Shape(9, 3);
  c.indices_shape = Shape(9, 2);
  c.axis = 4;
  c.reduction = Reduction::kAdd;
  c.device = fakeDevice(256, 16);
  EXPECT_TRUE(simulateScatter(c, 1).ok());
  // Sixteen dims with int64 indices in 128-byte windows (96 bytes of room): blocks of at most 12 updates
  // would be 2^16 / 8 = 8192, more than kMaxPeeledBlocks.
  c.data_type = DataType::kUInt8;
  c.index_type = DataType::kInt64;
  c.in_place = true;
  c.data_shape = Shape(16, 3);
  c.indices_shape = Shape(16, 2);
  c.device = fakeDevice(128, 16);
  expectError(simulateScatter(c, 1), StatusCode::kUnsupported,
              "ScatterElements: the tensors coalesce to 16 dims, more than 8, and run a block at a time; blocks whose "
              "updates each fit one storage-buffer binding of this device (maxStorageBufferRange 128) would be more "
              "than 4096");
  // Twenty dims with the axis outermost peel 13: 8192 blocks.
  c.axis = 0;
  c.data_type = DataType::kUInt8;
  c.data_shape = Shape(20, 3);
  c.indices_shape = Shape(20, 2);
  expectError(simulateScatter(c, 1), StatusCode::kUnsupported,
              "ScatterElements: the tensors coalesce to 20 dims, whose 13 outermost run one pass per coordinate "
              "(8192); vkindex runs at most 4096");
}

TEST(ScatterSimulationTest, ASliceLargerThanAWindowIsRefused) {
  ScatterCase c;
  c.nd = true;
  c.data_shape = {4, 100};
  c.indices_shape = {2, 1};
  c.device = fakeDevice(256, 16);
  expectError(simulateScatter(c, 1), StatusCode::kUnsupported,
              "ScatterND: a slice of 400 bytes is more than this device can bind at once (maxStorageBufferRange 256)");
}

}  // namespace
}  // namespace vkindex::plan::test
