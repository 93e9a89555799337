// GatherBlockQuantized's errors, each with its exact code and message in every form (a new output, the
// caller's output, recorded, host indices), a caller's output keeping its canary: every check of
// src/plan/gather_block_quantized_shape.cpp (policy, types, bits, block_size, rank, axes, the uint8
// rules, the shapes of scales and zero points, scales shared along part of a side, an output too
// large), the output's own checks (type, shape, overlap), a null command buffer or host-indices pointer;
// out-of-range indices under kError (found on the device, or on the host for host indices: nothing
// written, the first bad one named, also in binding windows) and under kSkip (zero slices); and the
// calls next to the errors that must work (bits ignored for float data, valid indices under kError).
// Registered under GPU-assisted validation too: silence there shows that hostile indices never make
// the kernel touch memory outside its buffers.
#include <string>
#include <vector>

#include "gather_block_quantized_forms.hpp"
#include "support/error_checks.hpp"
#include "support/scatter_forms.hpp"

namespace vkindex::test {
namespace {

const std::string kPrefix = "GatherBlockQuantized: ";

class QuantizedGatherErrorsTest : public GpuTest {
 protected:
  // A valid call: uint8 [4, 32] with bits 4 (64 codes a row, blocks of 16), float32 scales [4, 4], zero
  // points [4, 2], int64 indices [2].
  static QuantizedGatherCall uint8Call(int64_t bits = 4) {
    Rng rng(0xe4404);
    const int64_t per_byte = 8 / bits, blocks = 32 * per_byte / 16;
    QuantizedGatherCall call;
    call.data = randomCodes(rng, DataType::kUInt8, {4, 32});
    call.indices = indexTensor(DataType::kInt64, {2}, {3, -4});
    call.scales = randomScales(rng, DataType::kFloat32, {4, blocks});
    call.zero_points = randomTensor(rng, DataType::kUInt8, zeroPointShape(DataType::kUInt8, bits, {4, blocks}));
    call.options.bits = bits;
    call.options.block_size = 16;
    call.options.quantize_axis = 1;
    return call;
  }
  // A valid call of `dtype` (int4, uint4 or a float type) [4, 40] quantized along axis 1 in blocks of 16
  // (scales [4, 3], float16), gathered along axis 0; int4/uint4 with zero points.
  static QuantizedGatherCall callOf(DataType dtype) {
    Rng rng(0xe4405);
    QuantizedGatherCall call;
    call.data = randomCodes(rng, dtype, {4, 40});
    call.indices = indexTensor(DataType::kInt32, {3}, {0, -1, 2});
    call.scales = randomScales(rng, DataType::kFloat16, {4, 3});
    if (dtype == DataType::kInt4 || dtype == DataType::kUInt4) call.zero_points = randomTensor(rng, dtype, {4, 3});
    call.options.block_size = 16;
    call.options.quantize_axis = 1;
    return call;
  }
  void expectInvalid(const QuantizedGatherCall& call, const std::string& message) {
    expectQuantizedGatherFails(context(), call, StatusCode::kInvalidArgument, kPrefix + message);
  }
};

TEST_F(QuantizedGatherErrorsTest, UnknownIndexPolicy) {
  QuantizedGatherCall call = uint8Call();
  call.options.index_policy = static_cast<IndexPolicy>(7);
  expectInvalid(call, "unknown index policy 7 (allowed kError, kSkip)");
}

TEST_F(QuantizedGatherErrorsTest, DataTypeNotAllowed) {
  const std::string allowed =
      " (allowed int4, uint4, uint8, float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz, float4e2m1)";
  const std::pair<DataType, const char*> types[] = {{DataType::kFloat32, "float"},
                                                    {DataType::kInt8, "int8"},
                                                    {DataType::kFloat8E8M0, "float8e8m0"},
                                                    {DataType::kFloat16, "float16"},
                                                    {DataType::kInt32, "int32"}};
  for (const auto& [dtype, name] : types) {
    QuantizedGatherCall call = callOf(DataType::kFloat8E4M3FN);
    Rng rng(3);
    call.data = randomTensor(rng, dtype, {4, 40});
    expectInvalid(call, "input 'data' has type " + std::string(name) + allowed);
  }
}

TEST_F(QuantizedGatherErrorsTest, BitsNotAllowed) {
  for (const int64_t bits : {0, 1, 3, 16, -4}) {
    QuantizedGatherCall call = uint8Call();
    call.options.bits = bits;
    expectInvalid(call, "attribute 'bits' = " + std::to_string(bits) +
                            " is not allowed for data of type uint8 (allowed 2, 4, 8)");
  }
  QuantizedGatherCall int4 = callOf(DataType::kInt4);
  int4.options.bits = 8;
  expectInvalid(int4, "attribute 'bits' = 8 is not allowed for data of type int4 (allowed 4)");
  QuantizedGatherCall uint4 = callOf(DataType::kUInt4);
  uint4.options.bits = 2;
  expectInvalid(uint4, "attribute 'bits' = 2 is not allowed for data of type uint4 (allowed 4)");
}

// Float data ignores bits (its type fixes the width): any value runs.
TEST_F(QuantizedGatherErrorsTest, BitsIgnoredForFloatData) {
  for (const int64_t bits : {3, 0, 8}) {
    QuantizedGatherCall call = callOf(DataType::kFloat8E5M2FNUZ);
    call.options.bits = bits;
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(context(), call, kNewOutput | kHostIndices));
  }
}

TEST_F(QuantizedGatherErrorsTest, BlockSizeNotAllowed) {
  for (const int64_t block : {0, 8, 48, -16, 24, 1}) {
    QuantizedGatherCall call = uint8Call();
    call.options.block_size = block;
    expectInvalid(call, "attribute 'block_size' = " + std::to_string(block) +
                            " is not allowed for data of type uint8 (allowed a power of 2 not less than 16)");
  }
  QuantizedGatherCall int4 = callOf(DataType::kInt4);
  int4.options.block_size = 0;
  expectInvalid(int4,
                "attribute 'block_size' = 0 is not allowed for data of type int4 (allowed a power of 2 not "
                "less than 16)");
  for (const int64_t block : {8, -16, 100}) {
    QuantizedGatherCall call = callOf(DataType::kFloat4E2M1);
    call.options.block_size = block;
    expectInvalid(call,
                  "attribute 'block_size' = " + std::to_string(block) +
                      " is not allowed for data of type float4e2m1 (allowed 0, or a power of 2 not less than 16)");
  }
}

TEST_F(QuantizedGatherErrorsTest, ScalarData) {
  QuantizedGatherCall call = callOf(DataType::kInt4);
  Rng rng(5);
  call.data = randomCodes(rng, DataType::kInt4, {});
  call.scales = randomScales(rng, DataType::kFloat32, {});
  call.zero_points.reset();
  call.options.quantize_axis = 0;
  expectInvalid(call, "input 'data' must have rank >= 1, got shape []");
}

TEST_F(QuantizedGatherErrorsTest, AxesOutOfRange) {
  for (const int64_t axis : {2, -3, 100}) {
    QuantizedGatherCall call = callOf(DataType::kUInt4);
    call.options.gather_axis = axis;
    expectInvalid(call, "attribute 'gather_axis' = " + std::to_string(axis) +
                            " is out of range for input 'data' of rank 2 (allowed [-2, 1])");
    call = callOf(DataType::kFloat8E4M3FN);
    call.options.quantize_axis = axis;
    expectInvalid(call, "attribute 'quantize_axis' = " + std::to_string(axis) +
                            " is out of range for input 'data' of rank 2 (allowed [-2, 1])");
  }
}

TEST_F(QuantizedGatherErrorsTest, Uint8Axes) {
  for (const int64_t axis : {1, -1}) {
    QuantizedGatherCall call = uint8Call();
    call.options.gather_axis = axis;
    expectInvalid(call, "attribute 'gather_axis' = " + std::to_string(axis) +
                            " is not allowed for data of type uint8 (allowed 0)");
  }
  Rng rng(9);
  QuantizedGatherCall rank3 = uint8Call();
  rank3.data = randomCodes(rng, DataType::kUInt8, {4, 2, 16});
  rank3.scales = randomScales(rng, DataType::kFloat32, {4, 2, 2});
  rank3.zero_points = randomTensor(rng, DataType::kUInt8, {4, 2, 1});
  for (const int64_t axis : {0, 1, -2}) {
    rank3.options.quantize_axis = axis;
    expectInvalid(rank3, "attribute 'quantize_axis' = " + std::to_string(axis) +
                             " is not allowed for data of type uint8 (allowed the last axis, 2)");
  }
  QuantizedGatherCall rank1 = uint8Call();
  rank1.data = randomCodes(rng, DataType::kUInt8, {32});
  rank1.scales = randomScales(rng, DataType::kFloat32, {4});
  rank1.zero_points = randomTensor(rng, DataType::kUInt8, {2});
  for (const int64_t axis : {0, -1}) {
    rank1.options.quantize_axis = axis;
    expectInvalid(rank1,
                  "gather_axis and quantize_axis are both axis 0 of input 'data' of rank 1; for data of type "
                  "uint8 they must differ");
  }
}

TEST_F(QuantizedGatherErrorsTest, IndexTypeNotAllowed) {
  const std::pair<DataType, const char*> types[] = {{DataType::kInt16, "int16"},
                                                    {DataType::kUInt32, "uint32"},
                                                    {DataType::kFloat32, "float"},
                                                    {DataType::kUInt64, "uint64"}};
  for (const auto& [dtype, name] : types) {
    QuantizedGatherCall call = uint8Call();
    Rng rng(1);
    call.indices = randomTensor(rng, dtype, {2});
    expectInvalid(call, "input 'indices' has type " + std::string(name) + " (allowed int32, int64)");
  }
}

TEST_F(QuantizedGatherErrorsTest, ScalesTypeNotAllowed) {
  const std::pair<DataType, const char*> types[] = {
      {DataType::kInt32, "int32"}, {DataType::kFloat64, "double"}, {DataType::kUInt8, "uint8"}};
  for (const auto& [dtype, name] : types) {
    QuantizedGatherCall call = uint8Call();
    Rng rng(2);
    call.scales = randomTensor(rng, dtype, {4, 4});
    expectInvalid(call, "input 'scales' has type " + std::string(name) + " (allowed float, float16, bfloat16)");
  }
}

TEST_F(QuantizedGatherErrorsTest, ScalesShape) {
  const std::string rule =
      "; its dim at quantize_axis 1 is the block count ceil(64 / 16) and its other dims are data's";
  for (const Shape& shape : {Shape{4, 3}, Shape{4, 4, 1}, Shape{2, 4}, Shape{1, 4}, Shape{4}}) {
    QuantizedGatherCall call = uint8Call(8);
    call.data.shape = {4, 64};
    call.data.bytes.resize(4 * 64);
    call.zero_points->shape = {4, 4};
    call.zero_points->bytes.resize(16);
    Rng rng(4);
    call.scales = randomScales(rng, DataType::kFloat32, shape);
    std::string text;
    for (size_t d = 0; d < shape.size(); ++d) text += (d ? ", " : "") + std::to_string(shape[d]);
    expectInvalid(call, "input 'scales' has shape [" + text + "], expected [4, 4]" + rule);
  }
  // int4 quantized along axis 0 (named -2): one block per 16 rows.
  Rng rng(6);
  QuantizedGatherCall int4 = callOf(DataType::kInt4);
  int4.data = randomCodes(rng, DataType::kInt4, {40, 3});
  int4.scales = randomScales(rng, DataType::kBFloat16, {3, 1});
  int4.zero_points.reset();
  int4.options.quantize_axis = -2;
  int4.options.gather_axis = 1;
  expectInvalid(int4,
                "input 'scales' has shape [3, 1], expected [3, 3]; its dim at quantize_axis 0 is the block "
                "count ceil(40 / 16) and its other dims are data's");
  // Float data: dims of 1 are allowed off quantize_axis, and block_size 0 spans the axis.
  QuantizedGatherCall fp8 = callOf(DataType::kFloat8E4M3FN);
  fp8.scales = randomScales(rng, DataType::kFloat16, {4, 2});
  expectInvalid(fp8,
                "input 'scales' has shape [4, 2], expected [4, 3]; its dim at quantize_axis 1 is the block "
                "count ceil(40 / 16) and its other dims are data's (or 1)");
  fp8.scales = randomScales(rng, DataType::kFloat16, {2, 3});
  expectInvalid(fp8,
                "input 'scales' has shape [2, 3], expected [4, 3]; its dim at quantize_axis 1 is the block "
                "count ceil(40 / 16) and its other dims are data's (or 1)");
  fp8.options.block_size = 0;
  fp8.scales = randomScales(rng, DataType::kFloat16, {4, 2});
  expectInvalid(fp8,
                "input 'scales' has shape [4, 2], expected [4, 1]; its dim at quantize_axis 1 is the block "
                "count ceil(40 / 40) and its other dims are data's (or 1)");
}

TEST_F(QuantizedGatherErrorsTest, ZeroPoints) {
  Rng rng(8);
  QuantizedGatherCall fp8 = callOf(DataType::kFloat8E5M2);
  fp8.zero_points = randomCodes(rng, DataType::kFloat8E5M2, {4, 3});
  expectInvalid(fp8, "input 'zero_points' must be absent for data of type float8e5m2 (float data has no zero points)");
  QuantizedGatherCall fp4 = callOf(DataType::kFloat4E2M1);
  fp4.zero_points = randomTensor(rng, DataType::kUInt8, {4, 3});
  expectInvalid(fp4, "input 'zero_points' must be absent for data of type float4e2m1 (float data has no zero points)");

  QuantizedGatherCall mismatched = uint8Call();
  mismatched.zero_points = randomTensor(rng, DataType::kUInt4, {4, 2});
  expectInvalid(mismatched,
                "input 'zero_points' has type uint4 but input 'data' has type uint8; they must be the same");
  QuantizedGatherCall int4 = callOf(DataType::kInt4);
  int4.zero_points = randomTensor(rng, DataType::kUInt4, {4, 3});
  expectInvalid(int4, "input 'zero_points' has type uint4 but input 'data' has type int4; they must be the same");

  int4.zero_points = randomTensor(rng, DataType::kInt4, {4, 2});
  expectInvalid(int4, "input 'zero_points' has shape [4, 2], expected [4, 3] (scales' shape)");
  QuantizedGatherCall bits4 = uint8Call(4);
  bits4.zero_points = randomTensor(rng, DataType::kUInt8, {4, 4});
  expectInvalid(bits4,
                "input 'zero_points' has shape [4, 4], expected [4, 2] (scales' shape with the last dim packed "
                "2 per byte)");
  QuantizedGatherCall bits2 = uint8Call(2);  // 128 codes a row: 8 blocks, two bytes of zero points
  bits2.zero_points = randomTensor(rng, DataType::kUInt8, {4, 3});
  expectInvalid(bits2,
                "input 'zero_points' has shape [4, 3], expected [4, 2] (scales' shape with the last dim packed "
                "4 per byte)");
  QuantizedGatherCall bits8 = uint8Call(8);
  bits8.zero_points = randomTensor(rng, DataType::kUInt8, {4, 1});
  expectInvalid(bits8, "input 'zero_points' has shape [4, 1], expected [4, 2] (scales' shape)");
}

// Float data's scales shared along some but not all axes on one side of quantize_axis: kUnsupported.
TEST_F(QuantizedGatherErrorsTest, ScalesSharedAlongPartOfASide) {
  Rng rng(10);
  QuantizedGatherCall call = callOf(DataType::kFloat8E4M3FNUZ);
  call.data = randomCodes(rng, DataType::kFloat8E4M3FNUZ, {2, 3, 40, 5});
  call.scales = randomScales(rng, DataType::kFloat32, {1, 3, 3, 5});
  call.options.quantize_axis = 2;
  expectQuantizedGatherFails(context(), call, StatusCode::kUnsupported,
                             kPrefix +
                                 "input 'scales' is shared (dim 1) along some but not all of the axes before "
                                 "quantize_axis; vkindex takes one scale shared along all of them, or none shared");
  call.data = randomCodes(rng, DataType::kFloat8E4M3FNUZ, {2, 40, 3, 5});
  call.scales = randomScales(rng, DataType::kFloat32, {2, 3, 1, 5});
  call.options.quantize_axis = 1;
  expectQuantizedGatherFails(context(), call, StatusCode::kUnsupported,
                             kPrefix +
                                 "input 'scales' is shared (dim 1) along some but not all of the axes after "
                                 "quantize_axis; vkindex takes one scale shared along all of them, or none shared");
}

// Outer and inner dims of 2^31 around an empty gather axis: no data, but 2^62 output elements.
TEST_F(QuantizedGatherErrorsTest, OutputTooLarge) {
  const int64_t huge = int64_t{1} << 31;
  QuantizedGatherCall call;
  call.data.dtype = DataType::kInt4;
  call.data.shape = {huge, 0, huge};
  call.scales.dtype = DataType::kFloat32;
  call.scales.shape = {huge, 0, huge};
  call.indices = indexTensor(DataType::kInt64, {1}, {0});
  call.options.gather_axis = 1;
  call.options.quantize_axis = 1;
  call.options.block_size = 16;
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context(), call.data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(context(), call.indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor scales, toDevice(context(), call.scales));
  const std::string message = kPrefix + "the output shape [2147483648, 1, 2147483648] is too large";
  const StatusOr<Tensor> fresh = gatherBlockQuantized(context(), data, indices, scales, nullptr, call.options);
  EXPECT_EQ(fresh.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(fresh.status().message(), message);
  const HostIndices host{DataType::kInt64, {1}, call.indices.bytes.data()};
  const StatusOr<Tensor> from_host = gatherBlockQuantized(context(), data, host, scales, nullptr, call.options);
  EXPECT_EQ(from_host.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(from_host.status().message(), message);
}

// A caller's output of the wrong type or shape, in the three forms that take one.
TEST_F(QuantizedGatherErrorsTest, OutputOfWrongTypeOrShape) {
  const QuantizedGatherCall call = uint8Call();
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context(), call.data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(context(), call.indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor scales, toDevice(context(), call.scales));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor zero_points, toDevice(context(), *call.zero_points));
  const HostIndices host{call.indices.dtype, call.indices.shape, call.indices.bytes.data()};
  const std::pair<DataType, Shape> outputs[] = {{DataType::kFloat16, {2, 64}},
                                                {DataType::kFloat32, {2, 32}},
                                                {DataType::kFloat32, {64, 2}},
                                                {DataType::kFloat32, {2, 1, 64}}};
  const std::string messages[] = {
      "the output has type float16 but input 'scales' has type float", "the output has shape [2, 32], expected [2, 64]",
      "the output has shape [64, 2], expected [2, 64]", "the output has shape [2, 1, 64], expected [2, 64]"};
  for (size_t i = 0; i < std::size(outputs); ++i) {
    const auto& [dtype, shape] = outputs[i];
    SCOPED_TRACE(messages[i]);
    const auto expectRejected = [&](const Status& status, const char* form) {
      EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << form;
      EXPECT_EQ(status.message(), kPrefix + messages[i]) << form;
    };
    expectRejected(runIntoCanary(context(), dtype, shape,
                                 [&](Tensor& output) {
                                   return gatherBlockQuantized(context(), data, indices, scales, &zero_points,
                                                               call.options, output);
                                 }),
                   "caller's output");
    expectRejected(runIntoCanary(context(), dtype, shape,
                                 [&](Tensor& output) {
                                   return gatherBlockQuantized(context(), data, host, scales, &zero_points,
                                                               call.options, output);
                                 }),
                   "host indices");
    expectRejected(runIntoCanary(context(), dtype, shape,
                                 [&](Tensor& output) -> Status {
                                   StatusOr<std::vector<Status>> finished = runRecorded(
                                       context(), {[&](VkCommandBuffer cmd) {
                                         return recordGatherBlockQuantized(context(), cmd, data, indices, scales,
                                                                           &zero_points, call.options, output);
                                       }});
                                   return finished.ok() ? finished->at(0) : finished.status();
                                 }),
                   "recorded");
  }
}

// An output that shares bytes with an input: each of data, indices, scales and zero points in turn is a
// view into one arena buffer that the output also views.
TEST_F(QuantizedGatherErrorsTest, OutputOverlappingAnInput) {
  const QuantizedGatherCall call = uint8Call();
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor arena, Tensor::create(context(), DataType::kUInt8, {4096}));
  const auto view = [&](const HostTensor& host, VkDeviceSize offset) -> StatusOr<Tensor> {
    VKINDEX_ASSIGN_OR_RETURN(Tensor tensor,
                             Tensor::view(context(), host.dtype, host.shape, arena.buffer(), offset, 4096));
    VKINDEX_RETURN_IF_ERROR(tensor.upload(host.bytes.data(), host.bytes.size()));
    return tensor;
  };
  const char* names[] = {"data", "indices", "scales", "zero_points"};
  for (int overlapped = 0; overlapped < 4; ++overlapped) {
    SCOPED_TRACE(names[overlapped]);
    // The overlapped input at 1024 in the arena, the others in their own buffers.
    const HostTensor* hosts[] = {&call.data, &call.indices, &call.scales, &*call.zero_points};
    std::vector<Tensor> inputs;
    for (int i = 0; i < 4; ++i) {
      StatusOr<Tensor> tensor = i == overlapped ? view(*hosts[i], 1024) : toDevice(context(), *hosts[i]);
      ASSERT_TRUE(tensor.ok()) << tensor.status().toString();
      inputs.push_back(std::move(tensor).value());
    }
    // [2, 64] float32: 512 bytes from 768, over the input's first bytes.
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output,
                                 Tensor::view(context(), DataType::kFloat32, {2, 64}, arena.buffer(), 768, 4096));
    const std::string message = kPrefix + "the output overlaps input '" + names[overlapped] + "' in the same VkBuffer";
    Status status = gatherBlockQuantized(context(), inputs[0], inputs[1], inputs[2], &inputs[3], call.options, output);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), message);
    StatusOr<std::vector<Status>> recorded =
        runRecorded(context(), {[&](VkCommandBuffer cmd) {
                      return recordGatherBlockQuantized(context(), cmd, inputs[0], inputs[1], inputs[2], &inputs[3],
                                                        call.options, output);
                    }});
    ASSERT_FALSE(recorded.ok());
    EXPECT_EQ(recorded.status().message(), message);
    if (overlapped != 1) {  // the host-index forms have no indices tensor
      const HostIndices host{call.indices.dtype, call.indices.shape, call.indices.bytes.data()};
      status = gatherBlockQuantized(context(), inputs[0], host, inputs[2], &inputs[3], call.options, output);
      EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
      EXPECT_EQ(status.message(), message);
    }
  }
}

TEST_F(QuantizedGatherErrorsTest, NullCommandBufferOrHostPointer) {
  const QuantizedGatherCall call = uint8Call();
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context(), call.data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(context(), call.indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor scales, toDevice(context(), call.scales));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, Tensor::create(context(), DataType::kFloat32, {2, 64}));
  const StatusOr<RecordedOp> recorded =
      recordGatherBlockQuantized(context(), VK_NULL_HANDLE, data, indices, scales, nullptr, call.options, output);
  EXPECT_EQ(recorded.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(recorded.status().message(), "recordGatherBlockQuantized: the VkCommandBuffer is null");
  const HostIndices null_values{DataType::kInt64, {2}, nullptr};
  const std::string message = kPrefix + "input 'indices' (host) has shape [2] but its values pointer is null";
  const StatusOr<Tensor> fresh = gatherBlockQuantized(context(), data, null_values, scales, nullptr, call.options);
  EXPECT_EQ(fresh.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(fresh.status().message(), message);
  const Status status = runIntoCanary(context(), DataType::kFloat32, {2, 64}, [&](Tensor& into) {
    return gatherBlockQuantized(context(), data, null_values, scales, nullptr, call.options, into);
  });
  EXPECT_EQ(status.message(), message);
  // No elements: a null pointer is fine.
  const HostIndices none{DataType::kInt32, {0}, nullptr};
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor empty,
                               gatherBlockQuantized(context(), data, none, scales, nullptr, call.options));
  EXPECT_EQ(empty.shape(), (Shape{0, 64}));
}

// --- Out-of-range indices ----------------------------------------------------------------------------------

// The three layouts of the bad-index tests: uint8 gathered along axis 0 (rows), int4 along axis 1 after
// quantize_axis 0, e4m3fn [3, 4, 5] along axis 2 (size 5), named -1.
std::vector<QuantizedGatherCall> badIndexLayouts(const HostTensor& indices, IndexPolicy policy) {
  Rng rng(0xbad1);
  std::vector<QuantizedGatherCall> calls(3);
  calls[0].data = randomCodes(rng, DataType::kUInt8, {5, 24});
  calls[0].scales = randomScales(rng, DataType::kFloat16, {5, 3});
  calls[0].zero_points = randomTensor(rng, DataType::kUInt8, {5, 2});
  calls[0].options.quantize_axis = -1;
  calls[1].data = randomCodes(rng, DataType::kInt4, {33, 5});
  calls[1].scales = randomScales(rng, DataType::kBFloat16, {3, 5});
  calls[1].options.gather_axis = 1;
  calls[1].options.quantize_axis = 0;
  calls[2].data = randomCodes(rng, DataType::kFloat8E4M3FN, {3, 4, 5});
  calls[2].scales = randomScales(rng, DataType::kFloat32, {3, 1, 1});
  calls[2].options.gather_axis = -1;
  calls[2].options.quantize_axis = 1;
  calls[2].options.block_size = 0;
  for (QuantizedGatherCall& call : calls) {
    call.indices = indices;
    call.options.index_policy = policy;
    if (call.options.block_size != 0) call.options.block_size = 16;
  }
  return calls;
}

// One bad value among valid ones, both index types, every hostile value, each layout: kOutOfRange naming
// it, nothing written, every form.
TEST_F(QuantizedGatherErrorsTest, BadIndexIsReportedAndNothingIsWritten) {
  for (const HostileIndex& hostile : hostileIndexCases(5)) {
    SCOPED_TRACE(std::to_string(hostile.value));
    const HostTensor indices = indexTensor(hostile.index_type, {2, 2}, {4, -5, hostile.value, 0});
    for (const QuantizedGatherCall& call : badIndexLayouts(indices, IndexPolicy::kError)) {
      ASSERT_NO_FATAL_FAILURE(
          expectQuantizedGatherFails(context(), call, StatusCode::kOutOfRange, quantizedGatherIndexMessage(call, 2)));
    }
  }
  // The message written out once.
  const QuantizedGatherCall call =
      badIndexLayouts(indexTensor(DataType::kInt64, {3}, {0, 5, 1}), IndexPolicy::kError)[0];
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherFails(
      context(), call, StatusCode::kOutOfRange,
      "GatherBlockQuantized: indices[1] = 5 is out of range for axis 0 of size 5 (allowed [-5, 4])"));
}

// The first bad index in row-major order wins, whatever comes after; with many indices (a check pass
// of its own) and a rank-0 index; an empty gather axis admits none.
TEST_F(QuantizedGatherErrorsTest, FirstBadIndexWins) {
  for (const DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    std::vector<int64_t> values = laterBadElementIndices();  // 3 x 4 x 5: 7 first, bad for an axis of 5
    const HostTensor indices = indexTensor(index_type, {3, 4, 5}, values);
    for (const QuantizedGatherCall& call : badIndexLayouts(indices, IndexPolicy::kError)) {
      ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherFails(context(), call, StatusCode::kOutOfRange,
                                                         quantizedGatherIndexMessage(call, 1 * 20 + 2 * 5 + 3)));
    }
    std::vector<int64_t> many = steppedIndexValues(300, 5);
    many[170] = 5;
    many[250] = -6;
    const QuantizedGatherCall call =
        badIndexLayouts(indexTensor(index_type, {300}, many), IndexPolicy::kError)[index_type == DataType::kInt32];
    ASSERT_NO_FATAL_FAILURE(
        expectQuantizedGatherFails(context(), call, StatusCode::kOutOfRange, quantizedGatherIndexMessage(call, 170)));
    const QuantizedGatherCall scalar = badIndexLayouts(indexTensor(index_type, {}, {-6}), IndexPolicy::kError)[2];
    ASSERT_NO_FATAL_FAILURE(
        expectQuantizedGatherFails(context(), scalar, StatusCode::kOutOfRange, quantizedGatherIndexMessage(scalar, 0)));
  }
  Rng rng(0xe0);
  QuantizedGatherCall empty_axis;
  empty_axis.data = randomCodes(rng, DataType::kUInt4, {3, 0, 16});
  empty_axis.scales = randomScales(rng, DataType::kFloat32, {3, 0, 1});
  empty_axis.indices = indexTensor(DataType::kInt64, {2}, {0, 0});
  empty_axis.options.gather_axis = 1;
  empty_axis.options.quantize_axis = 2;
  empty_axis.options.block_size = 16;
  empty_axis.options.index_policy = IndexPolicy::kError;
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherFails(
      context(), empty_axis, StatusCode::kOutOfRange,
      "GatherBlockQuantized: indices[0] = 0 is out of range for axis 1 of size 0 (an empty axis admits no index)"));
}

// Valid indices under kError (the check pass finds nothing): the same output as the reference, every
// layout, both index types, every form.
TEST_F(QuantizedGatherErrorsTest, ValidIndicesUnderTheErrorPolicy) {
  for (const DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    const HostTensor indices = indexTensor(index_type, {2, 3}, {4, -5, 0, -1, 2, 4});
    for (const QuantizedGatherCall& call : badIndexLayouts(indices, IndexPolicy::kError)) {
      ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(context(), call));
    }
  }
}

// A bad index into a table split into binding windows (bindings of 4 KiB), and a good call after it on
// the same context.
TEST_F(QuantizedGatherErrorsTest, BadIndexAcrossBindingWindows) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> windows, makeContextWithBindings(4096));
  Rng rng(0x3d);
  QuantizedGatherCall call;
  call.data = randomCodes(rng, DataType::kUInt8, {500, 32});
  call.scales = randomScales(rng, DataType::kFloat32, {500, 2});
  call.options.bits = 8;
  call.options.block_size = 16;
  call.options.index_policy = IndexPolicy::kError;
  call.indices = indexTensor(DataType::kInt64, {4}, {499, -500, 500, 3});
  ASSERT_NO_FATAL_FAILURE(
      expectQuantizedGatherFails(*windows, call, StatusCode::kOutOfRange, quantizedGatherIndexMessage(call, 2)));
  call.indices = indexTensor(DataType::kInt64, {4}, {499, -500, 250, 3});
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(*windows, call));
  EXPECT_EQ(windows->validationMessageCount(), 0u) << windows->firstValidationMessage();
}

// kSkip (the default): the same hostile values give zero slices beside the valid ones, every layout and
// form, and on binding windows.
TEST_F(QuantizedGatherErrorsTest, SkippedIndicesGiveZeroSlices) {
  for (const DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    std::vector<int64_t> values = {0, 4, -5, -1};
    for (const int64_t bad : outOfRangeIndexValues(index_type, 5)) {
      if (bad < -5 || bad > 4) values.push_back(bad);
    }
    values.push_back(4);
    const HostTensor indices = indexTensor(index_type, {static_cast<int64_t>(values.size())}, values);
    for (const QuantizedGatherCall& call : badIndexLayouts(indices, IndexPolicy::kSkip)) {
      ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(context(), call));
    }
  }
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> windows, makeContextWithBindings(4096));
  Rng rng(0x5c1);
  QuantizedGatherCall call;
  call.data = randomCodes(rng, DataType::kUInt8, {500, 32});
  call.scales = randomScales(rng, DataType::kFloat16, {500, 4});
  call.zero_points = randomTensor(rng, DataType::kUInt8, {500, 2});
  call.options.block_size = 16;
  call.indices = indexTensor(DataType::kInt64, {6}, {499, 500, -501, (int64_t{1} << 32) + 1, -500, 0});
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(*windows, call));
  EXPECT_EQ(windows->validationMessageCount(), 0u) << windows->firstValidationMessage();
}

}  // namespace
}  // namespace vkindex::test
