// Bad input to Gather: exact status codes and messages, and proof that nothing is written. This binary
// also runs under GPU-assisted validation (see tests/CMakeLists.txt): silence there shows that hostile
// indices never make a shader touch memory outside its buffers.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "support/error_checks.hpp"
#include "support/gather_forms.hpp"
#include "support/typed_tensors.hpp"

namespace vkindex::test {
namespace {

class GatherErrorsTest : public GatherErrorsFixture<gatherOperator> {
 protected:
  // Runs Gather into an output of `out_shape` pre-filled with a canary pattern and returns the status;
  // the output must still hold only the canary afterwards (when the status is an error).
  Status gatherIntoCanary(const HostTensor& data, const HostTensor& indices, int64_t axis, const Shape& out_shape) {
    return gatherIntoCanary(context(), data, indices, axis, out_shape);
  }
  Status gatherIntoCanary(Context& ctx, const HostTensor& data, const HostTensor& indices, int64_t axis,
                          const Shape& out_shape) {
    return ::vkindex::test::gatherIntoCanary(ctx, gatherOperator(axis), data, indices, out_shape);
  }
};

TEST_F(GatherErrorsTest, AxisOutOfRange) {
  for (int64_t axis : {2, -3, 100}) {
    expectInvalid(floats({2, 3}), indexTensor(DataType::kInt64, {1}, {0}), axis,
                  "Gather: attribute 'axis' = " + std::to_string(axis) +
                      " is out of range for input 'data' of rank 2 (allowed [-2, 1])");
  }
}

TEST_F(GatherErrorsTest, ScalarData) {
  expectInvalid(floats({}), indexTensor(DataType::kInt64, {}, {0}), 0,
                "Gather: input 'data' must have rank >= 1, got a scalar (rank 0)");
}

TEST_F(GatherErrorsTest, WrongIndexType) {
  for (DataType bad : {DataType::kFloat32, DataType::kUInt32, DataType::kInt16, DataType::kUInt64}) {
    Rng rng(1);
    expectInvalid(
        floats({4}), randomTensor(rng, bad, {2}), 0,
        std::string("Gather: input 'indices' has type ") + dataTypeName(bad) + "; allowed types are int32 and int64");
  }
}

TEST_F(GatherErrorsTest, OutputOfWrongShapeOrTypeIsRejected) {
  expectGatherOutputRejected(context(), gatherOperator(0), floats({4, 2}),
                             indexTensor(DataType::kInt32, {3}, {0, 1, 2}), {2, 3},
                             "Gather: the output has shape [2, 3], expected [3, 2]", DataType::kInt32,
                             "Gather: the output has type int32 but input 'data' has type float");
}

struct BadIndexCase {
  DataType index_type;
  std::vector<int64_t> values;
  uint64_t bad_position;
  std::string expected_message;
};

TEST_F(GatherErrorsTest, BadIndexValuesAreReportedAndNothingIsWritten) {
  const std::string range = " is out of range for axis 0 of size 5 (allowed [-5, 4])";
  const std::vector<BadIndexCase> cases = {
      {DataType::kInt64, {0, 1, 5, 2}, 2, "Gather: indices[2] = 5" + range},
      {DataType::kInt32, {0, -6, 1, 7}, 1, "Gather: indices[1] = -6" + range},
      // 2^32 + 1: its low word alone (1) would look valid.
      {DataType::kInt64, {4, 4294967297LL, 0, 0}, 1, "Gather: indices[1] = 4294967297" + range},
      // -2^32 + 1: high word 0xFFFFFFFF, low word 1.
      {DataType::kInt64, {0, 0, 0, -4294967295LL}, 3, "Gather: indices[3] = -4294967295" + range},
      {DataType::kInt64, {INT64_MIN, 0, 0, 0}, 0, "Gather: indices[0] = " + std::to_string(INT64_MIN) + range},
      {DataType::kInt64, {0, 0, INT64_MAX, 9}, 2, "Gather: indices[2] = " + std::to_string(INT64_MAX) + range},
      {DataType::kInt32, {INT32_MIN, 0, 0, 0}, 0, "Gather: indices[0] = " + std::to_string(INT32_MIN) + range},
      {DataType::kInt32, {0, 0, 0, INT32_MAX}, 3, "Gather: indices[3] = " + std::to_string(INT32_MAX) + range},
  };
  for (const BadIndexCase& c : cases) {
    HostTensor indices = indexTensor(c.index_type, {4}, c.values);
    SCOPED_TRACE(c.expected_message);
    ASSERT_EQ(referenceGather(floats({5, 3}), indices, 0).bad_index_position, c.bad_position);
    Status status = gatherIntoCanary(floats({5, 3}), indices, 0, {4, 3});
    EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
    EXPECT_EQ(status.message(), c.expected_message);
  }
}

TEST_F(GatherErrorsTest, FirstBadPositionWinsAndIsPrintedAsCoordinates) {
  // Several bad indices across a 2-D indices tensor: the smallest flat position is reported.
  std::vector<int64_t> values(6 * 7, 1);
  values[3 * 7 + 2] = -100;
  values[4 * 7 + 0] = 100;
  values[5 * 7 + 6] = 8;
  Status status = gatherIntoCanary(floats({2, 8, 3}), indexTensor(DataType::kInt64, {6, 7}, values), 1, {2, 6, 7, 3});
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), "Gather: indices[3, 2] = -100 is out of range for axis 1 of size 8 (allowed [-8, 7])");
}

TEST_F(GatherErrorsTest, BadScalarIndex) {
  Status status = gatherIntoCanary(floats({3, 2}), indexTensor(DataType::kInt32, {}, {3}), -2, {2});
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), "Gather: indices[] = 3 is out of range for axis 0 of size 3 (allowed [-3, 2])");
}

TEST_F(GatherErrorsTest, EmptyAxisAdmitsNoIndex) {
  Status status = gatherIntoCanary(floats({2, 0}), indexTensor(DataType::kInt64, {1}, {0}), 1, {2, 1});
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(),
            "Gather: indices[0] = 0 is out of range for axis 1 of size 0 (an empty axis admits no index)");
}

TEST_F(GatherErrorsTest, BadIndexIntoEmptySliceIsStillReported) {
  // The output has no bytes (inner dim 0) but the index is still validated.
  Status status = gatherIntoCanary(floats({4, 0}), indexTensor(DataType::kInt64, {2}, {1, 4}), 0, {2, 0});
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), "Gather: indices[1] = 4 is out of range for axis 0 of size 4 (allowed [-4, 3])");
}

TEST_F(GatherErrorsTest, BadIndexWithSubWordRowsWritesNothing) {
  Rng rng(3);
  HostTensor bytes = randomTensor(rng, DataType::kUInt8, {6, 3});
  Status status = gatherIntoCanary(bytes, indexTensor(DataType::kInt32, {5}, {0, 1, 2, 3, 6}), 0, {5, 3});
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
}

TEST_F(GatherErrorsTest, BadIndexInALaterIndicesWindowIsReported) {
  // 4 KiB bindings split 2000 int64 indices into several windows; the first bad one is in a later
  // window, and a second bad one after it must not win.
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> ctx, makeContextWithBindings(4096));
  std::vector<int64_t> values = steppedIndexValues(2000, 1500);
  values[1500] = -3001;
  values[1900] = 3000;
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    Status status = gatherIntoCanary(*ctx, floats({3000, 1}), indexTensor(index_type, {2000}, values), 0, {2000, 1});
    EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
    EXPECT_EQ(status.message(),
              "Gather: indices[1500] = -3001 is out of range for axis 0 of size 3000 (allowed [-3000, 2999])");
  }
  EXPECT_EQ(ctx->validationMessageCount(), 0u) << ctx->firstValidationMessage();
}

TEST_F(GatherErrorsTest, BadIndexIntoStringsLeavesTheOutputStringsUntouched) {
  expectGatherKeepsOutputStrings(context(), gatherOperator(0), stringTensor({3}, {"a", "b", "c"}),
                                 indexTensor(DataType::kInt64, {2}, {1, -4}),
                                 "Gather: indices[1] = -4 is out of range for axis 0 of size 3 (allowed [-3, 2])");
}

// Random shapes, types and axes with 1-3 bad indices planted at random positions: the message names the
// first one exactly (as the reference finds it) and the output keeps its canary. Half the cases run
// with 4 KiB bindings, so bad indices land in later windows of the check passes too.
TEST_F(GatherErrorsTest, RandomBadIndicesAreReportedExactlyAndWriteNothing) {
  Rng rng(0xbad);
  forEachBadIndexRound(context(), rng, [&](const BadIndexRound& r) {
    const DataType index_type = r.index_type;
    const size_t rank = 1 + rng() % 3;
    Shape data_shape = randomShape(rng, rank, 600);
    for (int64_t& dim : data_shape) dim = std::max<int64_t>(dim, 1);
    const int64_t axis = static_cast<int64_t>(rng() % rank) - (rng() % 2 ? static_cast<int64_t>(rank) : 0);
    const int64_t s = data_shape[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis)];
    const int64_t count = 1 + static_cast<int64_t>(rng() % 700);
    HostTensor valid = randomIndices(rng, DataType::kInt64, {count}, s);
    std::vector<int64_t> values;
    for (int64_t i = 0; i < count; ++i) values.push_back(indexAt(valid, static_cast<uint64_t>(i)));
    const std::vector<int64_t> bad_values = hostileIndexValues(index_type, s);
    for (int planted = 1 + static_cast<int>(rng() % 3); planted > 0; --planted) {
      int64_t bad = bad_values[rng() % bad_values.size()];
      if (index_type == DataType::kInt32 && (bad == INT32_MAX || bad == INT32_MIN) && bad >= -s && bad < s) bad = s;
      values[rng() % values.size()] = bad;
    }
    HostTensor data = randomTensor(rng, r.dtype, data_shape);
    HostTensor indices = indexTensor(index_type, {count}, values);
    ReferenceResult expected = referenceGather(data, indices, axis);
    ASSERT_TRUE(expected.bad_index_position.has_value());
    const uint64_t position = *expected.bad_index_position;
    Shape out_shape = data_shape;
    out_shape[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis)] = count;
    SCOPED_TRACE("round " + std::to_string(r.round) + ": " + describe(data) + ", " + describe(indices) + ", axis " +
                 std::to_string(axis));
    Status status = gatherIntoCanary(r.context, data, indices, axis, out_shape);
    EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
    const int64_t axis_index = axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
    EXPECT_EQ(status.message(), "Gather: indices[" + std::to_string(position) +
                                    "] = " + std::to_string(values[position]) + " is out of range for axis " +
                                    std::to_string(axis_index) + " of size " + std::to_string(s) + " (allowed [" +
                                    std::to_string(-s) + ", " + std::to_string(s - 1) + "])");
  });
}

// Boundary values are valid and must be read from exactly the first and last slices.
// Only empty data can have a dim of 2^32 or more, and then the check is all that runs: it compares
// in 64 bits (check_indices_wide). Each extent's edges, and values that a 32-bit comparison of either
// word alone would misjudge.
TEST_F(GatherErrorsTest, IndicesIntoADimOf2To32OrMoreAreCheckedIn64Bits) {
  const int64_t two_32 = int64_t(1) << 32;
  for (int64_t s : {two_32, two_32 + 5, int64_t(1) << 33, (int64_t(1) << 62) + 3, INT64_MAX}) {
    SCOPED_TRACE("axis of size " + std::to_string(s));
    const HostTensor data = floats({0, s});
    const std::vector<int64_t> valid = {s - 1, -s, 0, -1, two_32 - 1, -two_32, s - two_32, two_32 - s};
    EXPECT_TRUE(gatherIntoCanary(data, indexTensor(DataType::kInt64, {8}, valid), 1, {0, 8}).ok());
    EXPECT_TRUE(gatherIntoCanary(data, indexTensor(DataType::kInt32, {2}, {INT32_MIN, INT32_MAX}), 1, {0, 2}).ok());
    const std::string range = " is out of range for axis 1 of size " + std::to_string(s) + " (allowed [" +
                              std::to_string(-s) + ", " + std::to_string(s - 1) + "])";
    std::vector<int64_t> bad_values = {INT64_MIN};
    if (s != INT64_MAX) bad_values.insert(bad_values.end(), {s, -s - 1, INT64_MAX, s + two_32});
    for (int64_t bad : bad_values) {
      Status status = gatherIntoCanary(data, indexTensor(DataType::kInt64, {3}, {s - 1, -s, bad}), 1, {0, 3});
      EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
      EXPECT_EQ(status.message(), "Gather: indices[2] = " + std::to_string(bad) + range);
    }
  }
  // Along the first axis of data [2^33, 0] (empty rows): the same check.
  const int64_t s = int64_t(1) << 33;
  EXPECT_TRUE(gatherIntoCanary(floats({s, 0}), indexTensor(DataType::kInt64, {2}, {s - 1, -s}), 0, {2, 0}).ok());
  Status status = gatherIntoCanary(floats({s, 0}), indexTensor(DataType::kInt64, {2}, {-s - 1, s}), 0, {2, 0});
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), "Gather: indices[0] = " + std::to_string(-s - 1) +
                                  " is out of range for axis 0 of size 8589934592 (allowed [-8589934592, 8589934591])");
}

TEST_F(GatherErrorsTest, BoundaryIndicesAreValid) {
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    expectGatherMatchesReference(context(), gatherOperator(0), floats({5, 3}),
                                 indexTensor(index_type, {4}, {4, -5, 0, -1}));
  }
}

}  // namespace
}  // namespace vkindex::test
