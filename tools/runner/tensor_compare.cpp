#include "tensor_compare.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "quote.hpp"

namespace vkindex::tools {
namespace {

template <typename T>
T load(const onnxio::HostTensor& tensor, uint64_t index, size_t offset = 0) {
  T value;
  std::memcpy(&value, tensor.bytes.data() + index * elementSize(tensor.dtype) + offset, sizeof(T));
  return value;
}

float halfToFloat(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa != 0 ? NAN : INFINITY;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  return (bits & 0x8000) ? -magnitude : magnitude;
}

float bfloat16ToFloat(uint16_t bits) {
  uint32_t widened = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &widened, sizeof(value));
  return value;
}

// The bit pattern of element `index` of a low-precision tensor (a byte, or a nibble of a packed pair).
uint32_t lowPrecisionBits(const onnxio::HostTensor& tensor, uint64_t index) {
  if (elementBits(tensor.dtype) == 4) return (tensor.bytes[index / 2] >> (index % 2 * 4)) & 0xF;
  return tensor.bytes[index];
}

// Whether element `index` of two tensors of the same type and shape has the same bits.
bool sameElement(const onnxio::HostTensor& actual, const onnxio::HostTensor& expected, uint64_t index) {
  if (expected.dtype == DataType::kString) return actual.strings[index] == expected.strings[index];
  if (elementBits(expected.dtype) == 4) return lowPrecisionBits(actual, index) == lowPrecisionBits(expected, index);
  const size_t width = elementSize(expected.dtype);
  return std::memcmp(actual.bytes.data() + index * width, expected.bytes.data() + index * width, width) == 0;
}

std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

std::string halfBits(double value, uint16_t bits) {
  char text[80];
  std::snprintf(text, sizeof(text), "%.6g (0x%04x)", value, bits);
  return text;
}

// Two strings that differ only past what printableText shows would print alike; say where they part.
// Strings of at most a quarter of the cap always show whole (an escape takes at most 4 bytes a byte).
std::string stringDifference(const onnxio::HostTensor& actual, const onnxio::HostTensor& expected, uint64_t index) {
  if (expected.dtype != DataType::kString) return "";
  const std::string& got = actual.strings[index];
  const std::string& want = expected.strings[index];
  if (got.size() <= onnxio::kMaxQuotedBytes / 4 && want.size() <= onnxio::kMaxQuotedBytes / 4) return "";
  size_t at = 0;
  while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
  return " (first difference at byte " + std::to_string(at) + ")";
}

}  // namespace

std::string formatElement(const onnxio::HostTensor& tensor, uint64_t index) {
  if (!isClassicDataType(tensor.dtype)) {  // the bit pattern: no value decoding
    char text[16];
    std::snprintf(text, sizeof(text), "0x%02x", lowPrecisionBits(tensor, index));
    return std::string(dataTypeName(tensor.dtype)) + " " + text;
  }
  switch (tensor.dtype) {
    case DataType::kBool: return load<uint8_t>(tensor, index) ? "true" : "false";
    case DataType::kInt8: return std::to_string(load<int8_t>(tensor, index));
    case DataType::kUInt8: return std::to_string(load<uint8_t>(tensor, index));
    case DataType::kInt16: return std::to_string(load<int16_t>(tensor, index));
    case DataType::kUInt16: return std::to_string(load<uint16_t>(tensor, index));
    case DataType::kInt32: return std::to_string(load<int32_t>(tensor, index));
    case DataType::kUInt32: return std::to_string(load<uint32_t>(tensor, index));
    case DataType::kInt64: return std::to_string(load<int64_t>(tensor, index));
    case DataType::kUInt64: return std::to_string(load<uint64_t>(tensor, index));
    case DataType::kFloat16: {
      uint16_t bits = load<uint16_t>(tensor, index);
      return halfBits(halfToFloat(bits), bits);
    }
    case DataType::kBFloat16: {
      uint16_t bits = load<uint16_t>(tensor, index);
      return halfBits(bfloat16ToFloat(bits), bits);
    }
    case DataType::kFloat32: return number(load<float>(tensor, index));
    case DataType::kFloat64: return number(load<double>(tensor, index));
    case DataType::kComplex64:
      return "(" + number(load<float>(tensor, index)) + ", " + number(load<float>(tensor, index, 4)) + ")";
    case DataType::kComplex128:
      return "(" + number(load<double>(tensor, index)) + ", " + number(load<double>(tensor, index, 8)) + ")";
    case DataType::kString: return "\"" + onnxio::printableText(tensor.strings[index]) + "\"";
    default: break;  // the low-precision types: above
  }
  return "?";
}

std::optional<std::string> compareTensors(const onnxio::HostTensor& actual, const onnxio::HostTensor& expected,
                                          size_t output_index) {
  const std::string which = "output " + std::to_string(output_index);
  if (actual.dtype != expected.dtype) {
    return which + " has type " + dataTypeName(actual.dtype) + ", expected " + dataTypeName(expected.dtype);
  }
  if (actual.dims != expected.dims) {
    return which + " has shape " + onnxio::formatDims(actual.dims) + ", expected " + onnxio::formatDims(expected.dims);
  }
  const uint64_t count = static_cast<uint64_t>(expected.elementCount());
  for (uint64_t i = 0; i < count; ++i) {
    if (!sameElement(actual, expected, i)) {
      // Position as coordinates, row-major.
      std::vector<int64_t> coordinates(expected.dims.size());
      uint64_t rest = i;
      for (size_t d = expected.dims.size(); d-- > 0;) {
        coordinates[d] = static_cast<int64_t>(rest % static_cast<uint64_t>(expected.dims[d]));
        rest /= static_cast<uint64_t>(expected.dims[d]);
      }
      return which + " differs at " + onnxio::formatDims(coordinates) + ": got " + formatElement(actual, i) +
             ", expected " + formatElement(expected, i) + stringDifference(actual, expected, i);
    }
  }
  return std::nullopt;
}

}  // namespace vkindex::tools
