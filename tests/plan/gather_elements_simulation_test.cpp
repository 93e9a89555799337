// GatherElements plans run on the byte-level kernel simulator (gather_elements_simulator.hpp): every
// element size on tiny fake devices at offsets that are multiples of 4 but not of 16, with the data,
// the indices and the output each over several windows; ranks 1 to 8 with every axis; high ranks that
// coalesce, and ranks 9 to 11 that do not (peeled into blocks); bad indices in every window; thousands
// of random problems. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gather_elements_simulator.hpp"
#include "plan/gather_elements_plan.hpp"
#include "plan/shape.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

// 1040 - 32 = 1008 bytes hold 126 int64 indices: sub-word output chunks then split words.
const std::vector<uint64_t> kRanges = {1024, 1040, 4096};
const std::vector<uint64_t> kAlignments = {16, 64, 256};
const std::vector<uint64_t> kElementsOffsets = {0, 4, 24, 36};  // multiples of 4, none of 16 but 0

struct SweepTally {
  uint64_t cases = 0, masked_stores = 0, unit_bytes_seen = 0;  // unit_bytes_seen: a bit per unit size
};

// Simulates one problem on every tiny device, at every combination of tensor offsets, with both index
// widths. Problems are sized so that on the 1024-byte device the data, the indices and the output
// each need several windows; that is checked, so a sweep cannot silently stop covering it.
void sweep(const Shape& data_shape, DataType type, int64_t axis, const Shape& indices_shape, uint32_t seed,
           SweepTally& tally) {
  forEachSweepPoint(kRanges, kAlignments, kElementsOffsets, [&](const SweepPoint& at) {
    const ElementsCase c{
        data_shape,  type, indices_shape, at.index_type, axis, at.data_offset, at.indices_offset, at.output_offset,
        at.device(), {}};
    std::optional<ElementsRun> run = simulate(c, seed++);
    EXPECT_TRUE(run) << describe(c);
    if (!run) return false;
    ++tally.cases;
    tally.masked_stores += run->masked_stores;
    const std::vector<ElementsStep> passes = elementSteps(run->plan);
    if (!passes.empty()) tally.unit_bytes_seen |= passes.front().step.spec[kSpecUnitBytes];
    if (at.range == 1024) {
      EXPECT_GT(checkSteps(run->plan).size(), 1u) << describe(c);
      EXPECT_GT(distinctWindows(run->plan, isElementGatherKernel, Role::kData), 1u) << describe(c);
      EXPECT_GT(distinctWindows(run->plan, isElementGatherKernel, Role::kOutput), 1u) << describe(c);
    }
    return !::testing::Test::HasFailure();
  });
}

TEST(GatherElementsSimulationTest, SubWordElementsOnTinyDevicesAtEveryOffset) {
  // Indices shorter than data in dims 0 and 2, longer along the axis; 1600 elements over 2100.
  SweepTally tally;
  sweep({6, 70, 5}, DataType::kUInt8, 1, {5, 80, 4}, 11, tally);
  if (HasFailure()) return;
  sweep({6, 70, 5}, DataType::kFloat16, -2, {5, 80, 4}, 13, tally);
  EXPECT_EQ(tally.unit_bytes_seen, 1u | 2u);
  // Output words shared by data windows and chunks are stored through the masked (atomic) path.
  EXPECT_GT(tally.masked_stores, tally.cases);
}

TEST(GatherElementsSimulationTest, WordElementsOnTinyDevicesAtEveryOffset) {
  // 4-, 8- and 16-byte elements move as 4-, 8- or 16-byte units as the offsets allow.
  SweepTally tally;
  sweep({3, 50, 5}, DataType::kFloat32, 1, {2, 60, 5}, 17, tally);
  if (HasFailure()) return;
  sweep({3, 50, 5}, DataType::kInt64, 0, {4, 40, 5}, 19, tally);
  if (HasFailure()) return;
  sweep({3, 50, 5}, DataType::kComplex128, -1, {2, 40, 7}, 23, tally);
  EXPECT_EQ(tally.unit_bytes_seen, 4u | 8u | 16u);
  EXPECT_EQ(tally.masked_stores, 0u);
}

// Shapes for the rank sweep: data dims per rank, and indices that are shorter in some non-axis
// dims and longer or shorter along the axis.
Shape rankData(int64_t rank) {
  static const Shape kDims[] = {{300},           {30, 40},           {9, 10, 11},           {5, 6, 1, 7},
                                {3, 4, 5, 2, 3}, {3, 2, 4, 3, 1, 5}, {2, 3, 2, 4, 3, 2, 3}, {3, 2, 2, 3, 1, 2, 3, 2}};
  return kDims[rank - 1];
}

Shape rankIndices(const Shape& data, int64_t axis) {
  Shape indices = data;
  for (size_t d = 0; d < data.size(); ++d) {
    if (static_cast<int64_t>(d) == axis) {
      indices[d] = d % 2 == 0 ? data[d] + 3 : std::max<int64_t>(1, data[d] - 1);
    } else if (d % 3 == 1 && data[d] > 1) {
      indices[d] = data[d] - 1;
    }
  }
  return indices;
}

TEST(GatherElementsSimulationTest, RanksOneToEightWithEveryAxis) {
  const DataType types[] = {DataType::kUInt8, DataType::kFloat16, DataType::kFloat32, DataType::kFloat64,
                            DataType::kComplex128};
  const FakeDevice devices[] = {fakeDevice(1024, 16), fakeDevice(1040, 16, 32, 1), fakeDevice(4096, 64, 128, 2)};
  const uint64_t offsets[][3] = {{0, 0, 0}, {4, 12, 36}, {36, 24, 4}, {24, 4, 0}};
  uint32_t seed = 101;
  int several[9][3] = {};  // per rank: cases with several check, data and output windows
  for (int64_t rank = 1; rank <= 8; ++rank) {
    const Shape data = rankData(rank);
    for (int64_t axis = 0; axis < rank; ++axis) {
      const Shape indices = rankIndices(data, axis);
      for (DataType type : types) {
        for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
          for (const FakeDevice& device : devices) {
            for (const auto& offset : offsets) {
              // Every axis both ways round.
              const int64_t signed_axis = seed % 2 == 0 ? axis : axis - rank;
              const ElementsCase c{data,      type,      indices,   index_type, signed_axis,
                                   offset[0], offset[1], offset[2], device,     {}};
              std::optional<ElementsRun> run = simulate(c, seed++);
              ASSERT_TRUE(run) << describe(c);
              if (HasFailure()) return;
              several[rank][0] += checkSteps(run->plan).size() > 1;
              several[rank][1] += distinctWindows(run->plan, isElementGatherKernel, Role::kData) > 1;
              several[rank][2] += distinctWindows(run->plan, isElementGatherKernel, Role::kOutput) > 1;
            }
          }
        }
      }
    }
    // Every rank has cases where the indices, the data and the output each span several windows.
    EXPECT_GT(several[rank][0], 0) << "rank " << rank;
    EXPECT_GT(several[rank][1], 0) << "rank " << rank;
    EXPECT_GT(several[rank][2], 0) << "rank " << rank;
  }
}

TEST(GatherElementsSimulationTest, HighRanksThatCoalesce) {
  // Rank 10 with equal shapes, and rank 9 whose last dims merge: at most 8 dims reach the kernel.
  const ElementsCase ten{{2, 3, 2, 3, 2, 3, 2, 3, 2, 3},
                         DataType::kInt16,
                         {2, 3, 2, 3, 2, 3, 2, 3, 2, 3},
                         DataType::kInt64,
                         4,
                         4,
                         12,
                         36,
                         fakeDevice(1024, 16),
                         {}};
  ASSERT_TRUE(simulate(ten, 1));
  const ElementsCase nine{{3, 3, 3, 3, 3, 3, 3, 3, 3},
                          DataType::kFloat32,
                          {2, 2, 2, 2, 2, 2, 2, 2, 3},
                          DataType::kInt32,
                          0,
                          36,
                          4,
                          24,
                          fakeDevice(1024, 64),
                          {}};
  ASSERT_TRUE(simulate(nine, 2));
  // Eight apart (every non-axis indices dim shorter than data's): the most the kernel takes.
  for (DataType type : {DataType::kUInt8, DataType::kFloat32}) {
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      const ElementsCase eight{Shape(8, 3), type, {2, 2, 2, 4, 2, 2, 2, 2}, index_type, 3, 4,
                               24,          36,   fakeDevice(1024, 16),     {}};
      std::optional<ElementsRun> run = simulate(eight, 3);
      ASSERT_TRUE(run);
      ASSERT_FALSE(elementSteps(run->plan).empty());
      EXPECT_EQ(elementSteps(run->plan).front().step.spec[kSpecDimCount], 8u);
      EXPECT_GT(elementSteps(run->plan).size(), 1u);
    }
  }
}

TEST(GatherElementsSimulationTest, HighRanksThatDoNotCoalescePeelTheirOuterDims) {
  // Nine to eleven dims apart (every non-axis indices dim shorter than data's): the outermost are
  // peeled, one block of output per coordinate tuple, the kernel taking the innermost 8 (a peeled
  // axis stays there as a dim of extent 1). On the 1024-byte device each block spans several data
  // windows and binds only those its sources reach.
  for (int64_t rank : {9, 10, 11}) {
    for (int64_t axis : {int64_t{0}, int64_t{1}, rank - 1, -rank + 2}) {
      for (DataType type : {DataType::kUInt8, DataType::kFloat16, DataType::kFloat32, DataType::kComplex128}) {
        Shape indices(static_cast<size_t>(rank), 2);
        indices[static_cast<size_t>(axis < 0 ? axis + rank : axis)] = 3;  // longer than data's along the axis
        const ElementsCase c{Shape(static_cast<size_t>(rank), 3),
                             type,
                             indices,
                             DataType::kInt64,
                             axis,
                             4,
                             24,
                             36,
                             fakeDevice(1024, 16),
                             {}};
        SCOPED_TRACE(describe(c));
        std::optional<ElementsRun> run = simulate(c, static_cast<uint32_t>(rank * 16 + axis));
        ASSERT_TRUE(run);
        const std::vector<ElementsStep> passes = elementSteps(run->plan);
        ASSERT_FALSE(passes.empty());
        EXPECT_EQ(passes.front().step.spec[kSpecDimCount], 8u);
        // At least one pass per block: 2^(rank - 8) blocks, twice that where the axis is peeled.
        EXPECT_GE(passes.size(), uint64_t(1) << (rank - 8));
      }
    }
  }
  // A bad index in a late block is found by the one check over every index, and nothing is written.
  ElementsCase bad{
      Shape(10, 3), DataType::kFloat32, Shape(10, 2), DataType::kInt32, 9, 4, 24, 36, fakeDevice(1024, 16), {}};
  bad.bad = {{1000, 3}, {1001, -4}};  // 1024 elements: the last block's
  std::optional<ElementsRun> run = simulate(bad, 7);
  ASSERT_TRUE(run);
  EXPECT_TRUE(run->bad_found);
  // More blocks than kMaxPeeledBlocks: planning refuses, with the message (checked by simulate).
  const ElementsCase many{
      Shape(21, 3), DataType::kUInt8, Shape(21, 2), DataType::kInt32, 20, 0, 0, 0, fakeDevice(1024, 64), {}};
  EXPECT_FALSE(simulate(many, 8));
}

TEST(GatherElementsSimulationTest, EmptyAxisReportsTheFirstIndex) {
  // Every index addresses an axis of size 0: position 0 is reported, nothing written.
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    const ElementsCase c{{3, 0, 2}, DataType::kUInt8, {3, 4, 2}, index_type, 1, 4, 12, 36, fakeDevice(1024, 16), {}};
    std::optional<ElementsRun> run = simulate(c, 5);
    ASSERT_TRUE(run);
    EXPECT_TRUE(run->bad_found);
  }
}

TEST(GatherElementsSimulationTest, BadIndicesAreFoundAndReportedInEveryWindow) {
  // 1200 indices over several check windows; the axis has 50 entries. Bad values go at both ends of
  // every check window, with a later bad index that must lose.
  const int64_t A = 50, big = int64_t(1) << 32;
  const std::vector<int64_t> narrow_bad = {A, -A - 1, kInt32Max, kInt32Min};
  std::vector<int64_t> wide_bad = narrow_bad;
  // 2^32 + k: the low word alone would look valid.
  wide_bad.insert(wide_bad.end(), {big, big + A - 1, -big, -big + 1, -big - 1, kInt64Max, kInt64Min});
  uint32_t seed = 1;
  int found = 0;
  for (uint64_t range : {1024u, 8192u}) {
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      for (DataType type : {DataType::kInt16, DataType::kFloat32}) {
        ElementsCase c{{4, A, 3}, type, {4, 100, 3}, index_type, 1, 4, 12, 36, fakeDevice(range, 64), {}};
        std::optional<ElementsRun> clean = simulate(c, seed++);
        ASSERT_TRUE(clean);
        std::set<uint64_t> positions = {0, 1199};
        for (const CheckStep& check : checkSteps(clean->plan)) {
          positions.insert(check.params.position_base);
          positions.insert(check.params.position_base + check.params.index_count - 1);
        }
        if (range == 1024) {
          EXPECT_GT(positions.size(), 4u);
        }
        for (int64_t value : index_type == DataType::kInt32 ? narrow_bad : wide_bad) {
          for (uint64_t position : positions) {
            c.bad = {{position, value}};
            if (position + 130 < 1200) c.bad.push_back({position + 130, A + 7});
            std::optional<ElementsRun> run = simulate(c, seed++);
            ASSERT_TRUE(run);
            found += run->bad_found;
            if (HasFailure()) return;
          }
        }
      }
    }
  }
  EXPECT_GT(found, 200);
}

ElementsCase randomElementsCase(std::mt19937& rng) {
  const auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  const auto pick = [&](const auto& list) { return list[static_cast<size_t>(uniform(0, std::size(list) - 1))]; };
  const DataType types[] = {DataType::kBool,      DataType::kInt8,      DataType::kUInt16, DataType::kFloat16,
                            DataType::kFloat32,   DataType::kString,    DataType::kInt64,  DataType::kFloat64,
                            DataType::kComplex64, DataType::kComplex128};
  const uint64_t ranges[] = {1024, 1040, 2048, 4096, 8192}, alignments[] = {4, 16, 64, 256};
  const uint32_t workgroups[] = {32, 64, 128}, items[] = {1, 2, 4};
  for (;;) {
    ElementsCase c;
    c.data_type = pick(types);
    const int64_t rank = uniform(1, 8), axis = uniform(0, rank - 1);
    const int64_t most = rank <= 2 ? 40 : rank <= 4 ? 8 : 4;
    for (int64_t d = 0; d < rank; ++d) {
      // High ranks keep most dims longer than 1, so that many of them reach the kernel.
      const int64_t low = rank >= 5 ? 2 : 1;
      const int64_t extent = uniform(0, 5) == 0 ? 1 : uniform(low, most);
      c.data_shape.push_back(extent);
      // Indices: the same extent a third of the time, else any up to data's (any along the axis).
      c.indices_shape.push_back(d == axis            ? uniform(1, most + 3)
                                : uniform(0, 2) == 0 ? extent
                                                     : uniform(std::min(low, extent), extent));
    }
    if (uniform(0, 19) == 0) c.indices_shape[static_cast<size_t>(uniform(0, rank - 1))] = 0;
    if (uniform(0, 29) == 0) {  // an empty data dim (then the indices must be empty or the axis empty)
      const size_t d = static_cast<size_t>(uniform(0, rank - 1));
      c.data_shape[d] = 0;
      if (d != static_cast<size_t>(axis)) c.indices_shape[d] = 0;
    }
    c.axis = uniform(0, 1) == 0 ? axis : axis - rank;
    c.index_type = uniform(0, 1) == 0 ? DataType::kInt32 : DataType::kInt64;
    c.data_offset = pick(kElementsOffsets);
    c.indices_offset = pick(kElementsOffsets);
    c.output_offset = pick(kElementsOffsets);
    c.device = fakeDevice(pick(ranges), pick(alignments), pick(workgroups), pick(items));
    const int64_t A = c.data_shape[static_cast<size_t>(axis)];
    const uint64_t N = *elementCount(c.indices_shape), D = *elementCount(c.data_shape);
    if (N > 0 && uniform(0, 2) == 0) {
      const int64_t bad[] = {A, -A - 1, A + 1000, kInt32Min, int64_t(1) << 32, kInt64Min};
      for (int64_t k = uniform(1, 2); k > 0; --k) {
        const int64_t value = bad[uniform(0, c.index_type == DataType::kInt32 ? 3 : 5)];
        c.bad.push_back({static_cast<uint64_t>(uniform(0, static_cast<int64_t>(N) - 1)), value});
      }
    }
    const uint64_t E = elementSize(c.data_type);
    if (N * E <= (uint64_t(1) << 16) && D * E <= (uint64_t(1) << 16)) return c;
  }
}

TEST(GatherElementsSimulationTest, RandomShapesTypesOffsetsAndDevices) {
  std::mt19937 rng(20240612);
  int several_index_windows = 0, several_data_windows = 0, sub_word = 0, masked = 0, empty = 0, with_bad = 0;
  int found = 0, high_rank = 0;
  for (uint32_t i = 0; i < 4000; ++i) {
    const ElementsCase c = randomElementsCase(rng);
    std::optional<ElementsRun> run = simulate(c, i);
    if (HasFailure()) return;
    ASSERT_TRUE(run) << describe(c);
    const std::vector<ElementsStep> passes = elementSteps(run->plan);
    several_index_windows += checkSteps(run->plan).size() > 1;
    several_data_windows += distinctWindows(run->plan, isElementGatherKernel, Role::kData) > 1;
    sub_word += !passes.empty() && passes.front().step.spec[kSpecUnitBytes] < 4;
    masked += run->masked_stores > 0;
    empty += passes.empty();
    with_bad += !c.bad.empty();
    found += run->bad_found;
    high_rank += passes.size() > 0 && passes.front().step.spec[kSpecDimCount] >= 5;
  }
  // The generator keeps reaching every regime (934, 901, 1463, 288, 370, 1259, 1300 and 193 of 4000
  // when written).
  EXPECT_GT(several_index_windows, 400);
  EXPECT_GT(several_data_windows, 400);
  EXPECT_GT(sub_word, 700);
  EXPECT_GT(masked, 140);
  EXPECT_GT(empty, 180);
  EXPECT_GT(with_bad, 600);
  EXPECT_GT(found, 600);
  EXPECT_GT(high_rank, 90);
}

}  // namespace
}  // namespace vkindex::plan::test
