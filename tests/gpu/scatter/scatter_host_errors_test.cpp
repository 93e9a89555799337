// Bad input to ScatterElements and ScatterND, the host's checks: exact status codes and messages (the
// agreed wording), checked in the order the operators check them (among them: a reduction the
// semantics leave undefined for the type, per support/defined_reductions.hpp, is kInvalidArgument
// naming the operator), a caller's output of the wrong shape or type or overlapping an input, and
// proof that an error writes nothing: a caller's output keeps its canary, in-place data keeps its
// bytes. The device's index checks are in scatter_index_errors_test.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/scatter/scatter_errors_fixture.hpp"
#include "support/defined_reductions.hpp"

namespace vkindex::test {
namespace {

// --- ScatterElements: host-side checks, in the agreed order --------------------------------------------

TEST_F(ScatterErrorsTest, ElementsWrongIndexType) {
  for (DataType bad : {DataType::kFloat32, DataType::kUInt32, DataType::kInt16, DataType::kUInt64, DataType::kInt8}) {
    expectInvalid(elements(floats({4}), values(bad, {2}), floats({2}), 0),
                  std::string("ScatterElements: input 'indices' has type ") + dataTypeName(bad) +
                      "; allowed types are int32 and int64");
  }
  // First: before data's rank, the axis and the updates.
  expectInvalid(elements(floats({}), values(DataType::kFloat64, {}), values(DataType::kInt8, {3}), 5, Reduction::kAdd),
                "ScatterElements: input 'indices' has type double; allowed types are int32 and int64");
}

TEST_F(ScatterErrorsTest, ElementsScalarData) {
  const std::string message = "ScatterElements: input 'data' must have rank >= 1, got a scalar (rank 0)";
  expectInvalid(elements(floats({}), indexTensor(DataType::kInt64, {}, {0}), floats({}), 0), message);
  // Before the rank agreement and the axis.
  expectInvalid(elements(floats({}), indexTensor(DataType::kInt32, {1}, {0}), floats({1}), 3), message);
}

TEST_F(ScatterErrorsTest, ElementsRanksDiffer) {
  expectInvalid(elements(floats({2, 3}), indexTensor(DataType::kInt64, {2}, {0, 1}), floats({2}), 0),
                "ScatterElements: input 'indices' has rank 1 but input 'data' has rank 2; they must be equal");
  expectInvalid(elements(floats({3}), indexTensor(DataType::kInt32, {}, {0}), floats({}), 0),
                "ScatterElements: input 'indices' has rank 0 but input 'data' has rank 1; they must be equal");
  expectInvalid(elements(floats({2, 1, 2}), zeros(DataType::kInt64, {1, 1, 1, 1}), floats({1, 1, 1, 1}), 0),
                "ScatterElements: input 'indices' has rank 4 but input 'data' has rank 3; they must be equal");
  // Before the axis and the updates.
  expectInvalid(elements(floats({2, 3}), indexTensor(DataType::kInt64, {2}, {0, 1}), values(DataType::kInt32, {5}), 7),
                "ScatterElements: input 'indices' has rank 1 but input 'data' has rank 2; they must be equal");
}

TEST_F(ScatterErrorsTest, ElementsAxisOutOfRange) {
  for (int64_t axis : {int64_t{2}, int64_t{-3}, int64_t{100}, INT64_MIN, INT64_MAX}) {
    expectInvalid(elements(floats({2, 3}), zeros(DataType::kInt64, {2, 3}), floats({2, 3}), axis),
                  "ScatterElements: attribute 'axis' = " + std::to_string(axis) +
                      " is out of range for input 'data' of rank 2 (allowed [-2, 1])");
  }
  expectInvalid(elements(floats({4}), zeros(DataType::kInt32, {1}), floats({1}), 1),
                "ScatterElements: attribute 'axis' = 1 is out of range for input 'data' of rank 1 (allowed [-1, 0])");
  // Before the updates' type.
  expectInvalid(elements(floats({4}), zeros(DataType::kInt32, {1}), values(DataType::kUInt8, {1}), -2),
                "ScatterElements: attribute 'axis' = -2 is out of range for input 'data' of rank 1 (allowed [-1, 0])");
}

TEST_F(ScatterErrorsTest, ElementsUpdatesOfAnotherType) {
  expectInvalid(elements(floats({2, 3}), zeros(DataType::kInt64, {2, 3}), values(DataType::kInt32, {2, 3}), 0),
                "ScatterElements: input 'updates' has type int32 but input 'data' has type float");
  expectInvalid(
      elements(values(DataType::kFloat16, {4}), zeros(DataType::kInt32, {2}), values(DataType::kBFloat16, {2}), 0),
      "ScatterElements: input 'updates' has type bfloat16 but input 'data' has type float16");
  expectInvalid(
      elements(values(DataType::kString, {4}), zeros(DataType::kInt32, {2}), values(DataType::kUInt8, {2}), 0),
      "ScatterElements: input 'updates' has type uint8 but input 'data' has type string");
  // Before the updates' shape.
  expectInvalid(elements(floats({2, 3}), zeros(DataType::kInt64, {2, 3}), values(DataType::kFloat64, {7}), 0),
                "ScatterElements: input 'updates' has type double but input 'data' has type float");
}

TEST_F(ScatterErrorsTest, ElementsUpdatesOfAnotherShape) {
  expectInvalid(elements(floats({2, 3}), zeros(DataType::kInt64, {2, 3}), floats({2, 2}), 0),
                "ScatterElements: input 'updates' has shape [2, 2] but input 'indices' has shape [2, 3]; they must "
                "be equal");
  expectInvalid(elements(floats({2, 3}), zeros(DataType::kInt32, {2, 3}), floats({6}), 1),
                "ScatterElements: input 'updates' has shape [6] but input 'indices' has shape [2, 3]; they must be "
                "equal");
  expectInvalid(elements(floats({4}), zeros(DataType::kInt32, {2}), floats({}), 0),
                "ScatterElements: input 'updates' has shape [] but input 'indices' has shape [2]; they must be equal");
  // Before the indices' dims: indices [2, 4] exceed data [2, 3] in dim 1, too.
  expectInvalid(elements(floats({2, 3}), zeros(DataType::kInt64, {2, 4}), floats({2, 3}), 0),
                "ScatterElements: input 'updates' has shape [2, 3] but input 'indices' has shape [2, 4]; they must "
                "be equal");
}

TEST_F(ScatterErrorsTest, ElementsIndicesDimExceedsDatasOutsideTheAxis) {
  // dim 1 of indices (4) > data's (3); the axis (0, also given as -3) is printed normalized.
  for (int64_t axis : {0, -3}) {
    expectInvalid(elements(floats({2, 3, 4}), zeros(DataType::kInt64, {2, 4, 4}), floats({2, 4, 4}), axis),
                  "ScatterElements: input 'indices' dim 1 = 4 exceeds input 'data' dim 1 = 3 (dims other than axis 0 "
                  "allow at most data's)");
  }
  expectInvalid(elements(floats({2, 3, 4}), zeros(DataType::kInt32, {2, 9, 5}), floats({2, 9, 5}), -2),
                "ScatterElements: input 'indices' dim 2 = 5 exceeds input 'data' dim 2 = 4 (dims other than axis 1 "
                "allow at most data's)");
  expectInvalid(elements(floats({2, 0}), zeros(DataType::kInt64, {1, 1}), floats({1, 1}), 0),
                "ScatterElements: input 'indices' dim 1 = 1 exceeds input 'data' dim 1 = 0 (dims other than axis 0 "
                "allow at most data's)");
  // Before the reduction: bool with max is not defined either.
  expectInvalid(elements(values(DataType::kBool, {2, 3}), zeros(DataType::kInt64, {2, 4}),
                         values(DataType::kBool, {2, 4}), 0, Reduction::kMax),
                "ScatterElements: input 'indices' dim 1 = 4 exceeds input 'data' dim 1 = 3 (dims other than axis 0 "
                "allow at most data's)");
}

// The reduction against the data type: the same rules for both operators.
struct ReductionVerdict {
  StatusCode code;
  std::string message;  // without the operator's name
};

// Undefined pairs (defined_reductions.hpp) are invalid arguments naming what the type allows; every
// defined pair runs.
ReductionVerdict reductionVerdict(DataType dtype, Reduction reduction) {
  if (reductionDefined(dtype, reduction)) return {StatusCode::kOk, ""};
  std::string allowed;
  switch (dtype) {
    case DataType::kBool: allowed = "bool allows none, add as OR, mul as AND"; break;
    case DataType::kString: allowed = "string allows none, add as concatenation"; break;
    case DataType::kComplex64:
    case DataType::kComplex128: allowed = "complex allows none, add, mul"; break;
    default: allowed = std::string(dataTypeName(dtype)) + " allows none only"; break;
  }
  return {StatusCode::kInvalidArgument, "reduction '" + std::string(reductionName(reduction)) +
                                            "' is not defined for " + dataTypeName(dtype) + " (" + allowed + ")"};
}

TEST_F(ScatterErrorsTest, ReductionsNotDefinedForTheType) {
  for (DataType dtype : kClassicDataTypes) {
    for (Reduction reduction : {Reduction::kAdd, Reduction::kMul, Reduction::kMax, Reduction::kMin}) {
      const ReductionVerdict verdict = reductionVerdict(dtype, reduction);
      if (verdict.code == StatusCode::kOk) continue;
      expectError(elements(values(dtype, {3, 2}), indexTensor(DataType::kInt64, {2, 2}, {0, 2, -1, 1}),
                           values(dtype, {2, 2}), 0, reduction),
                  verdict.code, "ScatterElements: " + verdict.message);
      expectError(
          nd(values(dtype, {3, 2}), indexTensor(DataType::kInt32, {2, 1}, {0, -1}), values(dtype, {2, 2}), reduction),
          verdict.code, "ScatterND: " + verdict.message);
    }
  }
  // Spot checks of the list's wording, verbatim: ONNX Runtime's CPU kernels refuse max and min on bool
  // and everything but add on strings, and so does vkindex.
  expectError(nd(values(DataType::kBool, {3}), indexTensor(DataType::kInt64, {1, 1}, {0}), values(DataType::kBool, {1}),
                 Reduction::kMax),
              StatusCode::kInvalidArgument,
              "ScatterND: reduction 'max' is not defined for bool (bool allows none, add as OR, mul as AND)");
  expectError(elements(values(DataType::kBool, {3}), indexTensor(DataType::kInt32, {1}, {0}),
                       values(DataType::kBool, {1}), 0, Reduction::kMin),
              StatusCode::kInvalidArgument,
              "ScatterElements: reduction 'min' is not defined for bool (bool allows none, add as OR, mul as AND)");
  expectError(elements(values(DataType::kComplex64, {3}), indexTensor(DataType::kInt64, {1}, {0}),
                       values(DataType::kComplex64, {1}), 0, Reduction::kMax),
              StatusCode::kInvalidArgument,
              "ScatterElements: reduction 'max' is not defined for complex64 (complex allows none, add, mul)");
  for (Reduction reduction : {Reduction::kMax, Reduction::kMin}) {
    expectError(nd(values(DataType::kString, {3}), indexTensor(DataType::kInt64, {1, 1}, {0}),
                   values(DataType::kString, {1}), reduction),
                StatusCode::kInvalidArgument,
                "ScatterND: reduction '" + std::string(reductionName(reduction)) +
                    "' is not defined for string (string allows none, add as concatenation)");
  }
  // An undefined reduction is a host error before any index is looked at.
  expectError(elements(values(DataType::kString, {3}), indexTensor(DataType::kInt64, {1}, {9}),
                       values(DataType::kString, {1}), 0, Reduction::kMul),
              StatusCode::kInvalidArgument,
              "ScatterElements: reduction 'mul' is not defined for string (string allows none, add as concatenation)");
}

// --- ScatterND: host-side checks, in the agreed order ---------------------------------------------------

TEST_F(ScatterErrorsTest, NDWrongIndexType) {
  for (DataType bad : {DataType::kFloat32, DataType::kUInt32, DataType::kInt16, DataType::kUInt64, DataType::kBool}) {
    expectInvalid(nd(floats({4}), values(bad, {2, 1}), floats({2}), Reduction::kNone),
                  std::string("ScatterND: input 'indices' has type ") + dataTypeName(bad) +
                      "; allowed types are int32 and int64");
  }
  expectInvalid(nd(floats({}), values(DataType::kUInt8, {}), values(DataType::kInt8, {3}), Reduction::kMax),
                "ScatterND: input 'indices' has type uint8; allowed types are int32 and int64");
}

TEST_F(ScatterErrorsTest, NDScalarDataOrIndices) {
  expectInvalid(nd(floats({}), indexTensor(DataType::kInt64, {1}, {0}), floats({})),
                "ScatterND: input 'data' must have rank >= 1, got a scalar (rank 0)");
  // data's rank first.
  expectInvalid(nd(floats({}), indexTensor(DataType::kInt64, {}, {0}), floats({})),
                "ScatterND: input 'data' must have rank >= 1, got a scalar (rank 0)");
  expectInvalid(nd(floats({3}), indexTensor(DataType::kInt32, {}, {0}), floats({})),
                "ScatterND: input 'indices' must have rank >= 1, got a scalar (rank 0)");
  // Before the updates.
  expectInvalid(nd(floats({3}), indexTensor(DataType::kInt64, {}, {0}), values(DataType::kInt32, {9})),
                "ScatterND: input 'indices' must have rank >= 1, got a scalar (rank 0)");
}

TEST_F(ScatterErrorsTest, NDTupleLengthOutOfRange) {
  const HostTensor data = floats({3, 4, 5});
  expectInvalid(nd(data, zeros(DataType::kInt64, {5, 4}), floats({5})),
                "ScatterND: the last dim of input 'indices' is 4, the length of each index tuple, which must lie in "
                "[0, 3] (data's rank 3)");
  expectInvalid(nd(floats({3}), zeros(DataType::kInt64, {2}), floats({})),
                "ScatterND: the last dim of input 'indices' is 2, the length of each index tuple, which must lie in "
                "[0, 1] (data's rank 1)");
  // Before the updates' type.
  expectInvalid(nd(floats({3}), zeros(DataType::kInt64, {1, 2}), values(DataType::kUInt16, {1})),
                "ScatterND: the last dim of input 'indices' is 2, the length of each index tuple, which must lie in "
                "[0, 1] (data's rank 1)");
  // k = 0 is valid, and each of its tuples takes a whole data-shaped slice of updates.
  expectInvalid(nd(data, indexTensor(DataType::kInt32, {5, 0}, {}), floats({5, 4, 5})),
                "ScatterND: input 'updates' has shape [5, 4, 5], expected [5, 3, 4, 5] (indices.shape[:-1] + "
                "data.shape[k:])");
}

TEST_F(ScatterErrorsTest, NDUpdatesOfAnotherType) {
  expectInvalid(nd(floats({4, 2}), zeros(DataType::kInt64, {3, 1}), values(DataType::kInt32, {3, 2})),
                "ScatterND: input 'updates' has type int32 but input 'data' has type float");
  expectInvalid(nd(values(DataType::kComplex128, {4}), zeros(DataType::kInt32, {1}), values(DataType::kComplex64, {})),
                "ScatterND: input 'updates' has type complex64 but input 'data' has type complex128");
  // Before the updates' shape.
  expectInvalid(nd(floats({4, 2}), zeros(DataType::kInt64, {3, 1}), values(DataType::kUInt64, {1})),
                "ScatterND: input 'updates' has type uint64 but input 'data' has type float");
}

TEST_F(ScatterErrorsTest, NDUpdatesOfAnotherShape) {
  expectInvalid(nd(floats({4, 5, 6}), zeros(DataType::kInt64, {2, 3, 1}), floats({2, 3, 5})),
                "ScatterND: input 'updates' has shape [2, 3, 5], expected [2, 3, 5, 6] (indices.shape[:-1] + "
                "data.shape[k:])");
  expectInvalid(nd(floats({4, 5, 6}), zeros(DataType::kInt32, {2, 3, 2}), floats({3, 2, 6})),
                "ScatterND: input 'updates' has shape [3, 2, 6], expected [2, 3, 6] (indices.shape[:-1] + "
                "data.shape[k:])");
  // A rank-1 indices tensor with a whole tuple: a scalar update.
  expectInvalid(nd(floats({4, 5}), zeros(DataType::kInt64, {2}), floats({1})),
                "ScatterND: input 'updates' has shape [1], expected [] (indices.shape[:-1] + data.shape[k:])");
  // Before the reduction.
  expectInvalid(nd(values(DataType::kString, {4}), zeros(DataType::kInt64, {3, 1}), values(DataType::kString, {4}),
                   Reduction::kMin),
                "ScatterND: input 'updates' has shape [4], expected [3] (indices.shape[:-1] + data.shape[k:])");
}

// --- The caller's output and in-place data --------------------------------------------------------------

TEST_F(ScatterErrorsTest, OutputOfWrongShapeOrTypeIsRejected) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context(), floats({3, 2})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices,
                               toDevice(context(), indexTensor(DataType::kInt32, {2, 2}, {0, 1, 2, -1})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates, toDevice(context(), floats({2, 2})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuples, toDevice(context(), indexTensor(DataType::kInt32, {2, 1}, {0, -1})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor wrong_shape, Tensor::create(context(), DataType::kFloat32, {2, 3}));
  Status status = scatterElements(context(), data, indices, updates, 0, Reduction::kNone, wrong_shape);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "ScatterElements: the output has shape [2, 3], expected [3, 2]");
  status = scatterND(context(), data, tuples, updates, Reduction::kNone, wrong_shape);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "ScatterND: the output has shape [2, 3], expected [3, 2]");
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor wrong_type, Tensor::create(context(), DataType::kInt32, {3, 2}));
  status = scatterElements(context(), data, indices, updates, 0, Reduction::kAdd, wrong_type);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "ScatterElements: the output has type int32 but input 'data' has type float");
  status = scatterND(context(), data, tuples, updates, Reduction::kNone, wrong_type);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "ScatterND: the output has type int32 but input 'data' has type float");
}

TEST_F(ScatterErrorsTest, OutputOverlappingAnInputIsRejected) {
  // One arena: data at 0, indices at 128, updates at 192; outputs placed over each of them.
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor arena, Tensor::create(context(), DataType::kFloat32, {64}));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, Tensor::view(context(), DataType::kFloat32, {8}, arena.buffer(), 0, 256));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices,
                               Tensor::view(context(), DataType::kInt32, {4}, arena.buffer(), 128, 256));
  VKINDEX_ASSERT_OK(indices.upload(indexTensor(DataType::kInt32, {4}, {0, 1, 2, 3}).bytes.data(), 16));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuples,
                               Tensor::view(context(), DataType::kInt32, {4, 1}, arena.buffer(), 128, 256));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates,
                               Tensor::view(context(), DataType::kFloat32, {4}, arena.buffer(), 192, 256));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor own_data, toDevice(context(), floats({8})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor own_indices,
                               toDevice(context(), indexTensor(DataType::kInt32, {4}, {0, 1, 2, 3})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor own_tuples,
                               toDevice(context(), indexTensor(DataType::kInt32, {4, 1}, {0, 1, 2, 3})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor own_updates, toDevice(context(), floats({4})));
  struct Overlap {
    VkDeviceSize offset;
    const char* input;
  };
  for (const Overlap& overlap : {Overlap{16, "data"}, Overlap{136, "indices"}, Overlap{196, "updates"}}) {
    SCOPED_TRACE(overlap.input);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output,
                                 Tensor::view(context(), DataType::kFloat32, {8}, arena.buffer(), overlap.offset, 256));
    const bool on_data = std::string(overlap.input) == "data";
    const bool on_indices = std::string(overlap.input) == "indices";
    const bool on_updates = std::string(overlap.input) == "updates";
    const Tensor& d = on_data ? data : own_data;
    const std::string suffix = std::string(" overlaps input '") + overlap.input + "' in the same VkBuffer";
    Status status = scatterElements(context(), d, on_indices ? indices : own_indices,
                                    on_updates ? updates : own_updates, 0, Reduction::kNone, output);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), "ScatterElements: the output" + suffix);
    status = scatterND(context(), d, on_indices ? tuples : own_tuples, on_updates ? updates : own_updates,
                       Reduction::kNone, output);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), "ScatterND: the output" + suffix);
    if (on_data) continue;
    // In place, the data is the output: it must not overlap indices or updates either.
    status = scatterElementsInPlace(context(), output, on_indices ? indices : own_indices,
                                    on_updates ? updates : own_updates, 0, Reduction::kNone);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), "ScatterElements: input 'data' (updated in place)" + suffix);
    status = scatterNDInPlace(context(), output, on_indices ? tuples : own_tuples, on_updates ? updates : own_updates,
                              Reduction::kNone);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), "ScatterND: input 'data' (updated in place)" + suffix);
  }
}

}  // namespace
}  // namespace vkindex::test
