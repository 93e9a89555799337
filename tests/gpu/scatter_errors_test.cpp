// Bad input to ScatterElements and ScatterND: exact status codes and messages (the agreed wording),
// checked in the order the operators check them (among them: a reduction the semantics leave undefined
// for the type, per support/defined_reductions.hpp, is kInvalidArgument naming the operator), and proof
// that an error writes nothing: a caller's output keeps its canary, in-place data keeps its bytes, also
// with one bad index among 100,000, in a later indices window, and in the recorded forms. This binary
// also runs under GPU-assisted validation (see tests/CMakeLists.txt): silence there shows that hostile
// indices never make a shader touch memory outside its buffers.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "embedding_fixture.hpp"
#include "support/defined_reductions.hpp"
#include "support/error_checks.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

enum class Op { kScatterElements, kScatterND };

// One call: the inputs, the axis (ScatterElements only) and the reduction.
struct Call {
  Op op = Op::kScatterElements;
  HostTensor data;
  HostTensor indices;
  HostTensor updates;
  int64_t axis = 0;
  Reduction reduction = Reduction::kNone;
};

Call elements(HostTensor data, HostTensor indices, HostTensor updates, int64_t axis,
              Reduction reduction = Reduction::kNone) {
  return {Op::kScatterElements, std::move(data), std::move(indices), std::move(updates), axis, reduction};
}

Call nd(HostTensor data, HostTensor indices, HostTensor updates, Reduction reduction = Reduction::kNone) {
  return {Op::kScatterND, std::move(data), std::move(indices), std::move(updates), 0, reduction};
}

std::string describeCall(const Call& call) {
  return std::string(call.op == Op::kScatterND ? "ScatterND" : "ScatterElements") + ": data " + describe(call.data) +
         ", indices " + describe(call.indices) + ", updates " + describe(call.updates) + ", axis " +
         std::to_string(call.axis) + ", reduction " + reductionName(call.reduction);
}

HostTensor floats(Shape shape) {
  Rng rng(7);
  return randomTensor(rng, DataType::kFloat32, std::move(shape));
}

HostTensor values(DataType dtype, Shape shape) {
  Rng rng(8);
  return randomTensor(rng, dtype, std::move(shape));
}

HostTensor zeros(DataType index_type, Shape shape) {
  uint64_t count = 1;
  for (int64_t dim : shape) count *= static_cast<uint64_t>(dim);
  return indexTensor(index_type, std::move(shape), std::vector<int64_t>(count, 0));
}

// The agreed device-side message for the bad element at `position` of the call's indices.
std::string outOfRangeMessage(const Call& call, uint64_t position) {
  const std::string value = std::to_string(indexAt(call.indices, position));
  if (call.op == Op::kScatterElements) {
    const int64_t r = static_cast<int64_t>(call.data.shape.size());
    const int64_t a = call.axis < 0 ? call.axis + r : call.axis;
    const int64_t s = call.data.shape[static_cast<size_t>(a)];
    return "ScatterElements: indices[" + coordinateText(position, call.indices.shape) + "] = " + value +
           " is out of range for axis " + std::to_string(a) + " of size " + std::to_string(s) + allowedRangeText(s);
  }
  const uint64_t k = static_cast<uint64_t>(call.indices.shape.back());
  const Shape tuple_shape(call.indices.shape.begin(), call.indices.shape.end() - 1);
  const uint64_t component = position % k;
  const int64_t s = call.data.shape[component];
  return "ScatterND: indices[" + coordinateText(position / k, tuple_shape) + "] (component " +
         std::to_string(component) + ") = " + value + " is out of range for data dim " + std::to_string(component) +
         " of size " + std::to_string(s) + allowedRangeText(s);
}

std::optional<uint64_t> referenceBadPosition(const Call& call) {
  if (call.op == Op::kScatterElements) {
    return referenceScatterElements(call.data, call.indices, call.updates, call.axis, call.reduction)
        .bad_index_position;
  }
  return referenceScatterND(call.data, call.indices, call.updates, call.reduction).bad_index_position;
}

StatusOr<Tensor> runNew(Context& ctx, const Call& call, const Tensor& data, const Tensor& indices,
                        const Tensor& updates) {
  if (call.op == Op::kScatterElements) {
    return scatterElements(ctx, data, indices, updates, call.axis, call.reduction);
  }
  return scatterND(ctx, data, indices, updates, call.reduction);
}

Status runInto(Context& ctx, const Call& call, const Tensor& data, const Tensor& indices, const Tensor& updates,
               Tensor& output) {
  if (call.op == Op::kScatterElements) {
    return scatterElements(ctx, data, indices, updates, call.axis, call.reduction, output);
  }
  return scatterND(ctx, data, indices, updates, call.reduction, output);
}

Status runInPlace(Context& ctx, const Call& call, Tensor& data, const Tensor& indices, const Tensor& updates) {
  if (call.op == Op::kScatterElements) {
    return scatterElementsInPlace(ctx, data, indices, updates, call.axis, call.reduction);
  }
  return scatterNDInPlace(ctx, data, indices, updates, call.reduction);
}

class ScatterErrorsTest : public GpuTest {
 protected:
  // The call fails with `code` and `message` in each submitting form: a new output; the caller's
  // output, which keeps its canary (strings: their previous strings); and in place, where data keeps
  // every byte.
  void expectError(Context& ctx, const Call& call, StatusCode code, const std::string& message) {
    SCOPED_TRACE(describeCall(call));
    SCOPED_TRACE(message);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(ctx, call.data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(ctx, call.indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates, toDevice(ctx, call.updates));
    StatusOr<Tensor> fresh = runNew(ctx, call, data, indices, updates);
    ASSERT_FALSE(fresh.ok()) << "new output: no error";
    EXPECT_EQ(fresh.status().code(), code) << "new output";
    EXPECT_EQ(fresh.status().message(), message) << "new output";

    Status status;
    if (call.data.dtype == DataType::kString) {
      VKINDEX_ASSERT_OK_AND_ASSIGN(
          Tensor output,
          Tensor::fromStrings(ctx, call.data.shape, std::vector<std::string>(call.data.elementCount(), "canary")));
      status = runInto(ctx, call, data, indices, updates, output);
      EXPECT_EQ(output.strings(), std::vector<std::string>(call.data.elementCount(), "canary"))
          << "the caller's output was written despite the error";
    } else {
      status = runIntoCanary(ctx, call.data.dtype, call.data.shape,
                             [&](Tensor& output) { return runInto(ctx, call, data, indices, updates, output); });
    }
    EXPECT_EQ(status.code(), code) << "caller's output";
    EXPECT_EQ(status.message(), message) << "caller's output";

    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor target, toDevice(ctx, call.data));
    status = runInPlace(ctx, call, target, indices, updates);
    EXPECT_EQ(status.code(), code) << "in place";
    EXPECT_EQ(status.message(), message) << "in place";
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor after, toHost(target));
    EXPECT_TRUE(after.bytes == call.data.bytes) << "in-place data was written despite the error";
    EXPECT_EQ(after.strings, call.data.strings) << "in-place strings were written despite the error";
  }
  void expectError(const Call& call, StatusCode code, const std::string& message) {
    expectError(context(), call, code, message);
  }
  void expectInvalid(const Call& call, const std::string& message) {
    expectError(context(), call, StatusCode::kInvalidArgument, message);
  }

  // A device-side error: kOutOfRange naming the reference's first bad position, nothing written.
  void expectOutOfRange(Context& ctx, const Call& call) {
    const std::optional<uint64_t> position = referenceBadPosition(call);
    ASSERT_TRUE(position.has_value()) << describeCall(call);
    expectError(ctx, call, StatusCode::kOutOfRange, outOfRangeMessage(call, *position));
  }
  void expectOutOfRange(const Call& call) { expectOutOfRange(context(), call); }
};

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
  // Before the reduction: bool with add is not defined either.
  expectInvalid(elements(values(DataType::kBool, {2, 3}), zeros(DataType::kInt64, {2, 4}),
                         values(DataType::kBool, {2, 4}), 0, Reduction::kAdd),
                "ScatterElements: input 'indices' dim 1 = 4 exceeds input 'data' dim 1 = 3 (dims other than axis 0 "
                "allow at most data's)");
}

// The reduction against the data type: the same rules for both operators.
struct ReductionVerdict {
  StatusCode code;
  std::string message;  // without the operator's name
};

// Undefined pairs (defined_reductions.hpp) are invalid arguments; every defined pair runs.
ReductionVerdict reductionVerdict(DataType dtype, Reduction reduction) {
  if (!reductionDefined(dtype, reduction)) {
    return {StatusCode::kInvalidArgument,
            "reduction '" + std::string(reductionName(reduction)) + "' is not defined for " + dataTypeName(dtype)};
  }
  return {StatusCode::kOk, ""};
}

TEST_F(ScatterErrorsTest, ReductionsNotDefinedForTheType) {
  for (DataType dtype : kAllDataTypes) {
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
  // Spot checks of the list's wording, verbatim.
  expectError(nd(values(DataType::kBool, {3}), indexTensor(DataType::kInt64, {1, 1}, {0}), values(DataType::kBool, {1}),
                 Reduction::kAdd),
              StatusCode::kInvalidArgument, "ScatterND: reduction 'add' is not defined for bool");
  expectError(elements(values(DataType::kComplex64, {3}), indexTensor(DataType::kInt64, {1}, {0}),
                       values(DataType::kComplex64, {1}), 0, Reduction::kMax),
              StatusCode::kInvalidArgument, "ScatterElements: reduction 'max' is not defined for complex64");
  // An undefined reduction is a host error before any index is looked at.
  expectError(elements(values(DataType::kString, {3}), indexTensor(DataType::kInt64, {1}, {9}),
                       values(DataType::kString, {1}), 0, Reduction::kMul),
              StatusCode::kInvalidArgument, "ScatterElements: reduction 'mul' is not defined for string");
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

// --- Device-side checks: index values ----------------------------------------------------------------

struct BadValueCase {
  DataType index_type;
  int64_t value;
};

// Values outside [-5, 4] of both index types: just past both ends, the types' extremes, 2^32 + 1 and
// -2^32 + 1 (whose low word alone would look valid), and 2^32 (low word 0).
std::vector<BadValueCase> badValues() {
  std::vector<BadValueCase> cases;
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    for (int64_t value : hostileIndexValues(index_type, 5)) cases.push_back({index_type, value});
  }
  cases.push_back({DataType::kInt64, int64_t{1} << 32});
  return cases;
}

TEST_F(ScatterErrorsTest, ElementsBadIndexValuesAreReportedAndNothingIsWritten) {
  // One bad value planted at [1, 0] of 2x3 indices into data [5, 3], along axis 0 (size 5) and along
  // axis -1 (size 3); the other values are valid for both. With and without a reduction.
  for (const BadValueCase& c : badValues()) {
    const HostTensor indices = indexTensor(c.index_type, {2, 3}, {2, -3, 0, c.value, 1, -1});
    ASSERT_EQ(referenceScatterElements(floats({5, 3}), indices, floats({2, 3}), 0, Reduction::kNone).bad_index_position,
              3u)
        << c.value;
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(elements(floats({5, 3}), indices, floats({2, 3}), 0)));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(elements(floats({5, 3}), indices, floats({2, 3}), -1, Reduction::kAdd)));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(
        elements(values(DataType::kInt64, {5, 3}), indices, values(DataType::kInt64, {2, 3}), 0, Reduction::kMax)));
  }
  // The example of the messages list, verbatim.
  Call call = elements(floats({2, 3}), indexTensor(DataType::kInt64, {2, 2}, {0, 2, 5, 0}), floats({2, 2}), 1);
  expectError(call, StatusCode::kOutOfRange,
              "ScatterElements: indices[1, 0] = 5 is out of range for axis 1 of size 3 (allowed [-3, 2])");
  call.indices = indexTensor(DataType::kInt64, {2, 2}, {0, 2, 4294967297LL, 0});
  expectError(call, StatusCode::kOutOfRange,
              "ScatterElements: indices[1, 0] = 4294967297 is out of range for axis 1 of size 3 (allowed [-3, 2])");
}

TEST_F(ScatterErrorsTest, ElementsFirstBadPositionWins) {
  // Several bad values across 3-D indices; the smallest flat position is reported, whatever the
  // values (a later, "more wrong" value must not win).
  std::vector<int64_t> index_values(3 * 4 * 5, 1);
  index_values[1 * 20 + 2 * 5 + 3] = 7;
  index_values[2 * 20 + 0 * 5 + 0] = INT32_MIN;
  index_values[2 * 20 + 3 * 5 + 4] = -8;
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    for (Reduction reduction : {Reduction::kNone, Reduction::kMul}) {
      expectError(elements(floats({3, 6, 5}), indexTensor(index_type, {3, 4, 5}, index_values), floats({3, 4, 5}), 1,
                           reduction),
                  StatusCode::kOutOfRange,
                  "ScatterElements: indices[1, 2, 3] = 7 is out of range for axis 1 of size 6 (allowed [-6, 5])");
    }
  }
}

TEST_F(ScatterErrorsTest, ElementsEmptyAxisAdmitsNoIndex) {
  expectError(elements(floats({2, 0}), indexTensor(DataType::kInt64, {1, 1}, {0}), floats({1, 1}), 1),
              StatusCode::kOutOfRange,
              "ScatterElements: indices[0, 0] = 0 is out of range for axis 1 of size 0 (an empty axis admits no "
              "index)");
  expectError(elements(floats({0, 3}), indexTensor(DataType::kInt32, {2, 3}, {-1, 0, 0, 0, 0, 0}), floats({2, 3}), -2),
              StatusCode::kOutOfRange,
              "ScatterElements: indices[0, 0] = -1 is out of range for axis 0 of size 0 (an empty axis admits no "
              "index)");
}

TEST_F(ScatterErrorsTest, ElementsBadIndexWithSubWordElementsWritesNothing) {
  Rng rng(3);
  for (DataType dtype : {DataType::kUInt8, DataType::kBool, DataType::kFloat16}) {
    ASSERT_NO_FATAL_FAILURE(
        expectOutOfRange(elements(randomTensor(rng, dtype, {6, 3}),
                                  indexTensor(DataType::kInt32, {5, 3}, {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 6, 0}),
                                  randomTensor(rng, dtype, {5, 3}), 0)));
  }
}

TEST_F(ScatterErrorsTest, ElementsBadIndexInALatePeeledBlockWritesNothing) {
  // Ten dims that cannot coalesce: the plan walks one block at a time (the two outermost dims peeled,
  // the axis among them in the first case), all behind one check of every index. A bad index in the
  // last block is named exactly, and no block writes anything.
  Rng rng(11);
  const HostTensor valid = randomIndices(rng, DataType::kInt64, Shape(10, 2), 3);
  std::vector<int64_t> index_values(valid.elementCount());
  for (uint64_t i = 0; i < index_values.size(); ++i) index_values[i] = indexAt(valid, i);
  index_values[1000] = 3;
  index_values[1010] = -100;  // a later bad index does not win
  ASSERT_NO_FATAL_FAILURE(
      expectOutOfRange(elements(floats(Shape(10, 3)), indexTensor(DataType::kInt64, Shape(10, 2), index_values),
                                floats(Shape(10, 2)), 0, Reduction::kAdd)));
  index_values[1000] = 0;
  index_values[1023] = -4;
  ASSERT_NO_FATAL_FAILURE(expectOutOfRange(elements(values(DataType::kUInt8, Shape(10, 3)),
                                                    indexTensor(DataType::kInt32, Shape(10, 2), index_values),
                                                    values(DataType::kUInt8, Shape(10, 2)), 9)));
}

TEST_F(ScatterErrorsTest, NDBadIndexValuesAreReportedAndNothingIsWritten) {
  // Data [5, 5, 2]; 2x3 tuples of 2 (components in [-5, 4]), one bad value planted in component 0 or 1
  // of tuple [1, 0]. Updates [2, 3, 2].
  for (const BadValueCase& c : badValues()) {
    for (size_t component : {size_t{0}, size_t{1}}) {
      std::vector<int64_t> index_values = {4, -5, 0, 1, -1, 3, 2, -2, 1, 0, -3, 4};
      index_values[6 + component] = c.value;
      const HostTensor indices = indexTensor(c.index_type, {2, 3, 2}, index_values);
      ASSERT_EQ(referenceScatterND(floats({5, 5, 2}), indices, floats({2, 3, 2}), Reduction::kNone).bad_index_position,
                6 + component);
      ASSERT_NO_FATAL_FAILURE(expectOutOfRange(nd(floats({5, 5, 2}), indices, floats({2, 3, 2}))));
      ASSERT_NO_FATAL_FAILURE(expectOutOfRange(
          nd(values(DataType::kUInt32, {5, 5, 2}), indices, values(DataType::kUInt32, {2, 3, 2}), Reduction::kMin)));
    }
  }
  // The example of the messages list, verbatim.
  expectError(
      nd(floats({3, 5, 2}), indexTensor(DataType::kInt64, {2, 2, 2}, {0, 4, 2, -5, 2, 7, 1, 1}), floats({2, 2, 2})),
      StatusCode::kOutOfRange,
      "ScatterND: indices[1, 0] (component 1) = 7 is out of range for data dim 1 of size 5 (allowed [-5, 4])");
}

// Only empty data can have a dim of 2^32 or more, and then the check is all that runs, comparing in
// 64 bits (check_indices_wide): ScatterND into data [2^33, 0], in each form.
TEST_F(ScatterErrorsTest, NDIndicesIntoADimOf2To32OrMoreAreCheckedIn64Bits) {
  const int64_t s = int64_t(1) << 33;
  const Call valid = nd(floats({s, 0}), indexTensor(DataType::kInt64, {3, 1}, {s - 1, -s, 0}), floats({3, 0}));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context(), valid.data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(context(), valid.indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates, toDevice(context(), valid.updates));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, runNew(context(), valid, data, indices, updates));
  EXPECT_EQ(output.shape(), (Shape{s, 0}));
  EXPECT_TRUE(runInPlace(context(), valid, data, indices, updates).ok());
  for (int64_t bad : {s, -s - 1, INT64_MIN, INT64_MAX}) {
    const Call call = nd(floats({s, 0}), indexTensor(DataType::kInt64, {3, 1}, {s - 1, -s, bad}), floats({3, 0}));
    expectError(call, StatusCode::kOutOfRange, outOfRangeMessage(call, 2));
  }
}

TEST_F(ScatterErrorsTest, NDFirstBadElementWins) {
  // The first bad ELEMENT in row-major order, not the first bad component nor the most wrong value:
  // tuple [0, 1] has a bad component 2, tuple [1, 0] a bad component 0 (and [1, 2] another).
  std::vector<int64_t> index_values(2 * 3 * 3, 0);
  index_values[(0 * 3 + 1) * 3 + 2] = -7;
  index_values[(1 * 3 + 0) * 3 + 0] = INT32_MAX;
  index_values[(1 * 3 + 2) * 3 + 1] = 5;
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    for (Reduction reduction : {Reduction::kNone, Reduction::kAdd}) {
      expectError(
          nd(floats({4, 5, 6, 2}), indexTensor(index_type, {2, 3, 3}, index_values), floats({2, 3, 2}), reduction),
          StatusCode::kOutOfRange,
          "ScatterND: indices[0, 1] (component 2) = -7 is out of range for data dim 2 of size 6 (allowed [-6, "
          "5])");
    }
  }
}

TEST_F(ScatterErrorsTest, NDBadIndexInRankOneIndices) {
  // A single tuple: its coordinates are empty.
  expectError(nd(floats({3, 4}), indexTensor(DataType::kInt32, {2}, {1, 4}), floats({})), StatusCode::kOutOfRange,
              "ScatterND: indices[] (component 1) = 4 is out of range for data dim 1 of size 4 (allowed [-4, 3])");
  expectError(nd(floats({3, 4}), indexTensor(DataType::kInt64, {1}, {-4}), floats({4})), StatusCode::kOutOfRange,
              "ScatterND: indices[] (component 0) = -4 is out of range for data dim 0 of size 3 (allowed [-3, 2])");
}

TEST_F(ScatterErrorsTest, NDEmptyDimAdmitsNoIndex) {
  expectError(nd(floats({2, 3, 0}), indexTensor(DataType::kInt64, {1, 3}, {0, 0, 0}), floats({1})),
              StatusCode::kOutOfRange,
              "ScatterND: indices[0] (component 2) = 0 is out of range for data dim 2 of size 0 (an empty axis admits "
              "no index)");
  // The updates are empty (the slice dim is 0) but the tuples are still validated.
  expectError(nd(floats({4, 0}), indexTensor(DataType::kInt64, {2, 1}, {1, 4}), floats({2, 0})),
              StatusCode::kOutOfRange,
              "ScatterND: indices[1] (component 0) = 4 is out of range for data dim 0 of size 4 (allowed [-4, 3])");
}

TEST_F(ScatterErrorsTest, NDBadIndexWithSubWordSlicesWritesNothing) {
  Rng rng(3);
  for (DataType dtype : {DataType::kUInt8, DataType::kBool, DataType::kBFloat16}) {
    ASSERT_NO_FATAL_FAILURE(
        expectOutOfRange(nd(randomTensor(rng, dtype, {6, 3}), indexTensor(DataType::kInt32, {5, 1}, {0, 1, -6, 5, 6}),
                            randomTensor(rng, dtype, {5, 3}))));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(nd(randomTensor(rng, dtype, {6, 3}),
                                                indexTensor(DataType::kInt64, {3, 2}, {0, 1, 5, 3, 3, -4}),
                                                randomTensor(rng, dtype, {3}))));
  }
}

TEST_F(ScatterErrorsTest, BadIndexIntoStringsLeavesTheStringsUntouched) {
  HostTensor words;
  words.dtype = DataType::kString;
  words.shape = {2, 2};
  words.strings = {"a", "b", "c", "d"};
  HostTensor updates = words;
  updates.strings = {"w", "x", "y", "z"};
  expectError(elements(words, indexTensor(DataType::kInt64, {2, 2}, {1, -2, 0, 2}), updates, 1),
              StatusCode::kOutOfRange,
              "ScatterElements: indices[1, 1] = 2 is out of range for axis 1 of size 2 (allowed [-2, 1])");
  updates.shape = {2};
  updates.strings = {"y", "z"};
  expectError(nd(words, indexTensor(DataType::kInt64, {2, 2}, {1, -2, 0, 2}), updates), StatusCode::kOutOfRange,
              "ScatterND: indices[1] (component 1) = 2 is out of range for data dim 1 of size 2 (allowed [-2, 1])");
}

// One bad index among 100,000 valid ones, late in the indices: in place, the data keeps every byte;
// into a caller's output, its canary stays.
TEST_F(ScatterErrorsTest, OneBadIndexAmongAHundredThousandWritesNothing) {
  Rng rng(100000);
  {
    const HostTensor data = randomTensor(rng, DataType::kFloat32, {1000, 100});
    HostTensor indices = randomIndices(rng, DataType::kInt64, {1000, 100}, 1000);
    const int64_t bad = (int64_t{1} << 32) + 7;
    std::memcpy(indices.bytes.data() + 98765 * 8, &bad, 8);
    const Call call = elements(data, indices, randomTensor(rng, DataType::kFloat32, {1000, 100}), 0);
    expectError(call, StatusCode::kOutOfRange,
                "ScatterElements: indices[987, 65] = 4294967303 is out of range for axis 0 of size 1000 (allowed "
                "[-1000, 999])");
    Call added = call;
    added.reduction = Reduction::kAdd;
    expectError(added, StatusCode::kOutOfRange,
                "ScatterElements: indices[987, 65] = 4294967303 is out of range for axis 0 of size 1000 (allowed "
                "[-1000, 999])");
  }
  {
    const Shape data_shape = {200, 300, 4};
    const HostTensor data = randomTensor(rng, DataType::kInt32, data_shape);
    HostTensor indices = randomTuples(rng, DataType::kInt32, {50000, 2}, data_shape, 0);
    const int32_t bad = -301;
    std::memcpy(indices.bytes.data() + (43210 * 2 + 1) * 4, &bad, 4);
    const Call call = nd(data, indices, randomTensor(rng, DataType::kInt32, {50000, 4}));
    expectError(call, StatusCode::kOutOfRange,
                "ScatterND: indices[43210] (component 1) = -301 is out of range for data dim 1 of size 300 (allowed "
                "[-300, 299])");
    Call maxed = call;
    maxed.reduction = Reduction::kMax;
    expectError(maxed, StatusCode::kOutOfRange,
                "ScatterND: indices[43210] (component 1) = -301 is out of range for data dim 1 of size 300 (allowed "
                "[-300, 299])");
  }
}

TEST_F(ScatterErrorsTest, BadIndexInALaterIndicesWindowIsReported) {
  // 4 KiB bindings split 3000 int64 indices into several windows; the first bad one is in a later
  // window, and a second bad one after it must not win.
  ContextOptions options;
  options.overrides.max_binding_bytes = 4096;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> ctx, makeContext(options));
  std::vector<int64_t> element_values(3000);
  for (size_t i = 0; i < element_values.size(); ++i) element_values[i] = static_cast<int64_t>(i * 7 % 200) - 100;
  element_values[2123] = -101;
  element_values[2500] = 100;
  std::vector<int64_t> tuple_values(1000 * 3);
  for (size_t i = 0; i < tuple_values.size(); ++i) tuple_values[i] = static_cast<int64_t>(i * 7 % 10) - 5;
  tuple_values[800 * 3 + 1] = 5;
  tuple_values[900 * 3 + 0] = -6;
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    expectError(*ctx,
                elements(floats({100, 3}), indexTensor(index_type, {1000, 3}, element_values), floats({1000, 3}), 0),
                StatusCode::kOutOfRange,
                "ScatterElements: indices[707, 2] = -101 is out of range for axis 0 of size 100 (allowed [-100, 99])");
    expectError(*ctx, nd(floats({5, 5, 5, 2}), indexTensor(index_type, {1000, 3}, tuple_values), floats({1000, 2})),
                StatusCode::kOutOfRange,
                "ScatterND: indices[800] (component 1) = 5 is out of range for data dim 1 of size 5 (allowed [-5, 4])");
  }
  EXPECT_EQ(ctx->validationMessageCount(), 0u) << ctx->firstValidationMessage();
}

// Random shapes, types and reductions with 1-3 bad values planted at random positions: the message
// names the first one exactly (as the reference finds it) and nothing is written. A third of the cases
// run with 4 KiB bindings, so bad values land in later windows too, and a third on a context that never
// walks (winner tables for none, the fold by owner for reductions).
TEST_F(ScatterErrorsTest, RandomBadIndicesAreReportedExactlyAndWriteNothing) {
  ContextOptions options;
  options.overrides.max_binding_bytes = 4096;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> capped, makeContext(options));
  ContextOptions never_walks;
  never_walks.overrides.min_walk_lines = UINT64_MAX;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> tables, makeContext(never_walks));
  Rng rng(0xbad5c);
  const DataType types[] = {DataType::kUInt8,   DataType::kFloat16, DataType::kInt32,
                            DataType::kFloat32, DataType::kUInt64,  DataType::kComplex128};
  for (int round = 0; round < 24; ++round) {
    Context& ctx = round % 3 == 1 ? *capped : round % 3 == 2 ? *tables : context();
    const DataType dtype = types[rng() % std::size(types)];
    Reduction reduction = static_cast<Reduction>(rng() % 5);
    if (!reductionDefined(dtype, reduction)) reduction = Reduction::kNone;
    const DataType index_type = rng() % 2 ? DataType::kInt64 : DataType::kInt32;
    const size_t r = 1 + rng() % 4;
    Shape data_shape = randomShape(rng, r, 600);
    for (int64_t& dim : data_shape) dim = std::max<int64_t>(dim, 1);
    Call call;
    if (round % 4 < 2) {
      const size_t a = rng() % r;
      Shape index_shape = data_shape;
      index_shape[a] = 1 + static_cast<int64_t>(rng() % 40);
      const HostTensor valid = randomIndices(rng, DataType::kInt64, index_shape, data_shape[a]);
      std::vector<int64_t> index_values;
      for (uint64_t e = 0; e < valid.elementCount(); ++e) index_values.push_back(indexAt(valid, e));
      for (int planted = 1 + static_cast<int>(rng() % 3); planted > 0; --planted) {
        const std::vector<int64_t> bad = hostileIndexValues(index_type, data_shape[a]);
        index_values[rng() % index_values.size()] = bad[rng() % bad.size()];
      }
      call = elements(randomTensor(rng, dtype, data_shape), indexTensor(index_type, index_shape, index_values),
                      randomTensor(rng, dtype, index_shape), static_cast<int64_t>(a) - (rng() % 2 ? 0 : int64_t(r)),
                      reduction);
    } else {
      const size_t k = 1 + rng() % r;
      const Shape index_shape = {1 + static_cast<int64_t>(rng() % 200), static_cast<int64_t>(k)};
      const HostTensor valid = randomTuples(rng, DataType::kInt64, index_shape, data_shape, 0);
      std::vector<int64_t> index_values;
      for (uint64_t e = 0; e < valid.elementCount(); ++e) index_values.push_back(indexAt(valid, e));
      for (int planted = 1 + static_cast<int>(rng() % 3); planted > 0; --planted) {
        const uint64_t e = rng() % index_values.size();
        const std::vector<int64_t> bad = hostileIndexValues(index_type, data_shape[e % k]);
        index_values[e] = bad[rng() % bad.size()];
      }
      Shape update_shape = {index_shape[0]};
      update_shape.insert(update_shape.end(), data_shape.begin() + static_cast<std::ptrdiff_t>(k), data_shape.end());
      call = nd(randomTensor(rng, dtype, data_shape), indexTensor(index_type, index_shape, index_values),
                randomTensor(rng, dtype, update_shape), reduction);
    }
    SCOPED_TRACE("round " + std::to_string(round));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(ctx, call));
  }
  EXPECT_EQ(capped->validationMessageCount(), 0u) << capped->firstValidationMessage();
  EXPECT_EQ(tables->validationMessageCount(), 0u) << tables->firstValidationMessage();
}

// Duplicate-heavy reductions through the fold by owner's heavy sort (a context that never walks), 40
// updates per target on 16 targets (one digit pass) and 300 (three): valid ones match the reference
// byte for byte and, under GPU-assisted validation, touch nothing outside their buffers; one bad index
// late among them writes nothing (heavy_plan.comp then dispatches no heavy pass).
TEST_F(ScatterErrorsTest, DuplicateHeavyFoldsStayInBoundsAndWriteNothingOnABadIndex) {
  ContextOptions never_walks;
  never_walks.overrides.min_walk_lines = UINT64_MAX;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> fold, makeContext(never_walks));
  Rng rng(0x4ea5);
  for (const int64_t targets : {int64_t{16}, int64_t{300}}) {
    const int64_t count = targets * 40;
    const Shape data_shape = {targets, 3};
    const Call calls[] = {elements(randomTensor(rng, DataType::kFloat32, {targets}),
                                   randomIndices(rng, DataType::kInt64, {count}, targets),
                                   randomTensor(rng, DataType::kFloat32, {count}), 0, Reduction::kAdd),
                          nd(randomTensor(rng, DataType::kUInt16, data_shape),
                             randomTuples(rng, DataType::kInt32, {count, 1}, data_shape, 0),
                             randomTensor(rng, DataType::kUInt16, {count, 3}), Reduction::kMax)};
    for (const Call& call : calls) {
      SCOPED_TRACE(describeCall(call));
      const ReferenceResult expected =
          call.op == Op::kScatterElements
              ? referenceScatterElements(call.data, call.indices, call.updates, call.axis, call.reduction)
              : referenceScatterND(call.data, call.indices, call.updates, call.reduction);
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(*fold, call.data));
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(*fold, call.indices));
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates, toDevice(*fold, call.updates));
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, runNew(*fold, call, data, indices, updates));
      VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
      EXPECT_TRUE(actual.bytes == expected.output.bytes);
      Call bad = call;
      const size_t index_bytes = call.indices.dtype == DataType::kInt64 ? 8 : 4;
      const int64_t past_end = targets;
      std::memcpy(bad.indices.bytes.data() + (count - 3) * index_bytes, &past_end, index_bytes);
      ASSERT_NO_FATAL_FAILURE(expectOutOfRange(*fold, bad));
    }
  }
  EXPECT_EQ(fold->validationMessageCount(), 0u) << fold->firstValidationMessage();
}

// Boundary values are valid: they update exactly the first and last elements or slices of each dim.
TEST_F(ScatterErrorsTest, BoundaryIndicesAreValid) {
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    const HostTensor data = floats({5, 3});
    const HostTensor element_indices = indexTensor(index_type, {2, 3}, {4, -5, 0, -1, 0, 4});
    const HostTensor tuples = indexTensor(index_type, {4, 2}, {4, -3, -5, 2, 0, -1, -1, 0});
    const ReferenceResult expected_elements =
        referenceScatterElements(data, element_indices, floats({2, 3}), 0, Reduction::kNone);
    const ReferenceResult expected_nd = referenceScatterND(data, tuples, floats({4}), Reduction::kNone);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(context(), data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor element_tensor, toDevice(context(), element_indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuple_tensor, toDevice(context(), tuples));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor element_updates, toDevice(context(), floats({2, 3})));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuple_updates, toDevice(context(), floats({4})));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output,
                                 scatterElements(context(), data_tensor, element_tensor, element_updates, 0));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
    EXPECT_EQ(actual.bytes, expected_elements.output.bytes);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor nd_output, scatterND(context(), data_tensor, tuple_tensor, tuple_updates));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor nd_actual, toHost(nd_output));
    EXPECT_EQ(nd_actual.bytes, expected_nd.output.bytes);
  }
}

// --- The recorded forms, in the application's command buffer and buffer ----------------------------------

// A bad index in recorded ScatterElements and ScatterND, into a caller's output and in place: finish()
// reports it exactly (twice), the outputs and the in-place data keep their bytes, and a good op
// recorded next to them is unaffected. A host error is returned by the record call itself.
TEST_F(EmbeddingTest, BadIndexInRecordedScatterWritesNothing) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(43);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {4, 3}));
  const Placed in_place_elements = place(randomTensor(rng, DataType::kFloat32, {4, 3}));
  const Placed in_place_nd = place(randomTensor(rng, DataType::kInt32, {4, 3}));
  const Placed good_data = place(randomTensor(rng, DataType::kUInt8, {4, 3}));
  // 2^32 + 1 at [1, 2]: its low word alone (1) would be a valid index.
  const Placed bad_elements = place(indexTensor(DataType::kInt64, {2, 3}, {3, -4, 0, 1, 2, 4294967297LL}));
  const Placed bad_tuples = place(indexTensor(DataType::kInt64, {2, 1}, {3, -4294967295LL}));
  const Placed good_tuples = place(indexTensor(DataType::kInt32, {3, 1}, {3, -4, 3}));
  const Placed float_updates = place(randomTensor(rng, DataType::kFloat32, {2, 3}));
  const Placed int_updates = place(randomTensor(rng, DataType::kInt32, {2, 3}));
  const Placed byte_updates = place(randomTensor(rng, DataType::kUInt8, {3, 3}));
  const VkDeviceSize elements_out = reserve(4 * 3 * 4);
  const VkDeviceSize nd_out = reserve(4 * 3 * 4);
  const VkDeviceSize good_out = reserve(4 * 3);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kFloat32, {4, 3}, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor in_place_elements_view,
                               view(DataType::kFloat32, {4, 3}, in_place_elements.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor in_place_nd_view, view(DataType::kInt32, {4, 3}, in_place_nd.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_data_view, view(DataType::kUInt8, {4, 3}, good_data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor elements_view, view(DataType::kInt64, {2, 3}, bad_elements.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuples_view, view(DataType::kInt64, {2, 1}, bad_tuples.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_tuples_view, view(DataType::kInt32, {3, 1}, good_tuples.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor float_updates_view, view(DataType::kFloat32, {2, 3}, float_updates.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor int_updates_view, view(DataType::kInt32, {2, 3}, int_updates.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor byte_updates_view, view(DataType::kUInt8, {3, 3}, byte_updates.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor elements_output, view(DataType::kFloat32, {4, 3}, elements_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor nd_output, view(DataType::kFloat32, {4, 3}, nd_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_output, view(DataType::kUInt8, {4, 3}, good_out));

  VkCommandBuffer cmd = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  barrierBeforeOps(cmd);
  // A host error: the record call returns it and records nothing usable.
  StatusOr<RecordedOp> refused = recordScatterElements(*context_, cmd, good_data_view, elements_view, byte_updates_view,
                                                       0, Reduction::kAdd, good_output);
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(),
            "ScatterElements: input 'updates' has shape [3, 3] but input 'indices' has shape [2, 3]; they must be "
            "equal");
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp elements_op,
                               recordScatterElements(*context_, cmd, data_view, elements_view, float_updates_view, 0,
                                                     Reduction::kNone, elements_output));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp elements_in_place_op,
                               recordScatterElements(*context_, cmd, in_place_elements_view, elements_view,
                                                     float_updates_view, 0, Reduction::kAdd, in_place_elements_view));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp nd_op, recordScatterND(*context_, cmd, data_view, tuples_view,
                                                                 float_updates_view, Reduction::kMax, nd_output));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp nd_in_place_op,
                               recordScatterND(*context_, cmd, in_place_nd_view, tuples_view, int_updates_view,
                                               Reduction::kMul, in_place_nd_view));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp good_op, recordScatterND(*context_, cmd, good_data_view, good_tuples_view,
                                                                   byte_updates_view, Reduction::kNone, good_output));
  barrierAfterOps(cmd);
  ASSERT_NO_FATAL_FAILURE(end(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));

  const std::string elements_message =
      "ScatterElements: indices[1, 2] = 4294967297 is out of range for axis 0 of size 4 (allowed [-4, 3])";
  const std::string nd_message =
      "ScatterND: indices[1] (component 0) = -4294967295 is out of range for data dim 0 of size 4 (allowed [-4, 3])";
  for (int call = 0; call < 2; ++call) {  // later calls return the same result
    for (RecordedOp* op : {&elements_op, &elements_in_place_op}) {
      Status status = op->finish();
      EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
      EXPECT_EQ(status.message(), elements_message);
    }
    for (RecordedOp* op : {&nd_op, &nd_in_place_op}) {
      Status status = op->finish();
      EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
      EXPECT_EQ(status.message(), nd_message);
    }
  }
  VKINDEX_ASSERT_OK(good_op.finish());
  const ReferenceResult good =
      referenceScatterND(good_data.host, good_tuples.host, byte_updates.host, Reduction::kNone);
  ASSERT_FALSE(good.bad_index_position.has_value());
  writeBytes(good_out, good.output.bytes);
  EXPECT_TRUE(bufferMatchesImage()) << "a bad op wrote something, or the good output is wrong";
}

}  // namespace
}  // namespace vkindex::test
