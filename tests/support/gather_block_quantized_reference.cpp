#include "support/gather_block_quantized_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/soft_float_host.hpp"
#include "support/bit_cast.hpp"

namespace vkindex::test {
namespace {

bool isIntegerCodeType(DataType type) {
  return type == DataType::kInt4 || type == DataType::kUInt4 || type == DataType::kUInt8;
}

// Codes per uint8 byte (1 for every other type: the 4-bit types count their codes as elements).
uint64_t codesPerByte(DataType type, int64_t bits) { return type == DataType::kUInt8 ? 8 / bits : 1; }

// The `bits`-bit field at code position `p` of bytes packed low bits first.
uint32_t packedField(const std::vector<uint8_t>& bytes, uint64_t p, uint32_t bits) {
  const uint64_t per_byte = 8 / bits;
  const uint32_t shift = static_cast<uint32_t>(p % per_byte) * bits;
  return (bytes[p / per_byte] >> shift) & ((1u << bits) - 1u);
}

int32_t signExtendNibble(uint32_t nibble) { return static_cast<int32_t>(nibble) - (nibble >= 8 ? 16 : 0); }

// The integer code at logical position `p` of `data`.
int32_t integerCode(const HostTensor& data, uint64_t p, uint32_t bits) {
  const uint32_t field = packedField(data.bytes, p, data.dtype == DataType::kUInt8 ? bits : 4);
  return data.dtype == DataType::kInt4 ? signExtendNibble(field) : static_cast<int32_t>(field);
}

// The zero point of scale `s`: packed like the data for int4/uint4 (over the whole tensor) and for
// uint8 with bits 8; for uint8 with bits 4 or 2 per scales row of `blocks`, each row whole bytes.
int32_t zeroPoint(const HostTensor* zero_points, DataType type, uint32_t bits, uint64_t s, uint64_t blocks) {
  if (zero_points == nullptr) return type == DataType::kUInt8 ? 1 << (bits - 1) : 0;
  if (type != DataType::kUInt8) {
    const uint32_t nibble = packedField(zero_points->bytes, s, 4);
    return type == DataType::kInt4 ? signExtendNibble(nibble) : static_cast<int32_t>(nibble);
  }
  if (bits == 8) return zero_points->bytes[s];
  const uint64_t per_byte = 8 / bits, row = s / blocks, column = s % blocks;
  const uint64_t row_bytes = (blocks + per_byte - 1) / per_byte;
  const uint8_t byte = zero_points->bytes[row * row_bytes + column / per_byte];
  return (byte >> (column % per_byte * bits)) & ((1 << bits) - 1);
}

// The float32 pattern of sign x m x 2^e (exact: every float8 and float4 value is a normal float32).
uint32_t exactFloat(bool negative, uint32_t m, int e) {
  const float magnitude = static_cast<float>(std::ldexp(static_cast<double>(m), e));
  return bitsOf(magnitude) | (negative ? 0x80000000u : 0u);
}

// A scale's float32 pattern (float16 and bfloat16 widened exactly).
uint32_t scaleBits(const HostTensor& scales, uint64_t s) {
  switch (scales.dtype) {
    case DataType::kFloat16: {
      uint16_t half;
      std::memcpy(&half, &scales.bytes[s * 2], 2);
      return glsl::f16ToF32(half);
    }
    case DataType::kBFloat16: {
      uint16_t half;
      std::memcpy(&half, &scales.bytes[s * 2], 2);
      return glsl::bf16ToF32(half);
    }
    default: {
      uint32_t word;
      std::memcpy(&word, &scales.bytes[s * 4], 4);
      return word;
    }
  }
}

// Stores float32 pattern `value` as element `o` of `output`, rounded to nearest even to its type.
void storeResult(HostTensor& output, uint64_t o, uint32_t value) {
  if (output.dtype == DataType::kFloat32) {
    std::memcpy(&output.bytes[o * 4], &value, 4);
    return;
  }
  const uint16_t half =
      static_cast<uint16_t>(output.dtype == DataType::kFloat16 ? glsl::f32ToF16(value) : glsl::f32ToBf16(value));
  std::memcpy(&output.bytes[o * 2], &half, 2);
}

// The row-major strides of `shape`.
std::vector<uint64_t> stridesOf(const Shape& shape) {
  std::vector<uint64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * static_cast<uint64_t>(shape[d]);
  return strides;
}

}  // namespace

bool isNaNCode(DataType type, uint32_t code) {
  switch (type) {
    case DataType::kFloat8E4M3FN: return (code & 0x7F) == 0x7F;
    case DataType::kFloat8E5M2: return (code & 0x7F) > 0x7C;
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2FNUZ: return code == 0x80;
    default: return false;
  }
}

uint32_t decodeFloatCode(DataType type, uint32_t code) {
  int exponent_bits = 4, mantissa_bits = 3, bias = 7;
  switch (type) {
    case DataType::kFloat8E4M3FN: break;
    case DataType::kFloat8E4M3FNUZ: bias = 8; break;
    case DataType::kFloat8E5M2: exponent_bits = 5, mantissa_bits = 2, bias = 15; break;
    case DataType::kFloat8E5M2FNUZ: exponent_bits = 5, mantissa_bits = 2, bias = 16; break;
    case DataType::kFloat4E2M1: exponent_bits = 2, mantissa_bits = 1, bias = 1; break;
    default: return 0;
  }
  const int width = 1 + exponent_bits + mantissa_bits;
  const bool negative = (code >> (width - 1)) & 1u;
  const uint32_t sign = negative ? 0x80000000u : 0u;
  if (isNaNCode(type, code)) return sign | 0x7FC00000u;
  const uint32_t exponent = (code >> mantissa_bits) & ((1u << exponent_bits) - 1u);
  const uint32_t mantissa = code & ((1u << mantissa_bits) - 1u);
  if (type == DataType::kFloat8E5M2 && exponent == 31) return sign | 0x7F800000u;      // mantissa 0: infinity
  if (exponent == 0) return exactFloat(negative, mantissa, 1 - bias - mantissa_bits);  // zero, subnormal
  return exactFloat(negative, (1u << mantissa_bits) | mantissa, static_cast<int>(exponent) - bias - mantissa_bits);
}

Shape codeShape(const HostTensor& data, int64_t bits) {
  Shape shape = data.shape;
  if (!shape.empty()) shape.back() *= static_cast<int64_t>(codesPerByte(data.dtype, bits));
  return shape;
}

ReferenceResult referenceGatherBlockQuantized(const HostTensor& data, const HostTensor& indices,
                                              const HostTensor& scales, const HostTensor* zero_points,
                                              const GatherBlockQuantizedOptions& options) {
  const Shape codes = codeShape(data, options.bits);
  const int64_t rank = static_cast<int64_t>(codes.size());
  const size_t g = static_cast<size_t>(options.gather_axis < 0 ? options.gather_axis + rank : options.gather_axis);
  const size_t q =
      static_cast<size_t>(options.quantize_axis < 0 ? options.quantize_axis + rank : options.quantize_axis);
  const bool integer = isIntegerCodeType(data.dtype);
  const uint32_t bits = data.dtype == DataType::kUInt8 ? static_cast<uint32_t>(options.bits) : 4;
  const uint64_t block = options.block_size != 0 ? static_cast<uint64_t>(options.block_size)
                                                 : std::max<uint64_t>(static_cast<uint64_t>(codes[q]), 1);
  const int64_t axis_dim = codes[g];

  ReferenceResult result;
  result.output.dtype = scales.dtype;
  result.output.shape.assign(codes.begin(), codes.begin() + static_cast<int64_t>(g));
  result.output.shape.insert(result.output.shape.end(), indices.shape.begin(), indices.shape.end());
  result.output.shape.insert(result.output.shape.end(), codes.begin() + static_cast<int64_t>(g) + 1, codes.end());
  const uint64_t index_count = indices.elementCount();
  const auto valid = [axis_dim](int64_t i) { return i >= -axis_dim && i < axis_dim; };
  if (options.index_policy == IndexPolicy::kError) {
    for (uint64_t n = 0; n < index_count; ++n) {
      if (!valid(indexAt(indices, n))) {
        result.bad_index_position = n;
        return result;
      }
    }
  }
  const uint64_t count = result.output.elementCount();
  result.output.bytes.assign(count * elementSize(scales.dtype), 0);  // +0.0: the skipped slices

  const std::vector<uint64_t> code_strides = stridesOf(codes), scale_strides = stridesOf(scales.shape);
  const uint64_t row_codes = code_strides[g];  // codes after gather_axis
  const uint64_t blocks = static_cast<uint64_t>(scales.shape[q]);
  for (uint64_t o = 0; o < count; ++o) {
    // Output position o = (outer, n, r) over [dims before g, index_count, row_codes].
    const uint64_t r = o % row_codes, n = o / row_codes % std::max<uint64_t>(index_count, 1);
    const uint64_t outer = o / row_codes / std::max<uint64_t>(index_count, 1);
    int64_t index = indexAt(indices, n);
    if (!valid(index)) continue;
    if (index < 0) index += axis_dim;
    const uint64_t p = (outer * static_cast<uint64_t>(axis_dim) + static_cast<uint64_t>(index)) * row_codes + r;
    // The scale: each axis's coordinate, its block at quantize_axis, 0 where scales are shared.
    uint64_t s = 0;
    for (size_t d = 0; d < codes.size(); ++d) {
      const uint64_t coordinate = p / code_strides[d] % static_cast<uint64_t>(codes[d]);
      const uint64_t scaled = d == q ? coordinate / block : scales.shape[d] == 1 ? 0 : coordinate;
      s += scaled * scale_strides[d];
    }
    uint32_t value;
    if (integer) {
      const int32_t difference = integerCode(data, p, bits) - zeroPoint(zero_points, data.dtype, bits, s, blocks);
      value = bitsOf(static_cast<float>(difference));  // exact: |difference| < 2^9
    } else {
      const uint32_t code = elementBits(data.dtype) == 4 ? packedField(data.bytes, p, 4) : data.bytes[p];
      value = decodeFloatCode(data.dtype, code);
    }
    storeResult(result.output, o, glsl::f32Mul(value, scaleBits(scales, s)));
  }
  return result;
}

}  // namespace vkindex::test
