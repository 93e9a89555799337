// Unit tests for the planners' window and shape arithmetic, no GPU needed (planGather itself, with
// its simulator, is in gather_plan_test.cpp, gather_simulation_test.cpp (with gather_simulator.hpp)):
//   src/plan/windows.hpp: bindingAlignment, windowCapacity (including its "fits wherever it starts"
//     guarantee, swept over starts and spans), windowFor (offset, size, lead) and alignUp/alignDown;
//   src/plan/shape.hpp: productOf/elementCount (negatives, 63-bit overflow, zero dims),
//     shapeString and coordinatesString;
//   inferGatherShape (src/plan/gather_plan.hpp): output shapes for every axis of ranks 1..8 (negative
//     axes too), scalar and empty indices, zero-sized dims, the (outer, axis, index count, row bytes)
//     view for every dtype, and the exact code and message of every error.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "plan/gather_plan.hpp"
#include "plan/shape.hpp"
#include "plan/windows.hpp"

namespace vkindex::plan {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr uint64_t kUInt64Max = std::numeric_limits<uint64_t>::max();

DeviceInfo fakeDevice(uint64_t range, uint64_t alignment) {
  DeviceInfo device;
  device.max_storage_buffer_range = range;
  device.min_storage_buffer_offset_alignment = alignment;
  device.max_workgroup_count = {65535, 65535, 65535};
  return device;
}

// ---------------------------------------------------------------------------------------------
// alignUp / alignDown

TEST(AlignTest, AlignUpRoundsToTheNextMultiple) {
  EXPECT_EQ(alignUp(0, 16), 0u);
  EXPECT_EQ(alignUp(1, 16), 16u);
  EXPECT_EQ(alignUp(15, 16), 16u);
  EXPECT_EQ(alignUp(16, 16), 16u);
  EXPECT_EQ(alignUp(17, 16), 32u);
  EXPECT_EQ(alignUp(17, 4), 20u);
  EXPECT_EQ(alignUp(5, 1), 5u);
  EXPECT_EQ(alignUp(257, 256), 512u);
  EXPECT_EQ(alignUp(kUInt64Max - 15, 16), kUInt64Max - 15);  // already aligned, no overflow
  EXPECT_EQ(alignUp(uint64_t(1) << 40, 256), uint64_t(1) << 40);
}

TEST(AlignTest, AlignDownRoundsToThePreviousMultiple) {
  EXPECT_EQ(alignDown(0, 16), 0u);
  EXPECT_EQ(alignDown(15, 16), 0u);
  EXPECT_EQ(alignDown(16, 16), 16u);
  EXPECT_EQ(alignDown(17, 16), 16u);
  EXPECT_EQ(alignDown(1023, 4), 1020u);
  EXPECT_EQ(alignDown(5, 1), 5u);
  EXPECT_EQ(alignDown(kUInt64Max, 256), 0xFFFFFFFFFFFFFF00ull);
}

TEST(AlignTest, AlignUpAndDownBracketEveryValue) {
  for (uint64_t multiple : {1u, 2u, 4u, 16u, 64u, 256u}) {
    for (uint64_t value = 0; value < 1000; ++value) {
      const uint64_t up = alignUp(value, multiple), down = alignDown(value, multiple);
      ASSERT_EQ(up % multiple, 0u);
      ASSERT_EQ(down % multiple, 0u);
      ASSERT_LE(down, value);
      ASSERT_GE(up, value);
      ASSERT_EQ(up - down, value % multiple == 0 ? 0 : multiple) << value << " " << multiple;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// bindingAlignment / windowCapacity

TEST(WindowsTest, BindingAlignmentIsTheDeviceMinimumButAtLeast16) {
  EXPECT_EQ(bindingAlignment(fakeDevice(1024, 0)), 16u);
  EXPECT_EQ(bindingAlignment(fakeDevice(1024, 1)), 16u);
  EXPECT_EQ(bindingAlignment(fakeDevice(1024, 4)), 16u);
  EXPECT_EQ(bindingAlignment(fakeDevice(1024, 16)), 16u);
  EXPECT_EQ(bindingAlignment(fakeDevice(1024, 32)), 32u);
  EXPECT_EQ(bindingAlignment(fakeDevice(1024, 64)), 64u);
  EXPECT_EQ(bindingAlignment(fakeDevice(1024, 256)), 256u);
}

TEST(WindowsTest, WindowCapacityLeavesRoomForALeadAndATail) {
  // range rounded down to the alignment, less two alignments.
  EXPECT_EQ(windowCapacity(fakeDevice(1024, 16)), 992u);
  EXPECT_EQ(windowCapacity(fakeDevice(1024, 4)), 992u);  // alignment 4 binds as 16
  EXPECT_EQ(windowCapacity(fakeDevice(1024, 64)), 896u);
  EXPECT_EQ(windowCapacity(fakeDevice(1024, 256)), 512u);
  EXPECT_EQ(windowCapacity(fakeDevice(4096, 64)), 3968u);
  EXPECT_EQ(windowCapacity(fakeDevice(8192, 256)), 7680u);
  EXPECT_EQ(windowCapacity(fakeDevice(1000, 16)), 960u);   // 1000 -> 992 - 32
  EXPECT_EQ(windowCapacity(fakeDevice(1023, 256)), 256u);  // 1023 -> 768 - 512
  EXPECT_EQ(windowCapacity(fakeDevice(uint64_t(1) << 27, 16)), (uint64_t(1) << 27) - 32);
  EXPECT_EQ(windowCapacity(fakeDevice(0xFFFFFFFFull, 16)), 0xFFFFFFF0ull - 32);
  EXPECT_EQ(windowCapacity(fakeDevice(0xFFFFFFFFull, 256)), 0xFFFFFF00ull - 512);
}

TEST(WindowsTest, WindowCapacityIsZeroWhenTwoAlignmentsDoNotFit) {
  EXPECT_EQ(windowCapacity(fakeDevice(0, 16)), 0u);
  EXPECT_EQ(windowCapacity(fakeDevice(16, 16)), 0u);
  EXPECT_EQ(windowCapacity(fakeDevice(32, 16)), 0u);
  EXPECT_EQ(windowCapacity(fakeDevice(47, 16)), 0u);  // 47 -> 32
  EXPECT_EQ(windowCapacity(fakeDevice(48, 16)), 16u);
  EXPECT_EQ(windowCapacity(fakeDevice(512, 256)), 0u);
  EXPECT_EQ(windowCapacity(fakeDevice(1024, 512)), 0u);
  EXPECT_EQ(windowCapacity(fakeDevice(1536, 512)), 512u);
}

// ---------------------------------------------------------------------------------------------
// windowFor

TEST(WindowsTest, WindowForStartsAtTheAlignedOffsetAndEndsOnAWord) {
  const DeviceInfo d16 = fakeDevice(1024, 16), d256 = fakeDevice(1024, 256);
  uint64_t lead = 99;
  Window w = windowFor(0, 10, d16, &lead);
  EXPECT_EQ(w.offset, 0u);
  EXPECT_EQ(w.size, 12u);
  EXPECT_EQ(lead, 0u);

  w = windowFor(20, 33, d16, &lead);
  EXPECT_EQ(w.offset, 16u);
  EXPECT_EQ(w.size, 20u);  // [16, 36)
  EXPECT_EQ(lead, 4u);

  w = windowFor(36, 36 + 992, d16, &lead);
  EXPECT_EQ(w.offset, 32u);
  EXPECT_EQ(w.size, 996u);
  EXPECT_EQ(lead, 4u);

  w = windowFor(300, 301, d256, &lead);
  EXPECT_EQ(w.offset, 256u);
  EXPECT_EQ(w.size, 48u);  // [256, 304)
  EXPECT_EQ(lead, 44u);

  w = windowFor(256, 512, d256, &lead);
  EXPECT_EQ(w.offset, 256u);
  EXPECT_EQ(w.size, 256u);
  EXPECT_EQ(lead, 0u);

  w = windowFor(511, 513, d256, &lead);
  EXPECT_EQ(w.offset, 256u);
  EXPECT_EQ(w.size, 260u);
  EXPECT_EQ(lead, 255u);

  // A device alignment below 16 still binds at multiples of 16.
  w = windowFor(12, 20, fakeDevice(1024, 4), &lead);
  EXPECT_EQ(w.offset, 0u);
  EXPECT_EQ(w.size, 20u);
  EXPECT_EQ(lead, 12u);

  // Far into a large buffer.
  const uint64_t big = (uint64_t(1) << 36) + 12;
  w = windowFor(big, big + 4, fakeDevice(uint64_t(1) << 27, 64), &lead);
  EXPECT_EQ(w.offset, uint64_t(1) << 36);
  EXPECT_EQ(w.size, 16u);
  EXPECT_EQ(lead, 12u);
}

// Every span of at most windowCapacity() bytes, wherever it starts (any byte: sub-word rows start
// anywhere), gets a window that is aligned, a whole number of words, covers the span, starts at most
// alignment-1 bytes early, ends at most 3 bytes late and fits maxStorageBufferRange.
TEST(WindowsTest, EverySpanUpToCapacityFitsOneWindowWhereverItStarts) {
  for (uint64_t range : {48u, 1000u, 1023u, 1024u, 4096u, 8192u}) {
    for (uint64_t alignment : {4u, 16u, 64u, 256u}) {
      const DeviceInfo device = fakeDevice(range, alignment);
      const uint64_t a = alignment < 16 ? 16 : alignment;
      const uint64_t capacity = windowCapacity(device);
      for (uint64_t begin = 0; begin < 3 * a; ++begin) {
        for (uint64_t span : {uint64_t(1), uint64_t(3), capacity / 2, capacity - 1, capacity}) {
          if (span == 0 || span > capacity) continue;
          uint64_t lead = 0;
          const Window w = windowFor(begin, begin + span, device, &lead);
          SCOPED_TRACE("range " + std::to_string(range) + " alignment " + std::to_string(alignment) + " begin " +
                       std::to_string(begin) + " span " + std::to_string(span));
          ASSERT_EQ(w.offset % a, 0u);
          ASSERT_EQ(w.size % 4, 0u);
          ASSERT_LE(w.size, range);
          ASSERT_EQ(w.offset + lead, begin);
          ASSERT_LT(lead, a);
          ASSERT_GE(w.offset + w.size, begin + span);
          ASSERT_LT(w.offset + w.size - (begin + span), 4u);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// productOf / elementCount

TEST(ShapeTest, ProductOfMultipliesTheRange) {
  const Shape dims{2, 3, 4};
  EXPECT_EQ(productOf(dims, 0, 3), std::optional<uint64_t>(24));
  EXPECT_EQ(productOf(dims, 1, 3), std::optional<uint64_t>(12));
  EXPECT_EQ(productOf(dims, 0, 1), std::optional<uint64_t>(2));
  EXPECT_EQ(productOf(dims, 1, 1), std::optional<uint64_t>(1));  // empty range
  EXPECT_EQ(productOf(dims, 3, 3), std::optional<uint64_t>(1));
  EXPECT_EQ(productOf({}, 0, 0), std::optional<uint64_t>(1));
  EXPECT_EQ(elementCount({}), std::optional<uint64_t>(1));  // a scalar has one element
  EXPECT_EQ(elementCount({7}), std::optional<uint64_t>(7));
  EXPECT_EQ(elementCount({2, 0, 5}), std::optional<uint64_t>(0));
  EXPECT_EQ(elementCount({1, 1, 1, 1, 1, 1, 1, 1}), std::optional<uint64_t>(1));
}

TEST(ShapeTest, ProductOfRejectsNegativeDimsOnlyInsideTheRange) {
  EXPECT_EQ(productOf({2, -1}, 0, 2), std::nullopt);
  EXPECT_EQ(productOf({2, -1}, 0, 1), std::optional<uint64_t>(2));
  EXPECT_EQ(productOf({-1, 5}, 1, 2), std::optional<uint64_t>(5));
  EXPECT_EQ(elementCount({-1}), std::nullopt);
  EXPECT_EQ(elementCount({0, -1}), std::nullopt);  // a zero dim does not excuse a negative one
  EXPECT_EQ(elementCount({-1, 0}), std::nullopt);
  EXPECT_EQ(elementCount({3, std::numeric_limits<int64_t>::min()}), std::nullopt);
}

TEST(ShapeTest, ProductOfDetects63BitOverflow) {
  EXPECT_EQ(elementCount({kInt64Max}), std::optional<uint64_t>(uint64_t(kInt64Max)));
  EXPECT_EQ(elementCount({kInt64Max, 1, 1}), std::optional<uint64_t>(uint64_t(kInt64Max)));
  EXPECT_EQ(elementCount({int64_t(1) << 31, int64_t(1) << 31}), std::optional<uint64_t>(uint64_t(1) << 62));
  EXPECT_EQ(elementCount({int64_t(1) << 62, 2}), std::nullopt);  // exactly 2^63
  EXPECT_EQ(elementCount({int64_t(1) << 32, int64_t(1) << 31}), std::nullopt);
  EXPECT_EQ(elementCount({3, 3074457345618258602}), std::optional<uint64_t>(9223372036854775806ull));
  EXPECT_EQ(elementCount({3, 3074457345618258603}), std::nullopt);      // 2^63 + 1
  EXPECT_EQ(elementCount({kInt64Max, kInt64Max}), std::nullopt);        // would wrap 64 bits too
  EXPECT_EQ(elementCount({65536, 65536, 65536, 65536}), std::nullopt);  // 2^64 wraps to 0
  EXPECT_EQ(elementCount({0, kInt64Max, kInt64Max}), std::optional<uint64_t>(0));
}

// A product with a zero dim is 0 wherever the zero sits, even after dims whose partial product would
// overflow: zero-element data tensors are valid whichever dim is 0.
TEST(ShapeTest, ProductOfWithAZeroDimIsZeroWhereverTheZeroSits) {
  EXPECT_EQ(elementCount({0, kInt64Max, 2}), std::optional<uint64_t>(0));
  EXPECT_EQ(elementCount({kInt64Max, 2, 0}), std::optional<uint64_t>(0));
  EXPECT_EQ(elementCount({4, int64_t(1) << 62, 0}), std::optional<uint64_t>(0));
  // Two zero-element data tensors, gathered along their 2^62-long axis 1: one accepted, one rejected.
  EXPECT_TRUE(inferGatherShape({0, int64_t(1) << 62, 4}, DataType::kInt8, {1}, DataType::kInt64, 1).ok());
  EXPECT_TRUE(inferGatherShape({4, int64_t(1) << 62, 0}, DataType::kInt8, {1}, DataType::kInt64, 1).ok());
}

// ---------------------------------------------------------------------------------------------
// shapeString / coordinatesString

TEST(ShapeTest, ShapeStringPrintsBracketedCommaSeparatedDims) {
  EXPECT_EQ(shapeString({}), "[]");
  EXPECT_EQ(shapeString({5}), "[5]");
  EXPECT_EQ(shapeString({2, 3, 4}), "[2, 3, 4]");
  EXPECT_EQ(shapeString({0, 1}), "[0, 1]");
  EXPECT_EQ(shapeString({-1, kInt64Max}), "[-1, 9223372036854775807]");
  EXPECT_EQ(shapeString({1, 2, 3, 4, 5, 6, 7, 8}), "[1, 2, 3, 4, 5, 6, 7, 8]");
}

TEST(ShapeTest, CoordinatesStringIsRowMajor) {
  EXPECT_EQ(coordinatesString({6, 7}, 23), "[3, 2]");
  EXPECT_EQ(coordinatesString({6, 7}, 0), "[0, 0]");
  EXPECT_EQ(coordinatesString({6, 7}, 41), "[5, 6]");  // the last element
  EXPECT_EQ(coordinatesString({}, 0), "[]");           // a scalar
  EXPECT_EQ(coordinatesString({5}, 4), "[4]");
  EXPECT_EQ(coordinatesString({2, 3, 4}, 13), "[1, 0, 1]");
  EXPECT_EQ(coordinatesString({2, 3, 4}, 23), "[1, 2, 3]");
  EXPECT_EQ(coordinatesString({1, 1, 9}, 8), "[0, 0, 8]");
  // Large dims keep full 64-bit precision.
  EXPECT_EQ(coordinatesString({3, int64_t(1) << 40}, (uint64_t(1) << 41) + 5), "[2, 5]");
}

TEST(ShapeTest, CoordinatesStringInvertsTheRowMajorFlatPosition) {
  const Shape dims{3, 1, 4, 2};
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t k = 0; k < 4; ++k) {
      for (int64_t l = 0; l < 2; ++l) {
        const uint64_t flat = static_cast<uint64_t>(((i * 1 + 0) * 4 + k) * 2 + l);
        EXPECT_EQ(coordinatesString(dims, flat), shapeString({i, 0, k, l}));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// inferGatherShape

// "output [2, 5, 6, 4], axis 1, outer 2, axis_size 3, index_count 30, row_bytes 16", or the error.
std::string describe(const StatusOr<GatherShape>& s) {
  if (!s.ok()) return s.status().toString();
  return "output " + shapeString(s->output_shape) + ", axis " + std::to_string(s->axis) + ", outer " +
         std::to_string(s->outer) + ", axis_size " + std::to_string(s->axis_size) + ", index_count " +
         std::to_string(s->index_count) + ", row_bytes " + std::to_string(s->row_bytes);
}

std::string gatherShape(const Shape& data, DataType type, const Shape& indices, int64_t axis,
                        DataType index_type = DataType::kInt64) {
  return describe(inferGatherShape(data, type, indices, index_type, axis));
}

uint64_t product(const Shape& dims, size_t begin, size_t end) {
  uint64_t result = 1;
  for (size_t i = begin; i < end; ++i) result *= static_cast<uint64_t>(dims[i]);
  return result;
}

TEST(InferGatherShapeTest, EveryAxisOfRanks1To8IncludingNegativeAxes) {
  const Shape dims{2, 3, 4, 5, 1, 6, 7, 2};
  for (size_t rank = 1; rank <= 8; ++rank) {
    const Shape data(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(rank));
    for (const Shape& indices : {Shape{}, Shape{3}, Shape{2, 0}, Shape{4, 1, 2}}) {
      for (int64_t axis = -static_cast<int64_t>(rank); axis < static_cast<int64_t>(rank); ++axis) {
        const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis);
        Shape output(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(a));
        output.insert(output.end(), indices.begin(), indices.end());
        output.insert(output.end(), data.begin() + static_cast<std::ptrdiff_t>(a) + 1, data.end());
        EXPECT_EQ(gatherShape(data, DataType::kFloat32, indices, axis),
                  "output " + shapeString(output) + ", axis " + std::to_string(a) + ", outer " +
                      std::to_string(product(data, 0, a)) + ", axis_size " + std::to_string(data[a]) +
                      ", index_count " + std::to_string(product(indices, 0, indices.size())) + ", row_bytes " +
                      std::to_string(4 * product(data, a + 1, rank)))
            << shapeString(data) << " axis " << axis << " indices " << shapeString(indices);
      }
    }
  }
}

TEST(InferGatherShapeTest, KnownShapes) {
  EXPECT_EQ(gatherShape({2, 3, 4}, DataType::kFloat32, {5, 6}, 1, DataType::kInt32),
            "output [2, 5, 6, 4], axis 1, outer 2, axis_size 3, index_count 30, row_bytes 16");
  EXPECT_EQ(gatherShape({2, 3, 4}, DataType::kFloat32, {2}, -1),
            "output [2, 3, 2], axis 2, outer 6, axis_size 4, index_count 2, row_bytes 4");
  EXPECT_EQ(gatherShape({2, 3, 4}, DataType::kFloat32, {5, 6}, -3),
            "output [5, 6, 3, 4], axis 0, outer 1, axis_size 2, index_count 30, row_bytes 48");
  EXPECT_EQ(gatherShape({1, 1, 1, 1, 1, 1, 1, 9}, DataType::kInt16, {2, 2}, 7),
            "output [1, 1, 1, 1, 1, 1, 1, 2, 2], axis 7, outer 1, axis_size 9, index_count 4, row_bytes 2");
}

TEST(InferGatherShapeTest, ScalarIndicesDropTheAxis) {
  EXPECT_EQ(gatherShape({5, 4}, DataType::kInt8, {}, 0),
            "output [4], axis 0, outer 1, axis_size 5, index_count 1, row_bytes 4");
  EXPECT_EQ(gatherShape({5, 4}, DataType::kInt8, {}, -1, DataType::kInt32),
            "output [5], axis 1, outer 5, axis_size 4, index_count 1, row_bytes 1");
  EXPECT_EQ(gatherShape({7}, DataType::kFloat64, {}, 0),  // a scalar output
            "output [], axis 0, outer 1, axis_size 7, index_count 1, row_bytes 8");
  EXPECT_EQ(gatherShape({2, 3, 4}, DataType::kFloat32, {}, 1),
            "output [2, 4], axis 1, outer 2, axis_size 3, index_count 1, row_bytes 16");
}

TEST(InferGatherShapeTest, EmptyIndicesAndZeroSizedDims) {
  EXPECT_EQ(gatherShape({5, 4}, DataType::kFloat32, {0}, 0),
            "output [0, 4], axis 0, outer 1, axis_size 5, index_count 0, row_bytes 16");
  EXPECT_EQ(gatherShape({5, 4}, DataType::kFloat32, {2, 0, 3}, 1),
            "output [5, 2, 0, 3], axis 1, outer 5, axis_size 4, index_count 0, row_bytes 4");
  EXPECT_EQ(gatherShape({3, 0, 2}, DataType::kFloat32, {4}, 0),
            "output [4, 0, 2], axis 0, outer 1, axis_size 3, index_count 4, row_bytes 0");
  EXPECT_EQ(gatherShape({3, 0, 2}, DataType::kFloat32, {4}, 1),
            "output [3, 4, 2], axis 1, outer 3, axis_size 0, index_count 4, row_bytes 8");
  EXPECT_EQ(gatherShape({3, 0, 2}, DataType::kFloat32, {4}, 2),
            "output [3, 0, 4], axis 2, outer 0, axis_size 2, index_count 4, row_bytes 4");
  EXPECT_EQ(gatherShape({0}, DataType::kBool, {2}, 0),
            "output [2], axis 0, outer 1, axis_size 0, index_count 2, row_bytes 1");
}

TEST(InferGatherShapeTest, RowBytesForEveryDtype) {
  const std::pair<DataType, uint64_t> sizes[] = {
      {DataType::kBool, 1},    {DataType::kInt8, 1},      {DataType::kUInt8, 1},       {DataType::kInt16, 2},
      {DataType::kUInt16, 2},  {DataType::kInt32, 4},     {DataType::kUInt32, 4},      {DataType::kInt64, 8},
      {DataType::kUInt64, 8},  {DataType::kFloat16, 2},   {DataType::kBFloat16, 2},    {DataType::kFloat32, 4},
      {DataType::kFloat64, 8}, {DataType::kComplex64, 8}, {DataType::kComplex128, 16}, {DataType::kString, 4}};
  for (const auto& [type, size] : sizes) {
    EXPECT_EQ(gatherShape({2, 3, 5}, type, {4}, 0, DataType::kInt32),
              "output [4, 3, 5], axis 0, outer 1, axis_size 2, index_count 4, row_bytes " + std::to_string(15 * size))
        << dataTypeName(type);
    EXPECT_EQ(gatherShape({2, 3, 5}, type, {4}, 2),
              "output [2, 3, 4], axis 2, outer 6, axis_size 5, index_count 4, row_bytes " + std::to_string(size))
        << dataTypeName(type);
  }
}

TEST(InferGatherShapeTest, ScalarDataIsRejected) {
  const std::string error = "invalid argument: Gather: input 'data' must have rank >= 1, got a scalar (rank 0)";
  EXPECT_EQ(gatherShape({}, DataType::kFloat32, {1}, 0), error);
  EXPECT_EQ(gatherShape({}, DataType::kInt8, {}, -1, DataType::kInt32), error);
  StatusOr<GatherShape> s = inferGatherShape({}, DataType::kFloat32, {1}, DataType::kInt64, 0);
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.status().message(), "Gather: input 'data' must have rank >= 1, got a scalar (rank 0)");
}

TEST(InferGatherShapeTest, AxisOutOfRangeIsRejected) {
  StatusOr<GatherShape> s = inferGatherShape({2, 3}, DataType::kFloat32, {1}, DataType::kInt64, 2);
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.status().message(),
            "Gather: attribute 'axis' = 2 is out of range for input 'data' of rank 2 (allowed [-2, 1])");
  const auto error = [](int64_t axis, int64_t rank) {
    return "invalid argument: Gather: attribute 'axis' = " + std::to_string(axis) +
           " is out of range for input 'data' of rank " + std::to_string(rank) + " (allowed [" + std::to_string(-rank) +
           ", " + std::to_string(rank - 1) + "])";
  };
  const std::pair<Shape, int64_t> cases[] = {{{2, 3}, -3},
                                             {{5}, 1},
                                             {{5}, -2},
                                             {Shape(8, 1), 8},
                                             {Shape(8, 1), -9},
                                             {{2, 3}, kInt64Max},
                                             {{2, 3}, std::numeric_limits<int64_t>::min()}};
  for (const auto& [data, axis] : cases) {
    EXPECT_EQ(gatherShape(data, DataType::kFloat32, {1}, axis), error(axis, static_cast<int64_t>(data.size())));
  }
}

TEST(InferGatherShapeTest, IndexTypeMustBeInt32OrInt64) {
  EXPECT_EQ(gatherShape({2, 3}, DataType::kFloat32, {1}, 0, DataType::kFloat32),
            "invalid argument: Gather: input 'indices' has type float; allowed types are int32 and int64");
  EXPECT_EQ(gatherShape({2, 3}, DataType::kFloat32, {1}, 0, DataType::kUInt64),
            "invalid argument: Gather: input 'indices' has type uint64; allowed types are int32 and int64");
  EXPECT_EQ(gatherShape({2, 3}, DataType::kFloat32, {1}, 0, DataType::kFloat64),
            "invalid argument: Gather: input 'indices' has type double; allowed types are int32 and int64");
  for (DataType type : kClassicDataTypes) {
    if (type == DataType::kInt32 || type == DataType::kInt64) continue;
    StatusOr<GatherShape> s = inferGatherShape({2, 3}, DataType::kFloat32, {1}, type, 0);
    EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(s.status().message(), std::string("Gather: input 'indices' has type ") + dataTypeName(type) +
                                        "; allowed types are int32 and int64");
  }
}

TEST(InferGatherShapeTest, NegativeDimsAreRejected) {
  for (int64_t axis : {0, 1, -1}) {
    EXPECT_EQ(gatherShape({2, -1}, DataType::kFloat32, {1}, axis),
              "invalid argument: Gather: input 'data' has an invalid shape [2, -1]");
    EXPECT_EQ(gatherShape({-4, 2}, DataType::kFloat32, {1}, axis),
              "invalid argument: Gather: input 'data' has an invalid shape [-4, 2]");
  }
  EXPECT_EQ(gatherShape({0, -1, 3}, DataType::kInt8, {1}, 2),
            "invalid argument: Gather: input 'data' has an invalid shape [0, -1, 3]");
  EXPECT_EQ(gatherShape({2, 3}, DataType::kFloat32, {3, -2}, 0, DataType::kInt32),
            "invalid argument: Gather: input 'indices' has an invalid shape [3, -2]");
  EXPECT_EQ(gatherShape({2, 3}, DataType::kFloat32, {0, -2}, 0, DataType::kInt32),
            "invalid argument: Gather: input 'indices' has an invalid shape [0, -2]");
}

TEST(InferGatherShapeTest, ElementCountOverflowIsRejected) {
  EXPECT_EQ(gatherShape({kInt64Max, 2}, DataType::kInt8, {1}, 0),
            "invalid argument: Gather: input 'data' has an invalid shape [9223372036854775807, 2]");
  EXPECT_EQ(gatherShape({int64_t(1) << 62, 4}, DataType::kInt8, {1}, 1),
            "invalid argument: Gather: input 'data' has an invalid shape [4611686018427387904, 4]");
  EXPECT_EQ(gatherShape({2}, DataType::kInt8, {int64_t(1) << 32, int64_t(1) << 32}, 0),
            "invalid argument: Gather: input 'indices' has an invalid shape [4294967296, 4294967296]");
  // Each input is fine but the output overflows 63 bits.
  EXPECT_EQ(gatherShape({2, int64_t(1) << 61}, DataType::kInt8, {8}, 0),
            "invalid argument: Gather: the output shape [8, 2305843009213693952] is too large");
  // The output's element count is capped at INT64_MAX / 16, so its bytes fit at any element size.
  const int64_t cap = kInt64Max / 16;
  EXPECT_EQ(gatherShape({1}, DataType::kInt8, {cap}, 0),
            "output [576460752303423487], axis 0, outer 1, axis_size 1, index_count 576460752303423487, row_bytes 1");
  EXPECT_EQ(gatherShape({1}, DataType::kInt8, {cap + 1}, 0),
            "invalid argument: Gather: the output shape [576460752303423488] is too large");
}

}  // namespace
}  // namespace vkindex::plan
