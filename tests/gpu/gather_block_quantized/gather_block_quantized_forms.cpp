#include "gather_block_quantized_forms.hpp"

#include <cstring>

#include "support/error_checks.hpp"
#include "support/scatter_forms.hpp"

namespace vkindex::test {
namespace {

// The call's inputs on the device.
struct DeviceCall {
  Tensor data, indices, scales;
  std::optional<Tensor> zero_points;
  const Tensor* zeroPoints() const { return zero_points ? &*zero_points : nullptr; }
};

StatusOr<DeviceCall> upload(Context& context, const QuantizedGatherCall& call) {
  DeviceCall device;
  VKINDEX_ASSIGN_OR_RETURN(device.data, toDevice(context, call.data));
  VKINDEX_ASSIGN_OR_RETURN(device.indices, toDevice(context, call.indices));
  VKINDEX_ASSIGN_OR_RETURN(device.scales, toDevice(context, call.scales));
  if (call.zero_points) {
    VKINDEX_ASSIGN_OR_RETURN(Tensor zero_points, toDevice(context, *call.zero_points));
    device.zero_points = std::move(zero_points);
  }
  return device;
}

HostIndices hostIndices(const HostTensor& indices) { return {indices.dtype, indices.shape, indices.bytes.data()}; }

// The inputs hold what was uploaded.
void expectInputsUnchanged(const DeviceCall& device, const QuantizedGatherCall& call) {
  EXPECT_TRUE(holds(device.data, call.data)) << "data changed";
  EXPECT_TRUE(holds(device.indices, call.indices)) << "indices changed";
  EXPECT_TRUE(holds(device.scales, call.scales)) << "scales changed";
  if (call.zero_points) {
    EXPECT_TRUE(holds(*device.zero_points, *call.zero_points)) << "zero points changed";
  }
}

bool isFloatType(DataType type) {
  return type == DataType::kFloat32 || type == DataType::kFloat16 || type == DataType::kBFloat16;
}

}  // namespace

std::string QuantizedGatherCall::description() const {
  std::string text = describe(data);
  if (data.dtype == DataType::kUInt8) text += " bits " + std::to_string(options.bits);
  text += " block " + std::to_string(options.block_size) + " gather " + std::to_string(options.gather_axis) +
          " quantize " + std::to_string(options.quantize_axis) + ", indices " + describe(indices) + ", scales " +
          describe(scales);
  if (zero_points) text += ", zero points " + describe(*zero_points);
  if (options.index_policy == IndexPolicy::kError) text += ", kError";
  if (indices.dtype != DataType::kInt32 && indices.dtype != DataType::kInt64) return text;
  text += ", index values";
  for (uint64_t n = 0; n < indices.elementCount() && n < 24; ++n) text += " " + std::to_string(indexAt(indices, n));
  return text;
}

HostTensor randomCodes(Rng& rng, DataType dtype, const Shape& shape) {
  HostTensor codes = randomTensor(rng, dtype, shape);
  if (elementBits(dtype) == 8) {
    for (uint8_t& byte : codes.bytes) {
      while (isNaNCode(dtype, byte)) byte = static_cast<uint8_t>(rng());
    }
  }
  return codes;
}

HostTensor randomScales(Rng& rng, DataType dtype, const Shape& shape) {
  HostTensor scales;
  scales.dtype = dtype;
  scales.shape = shape;
  scales.bytes.resize(packedByteSize(dtype, scales.elementCount()));
  const bool half = dtype == DataType::kFloat16;
  const uint32_t mantissa_bits = half ? 10 : dtype == DataType::kBFloat16 ? 7 : 23;
  const uint32_t exponent_max = half ? 31 : 255, bias = half ? 15 : 127;
  const size_t width = elementSize(dtype);
  for (size_t i = 0; i < scales.bytes.size(); i += width) {
    const uint32_t sign = static_cast<uint32_t>(rng() & 1),
                   mantissa = static_cast<uint32_t>(rng()) & ((1u << mantissa_bits) - 1);
    uint32_t exponent =
        rng() % 4 ? bias - 12 + static_cast<uint32_t>(rng() % 15) : static_cast<uint32_t>(rng() % exponent_max);
    if (exponent == 0 && mantissa == 0) exponent = 1;  // no zeros: an infinite float8 code times zero is NaN
    const uint32_t bits = (sign << (width * 8 - 1)) | (exponent << mantissa_bits) | mantissa;
    std::memcpy(&scales.bytes[i], &bits, width);
  }
  return scales;
}

Shape zeroPointShape(DataType dtype, int64_t bits, Shape scales_shape) {
  if (dtype == DataType::kUInt8 && bits < 8 && !scales_shape.empty()) {
    const int64_t per_byte = 8 / bits;
    scales_shape.back() = (scales_shape.back() + per_byte - 1) / per_byte;
  }
  return scales_shape;
}

DataType pairedIndexType(DataType data, DataType scale) {
  return (static_cast<int>(data) + static_cast<int>(scale)) % 2 ? DataType::kInt64 : DataType::kInt32;
}

bool wordLayoutFor(DataType data, int64_t bits, DataType scale) {
  size_t parity = 0;
  switch (data) {
    case DataType::kUInt4:
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E5M2:
    case DataType::kFloat4E2M1: parity = 1; break;
    case DataType::kUInt8: parity = bits == 2 ? 1 : 0; break;
    default: break;
  }
  const size_t position = scale == DataType::kFloat32 ? 0 : scale == DataType::kFloat16 ? 1 : 2;
  return (position + parity) % 2 == 1;
}

unsigned rotatingForms(size_t n) { return kNewOutput | (kCallersOutput << (n % 3)); }

void expectQuantizedGatherMatches(Context& context, const QuantizedGatherCall& call, unsigned forms) {
  SCOPED_TRACE(call.description());
  const ReferenceResult expected = call.reference();
  ASSERT_FALSE(expected.bad_index_position.has_value());
  VKINDEX_ASSERT_OK_AND_ASSIGN(const DeviceCall device, upload(context, call));
  const Tensor* zero_points = device.zeroPoints();
  if (forms & kNewOutput) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor fresh, gatherBlockQuantized(context, device.data, device.indices, device.scales,
                                                                    zero_points, call.options));
    EXPECT_TRUE(holds(fresh, expected.output)) << "new output";
  }
  if (forms & kCallersOutput) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, toDevice(context, garbageLike(expected.output)));
    VKINDEX_ASSERT_OK(
        gatherBlockQuantized(context, device.data, device.indices, device.scales, zero_points, call.options, output));
    EXPECT_TRUE(holds(output, expected.output)) << "caller's output";
  }
  if (forms & kRecorded) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, toDevice(context, garbageLike(expected.output)));
    VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<Status> finished, runRecorded(context, {[&](VkCommandBuffer cmd) {
                                                                             return recordGatherBlockQuantized(
                                                                                 context, cmd, device.data,
                                                                                 device.indices, device.scales,
                                                                                 zero_points, call.options, output);
                                                                           }}));
    for (const Status& status : finished) VKINDEX_ASSERT_OK(status);
    EXPECT_TRUE(holds(output, expected.output)) << "recorded";
  }
  if (forms & kHostIndices) {
    const HostIndices host = hostIndices(call.indices);
    VKINDEX_ASSERT_OK_AND_ASSIGN(
        Tensor fresh, gatherBlockQuantized(context, device.data, host, device.scales, zero_points, call.options));
    EXPECT_TRUE(holds(fresh, expected.output)) << "host indices, new output";
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, toDevice(context, garbageLike(expected.output)));
    VKINDEX_ASSERT_OK(
        gatherBlockQuantized(context, device.data, host, device.scales, zero_points, call.options, output));
    EXPECT_TRUE(holds(output, expected.output)) << "host indices, caller's output";
  }
  expectInputsUnchanged(device, call);
}

void expectQuantizedGatherGives(Context& context, const QuantizedGatherCall& call, const HostTensor& expected) {
  SCOPED_TRACE(call.description());
  const ReferenceResult reference = call.reference();
  ASSERT_FALSE(reference.bad_index_position.has_value());
  ASSERT_EQ(reference.output.dtype, expected.dtype);
  ASSERT_EQ(reference.output.shape, expected.shape);
  ASSERT_EQ(reference.output.bytes, expected.bytes) << "the reference disagrees with the hand-written result";
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(context, call));
}

Shape plausibleOutputShape(const QuantizedGatherCall& call) {
  const int64_t bits = call.options.bits;
  const Shape codes = codeShape(call.data, bits == 2 || bits == 4 || bits == 8 ? bits : 8);
  const int64_t rank = static_cast<int64_t>(codes.size());
  int64_t g = call.options.gather_axis < 0 ? call.options.gather_axis + rank : call.options.gather_axis;
  if (rank == 0) return call.indices.shape;
  if (g < 0 || g >= rank) g = 0;
  Shape shape(codes.begin(), codes.begin() + g);
  shape.insert(shape.end(), call.indices.shape.begin(), call.indices.shape.end());
  shape.insert(shape.end(), codes.begin() + g + 1, codes.end());
  return shape;
}

DataType plausibleOutputType(const QuantizedGatherCall& call) {
  return isFloatType(call.scales.dtype) ? call.scales.dtype : DataType::kFloat32;
}

void expectQuantizedGatherFails(Context& context, const QuantizedGatherCall& call, StatusCode code,
                                const std::string& message, unsigned forms) {
  SCOPED_TRACE(call.description());
  SCOPED_TRACE(message);
  VKINDEX_ASSERT_OK_AND_ASSIGN(const DeviceCall device, upload(context, call));
  const Tensor* zero_points = device.zeroPoints();
  const Shape shape = plausibleOutputShape(call);
  const DataType type = plausibleOutputType(call);
  const auto expectError = [&](const Status& status, const char* form) {
    EXPECT_EQ(status.code(), code) << form << ": " << status.toString();
    EXPECT_EQ(status.message(), message) << form;
  };
  if (forms & kNewOutput) {
    const StatusOr<Tensor> fresh =
        gatherBlockQuantized(context, device.data, device.indices, device.scales, zero_points, call.options);
    ASSERT_FALSE(fresh.ok()) << "new output: no error";
    expectError(fresh.status(), "new output");
  }
  if (forms & kCallersOutput) {
    const Status status = runIntoCanary(context, type, shape, [&](Tensor& output) {
      return gatherBlockQuantized(context, device.data, device.indices, device.scales, zero_points, call.options,
                                  output);
    });
    expectError(status, "caller's output");
  }
  if (forms & kRecorded) {
    const Status status = runIntoCanary(context, type, shape, [&](Tensor& output) -> Status {
      StatusOr<std::vector<Status>> finished =
          runRecorded(context, {[&](VkCommandBuffer cmd) {
                        return recordGatherBlockQuantized(context, cmd, device.data, device.indices, device.scales,
                                                          zero_points, call.options, output);
                      }});
      if (!finished.ok()) return finished.status();
      return finished->at(0);
    });
    expectError(status, "recorded");
  }
  if (forms & kHostIndices) {
    const HostIndices host = hostIndices(call.indices);
    const StatusOr<Tensor> fresh =
        gatherBlockQuantized(context, device.data, host, device.scales, zero_points, call.options);
    ASSERT_FALSE(fresh.ok()) << "host indices, new output: no error";
    expectError(fresh.status(), "host indices, new output");
    const Status status = runIntoCanary(context, type, shape, [&](Tensor& output) {
      return gatherBlockQuantized(context, device.data, host, device.scales, zero_points, call.options, output);
    });
    expectError(status, "host indices, caller's output");
  }
  expectInputsUnchanged(device, call);
}

std::string quantizedGatherIndexMessage(const QuantizedGatherCall& call, uint64_t position) {
  const Shape codes = codeShape(call.data, call.options.bits);
  return axisIndexMessage("GatherBlockQuantized", codes, call.indices, call.options.gather_axis, position);
}

}  // namespace vkindex::test
