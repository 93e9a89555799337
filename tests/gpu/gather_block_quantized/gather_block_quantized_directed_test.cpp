// GatherBlockQuantized on calls written out by hand, every form each (a new output, the caller's output,
// recorded, host indices): integer codes with and without zero points (uint8 rows of 8, 4 and 2 bits
// with packed zero-point rows ending mid-byte, signed int4 rows starting mid-byte), every code of each
// float8 type and of float4e2m1 decoded (NaN codes by the agreed rule), results that overflow to
// infinity or fall to float16/float32 subnormals, -0.0, float data's scales shared along outer or inner
// axes and per tensor, gather_axis equal to, before and after quantize_axis, a last block cut short by
// the quantized axis under segments of several words, rank-0 and empty indices,
// empty data, tables split into binding windows, and tensors viewed at unaligned offsets of one buffer.
// Expected outputs come from exact arithmetic in the test (values exactly representable) or are bit
// patterns written out, and the reference must agree; the other cases compare with the reference.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gather_block_quantized_forms.hpp"
#include "support/bit_cast.hpp"
#include "support/typed_tensors.hpp"

namespace vkindex::test {
namespace {

HostTensor bytesTensor(DataType dtype, Shape shape, std::vector<uint8_t> bytes) {
  HostTensor tensor;
  tensor.dtype = dtype;
  tensor.shape = std::move(shape);
  tensor.bytes = std::move(bytes);
  return tensor;
}

// Codes of `bits` bits packed low bits first, `per_byte` = 8 / bits to a byte, in rows of `row_codes`
// codes padded to whole bytes (row_codes = all codes: packed over the whole tensor); padding bits get
// `padding`'s.
std::vector<uint8_t> packCodes(const std::vector<int>& codes, int bits, size_t row_codes, uint8_t padding = 0xFF) {
  const size_t per_byte = static_cast<size_t>(8 / bits), row_bytes = (row_codes + per_byte - 1) / per_byte;
  std::vector<uint8_t> bytes(codes.size() / row_codes * row_bytes, padding);
  for (size_t i = 0; i < codes.size(); ++i) {
    const size_t byte = i / row_codes * row_bytes + i % row_codes / per_byte;
    const int shift = static_cast<int>(i % row_codes % per_byte) * bits;
    const unsigned field = static_cast<unsigned>(codes[i]) & ((1u << bits) - 1u);  // two's complement for int4
    bytes[byte] = static_cast<uint8_t>((bytes[byte] & ~(((1u << bits) - 1u) << shift)) | (field << shift));
  }
  return bytes;
}

HostTensor packedTensor(DataType dtype, Shape shape, const std::vector<int>& codes, uint8_t padding = 0xAF) {
  return bytesTensor(dtype, std::move(shape), packCodes(codes, 4, codes.size(), padding));
}

// A call with indices of `index_shape` holding `index_values`, of the index type paired with the data
// and scale types (pairedIndexType: the kernel variants of the random tests serve these too).
QuantizedGatherCall makeCall(HostTensor data, const Shape& index_shape, const std::vector<int64_t>& index_values,
                             HostTensor scales, std::optional<HostTensor> zero_points, int64_t gather_axis,
                             int64_t quantize_axis, int64_t block_size, int64_t bits = 4) {
  QuantizedGatherCall call;
  call.indices = indexTensor(pairedIndexType(data.dtype, scales.dtype), index_shape, index_values);
  call.data = std::move(data);
  call.scales = std::move(scales);
  call.zero_points = std::move(zero_points);
  call.options.gather_axis = gather_axis;
  call.options.quantize_axis = quantize_axis;
  call.options.block_size = block_size;
  call.options.bits = bits;
  return call;
}

// uint8 with bits 4: rows of 16 codes, one block each, zero points one per row (the padding nibble set),
// float16 scales; rows 2 and 0 (as -3). Without zero points the default is 8.
TEST_F(QuantizedGatherTest, Uint8FourBitRows) {
  std::vector<int> codes;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 16; ++c) codes.push_back((5 * r + 3 * c) % 16);
  }
  const HostTensor data = bytesTensor(DataType::kUInt8, {3, 8}, packCodes(codes, 4, 16));
  const std::vector<double> scale = {0.5, -2, 0.25};
  const std::vector<int> zero = {7, 0, 15};
  const HostTensor scales = realTensor(DataType::kFloat16, {3, 1}, scale);
  const HostTensor zero_points = bytesTensor(DataType::kUInt8, {3, 1}, {0xA7, 0x50, 0xFF});
  const std::vector<int> rows = {2, 0};
  for (const bool with_zero_points : {true, false}) {
    std::vector<double> expected;
    for (int row : rows) {
      for (int c = 0; c < 16; ++c) {
        expected.push_back((codes[row * 16 + c] - (with_zero_points ? zero[row] : 8)) * scale[row]);
      }
    }
    const QuantizedGatherCall call =
        makeCall(data, {2}, {2, -3}, scales, with_zero_points ? std::optional(zero_points) : std::nullopt, 0, 1, 16, 4);
    ASSERT_NO_FATAL_FAILURE(
        expectQuantizedGatherGives(context(), call, realTensor(DataType::kFloat16, {2, 16}, expected)));
  }
}

// Rows of 48 codes in three blocks of 16: with bits 2 each zero-point row is one byte whose fourth code
// is padding, with bits 4 two bytes whose last nibble is padding (padding bits set); bits 8 for
// comparison. Indices [1, 0, -1] and a rank-0 index.
TEST_F(QuantizedGatherTest, PackedZeroPointRowsEndMidByte) {
  const std::vector<double> scale = {1, 2, 4, -1, -0.5, 8};
  for (const int bits : {2, 4, 8}) {
    SCOPED_TRACE("bits " + std::to_string(bits));
    const int per_byte = 8 / bits, levels = 1 << bits;
    std::vector<int> codes, zero;
    for (int r = 0; r < 2; ++r) {
      for (int c = 0; c < 48; ++c) codes.push_back((r * 7 + c * 5 + c / 3) % levels);
      for (int b = 0; b < 3; ++b) zero.push_back((r + 2 * b + 1) % levels);
    }
    const HostTensor data = bytesTensor(DataType::kUInt8, {2, 48 / per_byte}, packCodes(codes, bits, 48));
    const HostTensor zero_points =
        bytesTensor(DataType::kUInt8, {2, (3 + per_byte - 1) / per_byte}, packCodes(zero, bits, 3, 0xC3));
    const HostTensor scales = floats({2, 3}, {1, 2, 4, -1, -0.5f, 8});
    const std::pair<Shape, std::vector<int64_t>> index_sets[] = {{{3}, {1, 0, -1}}, {{}, {-2}}};
    for (const auto& [index_shape, index_values] : index_sets) {
      std::vector<double> expected;
      for (const int64_t index : index_values) {
        const int64_t row = (index + 2) % 2;
        for (int c = 0; c < 48; ++c) {
          const size_t s = static_cast<size_t>(row * 3 + c / 16);
          expected.push_back((codes[static_cast<size_t>(row * 48 + c)] - zero[s]) * scale[s]);
        }
      }
      Shape shape = index_shape;
      shape.push_back(48);
      const QuantizedGatherCall call = makeCall(data, index_shape, index_values, scales, zero_points, 0, -1, 16, bits);
      ASSERT_NO_FATAL_FAILURE(
          expectQuantizedGatherGives(context(), call, realTensor(DataType::kFloat32, shape, expected)));
    }
  }
}

// int4 [3, 5]: rows of five codes packed over the whole tensor (rows 1 and 2 start mid-byte), signed
// codes and signed zero points (-8, 7, -1: three nibbles and a padding one), bfloat16 scales; gathered
// along quantize_axis 1 itself, and along axis 0 before it.
TEST_F(QuantizedGatherTest, SignedInt4RowsStartMidByte) {
  std::vector<int> codes;
  for (int i = 0; i < 15; ++i) codes.push_back(i * 3 % 16 - 8);
  const std::vector<int> zero = {-8, 7, -1};
  const std::vector<double> scale = {1, -0.5, 2};
  const HostTensor data = packedTensor(DataType::kInt4, {3, 5}, codes);
  const HostTensor zero_points = packedTensor(DataType::kInt4, {3, 1}, zero);
  const HostTensor scales = realTensor(DataType::kBFloat16, {3, 1}, scale);
  const auto value = [&](int r, int c) { return (codes[static_cast<size_t>(r * 5 + c)] - zero[r]) * scale[r]; };

  std::vector<double> columns;  // gather_axis 1: columns 4, 0 (as -5), 2
  for (int r = 0; r < 3; ++r) {
    for (int c : {4, 0, 2}) columns.push_back(value(r, c));
  }
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherGives(context(),
                                                     makeCall(data, {3}, {4, -5, 2}, scales, zero_points, 1, 1, 16),
                                                     realTensor(DataType::kBFloat16, {3, 3}, columns)));
  std::vector<double> rows;  // gather_axis 0: rows 2 (as -1), 1
  for (int r : {2, 1}) {
    for (int c = 0; c < 5; ++c) rows.push_back(value(r, c));
  }
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherGives(context(),
                                                     makeCall(data, {2}, {-1, 1}, scales, zero_points, -2, -1, 16),
                                                     realTensor(DataType::kBFloat16, {2, 5}, rows)));
}

// int4 [6, 2, 40] gathered along axis 0 and quantized along the last axis in blocks of 32: each
// 40-code line has a full block and one of 8 codes, and its last block ends with the line (5 data
// words), not 32 codes on. 12 indices give the word path segments of several words, which cross from
// one line to the next: each line's words take that line's scales (its second block's, from word 4).
TEST_F(QuantizedGatherTest, BlocksCutShortByTheQuantizedAxisEndWithIt) {
  constexpr int kLines = 12, kCodes = 40;
  std::vector<int> codes;
  for (int i = 0; i < kLines * kCodes; ++i) codes.push_back((3 * i + i / kCodes) % 16 - 8);
  std::vector<double> scale;  // [6, 2, 2]: a power of two of its own per line and block, signs alternating
  for (int i = 0; i < kLines * 2; ++i) scale.push_back(std::ldexp(i % 2 == 0 ? 1.0 : -1.0, i % 7 - 3));
  const HostTensor data = packedTensor(DataType::kInt4, {6, 2, kCodes}, codes);
  const HostTensor scales = realTensor(DataType::kFloat16, {6, 2, 2}, scale);
  const std::vector<int64_t> indices = {5, 0, -1, 3, 2, 2, -6, 4, 1, 5, 0, 3};
  std::vector<double> expected;
  for (int64_t index : indices) {
    const int row = static_cast<int>(index < 0 ? index + 6 : index);
    for (int line = 2 * row; line < 2 * row + 2; ++line) {
      for (int c = 0; c < kCodes; ++c) expected.push_back(codes[line * kCodes + c] * scale[line * 2 + c / 32]);
    }
  }
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherGives(context(),
                                                     makeCall(data, {12}, indices, scales, std::nullopt, 0, 2, 32),
                                                     realTensor(DataType::kFloat16, {12, 2, kCodes}, expected)));
}

// uint4 [20, 3] quantized along axis 0 (blocks of 16: rows 0-15 and 16-19), gathered along axis 1 after
// it, with and without zero points (six nibbles), float32 scales.
TEST_F(QuantizedGatherTest, Uint4QuantizedBeforeTheGatherAxis) {
  std::vector<int> codes;
  for (int r = 0; r < 20; ++r) {
    for (int c = 0; c < 3; ++c) codes.push_back((r * 3 + c * 7) % 16);
  }
  const std::vector<int> zero = {1, 15, 8, 0, 9, 3};
  const std::vector<float> scale = {0.5f, -1, 4, 0.125f, 16, -0.25f};
  const HostTensor data = packedTensor(DataType::kUInt4, {20, 3}, codes);
  for (const bool with_zero_points : {true, false}) {
    std::vector<double> expected;
    for (int r = 0; r < 20; ++r) {
      for (int c : {2, 2, 0}) {
        const size_t s = static_cast<size_t>(r / 16 * 3 + c);
        expected.push_back((codes[static_cast<size_t>(r * 3 + c)] - (with_zero_points ? zero[s] : 0)) *
                           double{scale[s]});
      }
    }
    const QuantizedGatherCall call = makeCall(
        data, {3}, {-1, 2, 0}, floats({2, 3}, scale),
        with_zero_points ? std::optional(packedTensor(DataType::kUInt4, {2, 3}, zero)) : std::nullopt, 1, 0, 16);
    ASSERT_NO_FATAL_FAILURE(
        expectQuantizedGatherGives(context(), call, realTensor(DataType::kFloat32, {20, 3}, expected)));
  }
}

// Every code of each float8 type and of float4e2m1, NaN codes included (sign | quiet NaN, narrowed by
// the agreed rules), times 1.0 of each scale type: the decoding itself, in the layout the random tests
// give the pair (one row of all codes, or every code gathered by index). Known values checked first.
TEST_F(QuantizedGatherTest, EveryFloatCodeDecodes) {
  struct Known {
    DataType dtype;
    uint32_t code;
    float value;
  };
  const Known known[] = {
      {DataType::kFloat8E4M3FN, 0x7E, 448},
      {DataType::kFloat8E4M3FN, 0x01, std::ldexp(1.0f, -9)},
      {DataType::kFloat8E4M3FN, 0x38, 1},
      {DataType::kFloat8E4M3FN, 0xC4, -3},
      {DataType::kFloat8E4M3FNUZ, 0x7F, 240},
      {DataType::kFloat8E4M3FNUZ, 0x01, std::ldexp(1.0f, -10)},
      {DataType::kFloat8E4M3FNUZ, 0x40, 1},
      {DataType::kFloat8E5M2, 0x7B, 57344},
      {DataType::kFloat8E5M2, 0x01, std::ldexp(1.0f, -16)},
      {DataType::kFloat8E5M2, 0x3C, 1},
      {DataType::kFloat8E5M2, 0x7C, INFINITY},
      {DataType::kFloat8E5M2, 0xFC, -INFINITY},
      {DataType::kFloat8E5M2FNUZ, 0x7F, 57344},
      {DataType::kFloat8E5M2FNUZ, 0x01, std::ldexp(1.0f, -17)},
      {DataType::kFloat8E5M2FNUZ, 0x40, 1},
      {DataType::kFloat4E2M1, 0x1, 0.5f},
      {DataType::kFloat4E2M1, 0x7, 6},
      {DataType::kFloat4E2M1, 0xF, -6},
      {DataType::kFloat4E2M1, 0x5, 3},
      {DataType::kFloat4E2M1, 0x8, -0.0f},
  };
  for (const Known& k : known) {
    EXPECT_EQ(decodeFloatCode(k.dtype, k.code), bitsOf(k.value)) << dataTypeName(k.dtype) << " code " << k.code;
  }
  EXPECT_EQ(decodeFloatCode(DataType::kFloat8E4M3FN, 0xFF), 0xFFC00000u);
  EXPECT_EQ(decodeFloatCode(DataType::kFloat8E4M3FNUZ, 0x80), 0xFFC00000u);
  EXPECT_EQ(decodeFloatCode(DataType::kFloat8E5M2, 0x7D), 0x7FC00000u);
  EXPECT_EQ(decodeFloatCode(DataType::kFloat8E5M2FNUZ, 0x80), 0xFFC00000u);
  EXPECT_EQ(decodeFloatCode(DataType::kFloat8E4M3FNUZ, 0x00), 0u);

  for (const DataType dtype : {DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
                               DataType::kFloat8E5M2FNUZ, DataType::kFloat4E2M1}) {
    const int count = elementBits(dtype) == 4 ? 16 : 256;
    std::vector<int> all(static_cast<size_t>(count));
    std::vector<int64_t> positions(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) all[static_cast<size_t>(i)] = i, positions[static_cast<size_t>(i)] = i;
    std::vector<uint8_t> bytes(all.begin(), all.end());
    const HostTensor data = count == 16 ? packedTensor(dtype, {16}, all) : bytesTensor(dtype, {256}, bytes);
    HostTensor row = data;  // one row of every code: the word layout
    row.shape = {1, count};
    for (const DataType scale_type : {DataType::kFloat32, DataType::kFloat16, DataType::kBFloat16}) {
      SCOPED_TRACE(std::string(dataTypeName(dtype)) + " x " + dataTypeName(scale_type));
      const HostTensor one = realTensor(scale_type, {1, 1}, {1});
      const QuantizedGatherCall call =
          wordLayoutFor(dtype, 8, scale_type)
              ? makeCall(row, {1}, {0}, one, std::nullopt, 0, 1, 0)
              : makeCall(data, {count}, positions, realTensor(scale_type, {1}, {1}), std::nullopt, 0, 0, 0);
      ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(context(), call));
    }
  }
}

// Results out of each type's range and below its normals, each bit pattern written out: float16,
// bfloat16 and float32 overflow to +-inf, float16 subnormals (2^-20 x 1 and x 3), float32 subnormals
// (2^-149 x 127), products of subnormal scales, ties to even in float16, bfloat16 and float32
// ((1 + 2^-23) 2^-126 x 3). uint8 codes (bits 8, the default zero point 128), differences 127, -128, 1, 3 first.
TEST_F(QuantizedGatherTest, OverflowAndSubnormalResults) {
  const std::vector<uint64_t> row = {255, 0, 129, 131, 128, 129, 130, 131, 255, 1, 200, 60, 128, 127, 129, 136};
  const HostTensor data = integers(DataType::kUInt8, {1, 16}, row);
  struct Case {
    DataType scale_type;
    uint32_t scale;
    std::vector<uint32_t> first_four;  // the results of differences 127, -128, 1 and 3
  };
  const Case cases[] = {
      {DataType::kFloat16, 0x6400, {0x7C00, 0xFC00, 0x6400, 0x6A00}},                      // 1024
      {DataType::kFloat16, 0x0010, {0x07F0, 0x8800, 0x0010, 0x0030}},                      // 2^-20
      {DataType::kFloat16, 0x3C01, {0x57F2, 0xD801, 0x3C01, 0x4202}},                      // 1 + 2^-10
      {DataType::kBFloat16, 0x7F00, {0x7F80, 0xFF80, 0x7F00, 0x7F80}},                     // 2^127
      {DataType::kBFloat16, 0x3F81, {0x4300, 0xC301, 0x3F81, 0x4042}},                     // 1 + 2^-7
      {DataType::kFloat32, 0x7F000000, {0x7F800000, 0xFF800000, 0x7F000000, 0x7F800000}},  // 2^127
      {DataType::kFloat32, 0x01000000, {0x047E0000, 0x84800000, 0x01000000, 0x01C00000}},  // 2^-125
      {DataType::kFloat32, 0x00000001, {0x0000007F, 0x80000080, 0x00000001, 0x00000003}},  // 2^-149
      {DataType::kFloat32, 0x00800001, {0x03FE0002, 0x84000001, 0x00800001, 0x01400002}},  // (1 + 2^-23) 2^-126
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(dataTypeName(c.scale_type)) + " scale " + std::to_string(c.scale));
    const size_t width = elementSize(c.scale_type);
    HostTensor scales = bytesTensor(c.scale_type, {1, 1}, std::vector<uint8_t>(width));
    std::memcpy(scales.bytes.data(), &c.scale, width);
    const QuantizedGatherCall call = makeCall(data, {1}, {0}, scales, std::nullopt, 0, 1, 16, 8);
    const ReferenceResult reference = call.reference();
    for (size_t i = 0; i < c.first_four.size(); ++i) {
      uint32_t got = 0;
      std::memcpy(&got, &reference.output.bytes[i * width], width);
      EXPECT_EQ(got, c.first_four[i]) << "the reference's element " << i;
    }
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(context(), call));
  }
}

// float8 codes times a normal float32 scale, (1 + 2^-23) 2^-120, into float32 subnormals: rounded down,
// up, and two ties to even. e4m3fn codes 2^-9, 3 x 2^-9, 7 x 2^-9, -2^-9, 4 x 2^-9, 12 x 2^-9,
// 2 x 2^-9 and -5 x 2^-9: gathered as a row (the word path) and column by column (the element path).
TEST_F(QuantizedGatherTest, Float8TimesNormalScaleRoundsToSubnormal) {
  const HostTensor data =
      bytesTensor(DataType::kFloat8E4M3FN, {1, 8}, {0x01, 0x03, 0x07, 0x81, 0x04, 0x0C, 0x02, 0x85});
  const HostTensor scale = floatBitsTensor({1, 1}, {0x03800001});
  const HostTensor expected = floatBitsTensor(
      {1, 8}, {0x00100000, 0x00300000, 0x00700001, 0x80100000, 0x00400000, 0x00C00002, 0x00200000, 0x80500001});
  ASSERT_NO_FATAL_FAILURE(
      expectQuantizedGatherGives(context(), makeCall(data, {1}, {0}, scale, std::nullopt, 0, 1, 0), expected));
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherGives(
      context(), makeCall(data, {8}, {0, 1, 2, 3, -4, -3, -2, -1}, scale, std::nullopt, 1, 1, 0), expected));
}

// -0.0: a code equal to its zero point times a negative scale, in every scale type; a float8 zero times
// a negative scale, and e4m3fn's negative zero times a positive one.
TEST_F(QuantizedGatherTest, NegativeZero) {
  const HostTensor data = packedTensor(DataType::kUInt4, {2, 16}, std::vector<int>(32, 9));
  const HostTensor zero_points = packedTensor(DataType::kUInt4, {2, 1}, {9, 9});
  for (const DataType scale_type : {DataType::kFloat32, DataType::kFloat16, DataType::kBFloat16}) {
    const QuantizedGatherCall call =
        makeCall(data, {1}, {1}, realTensor(scale_type, {2, 1}, {-3, -0.5}), zero_points, 0, 1, 32);
    ASSERT_NO_FATAL_FAILURE(
        expectQuantizedGatherGives(context(), call, realTensor(scale_type, {1, 16}, std::vector<double>(16, -0.0))));
  }
  const HostTensor float8 = bytesTensor(DataType::kFloat8E4M3FN, {2, 2}, {0x00, 0x80, 0x80, 0x00});
  const QuantizedGatherCall call = makeCall(float8, {2}, {0, 1}, floats({2, 1}, {-2, 4}), std::nullopt, 0, 1, 0);
  ASSERT_NO_FATAL_FAILURE(
      expectQuantizedGatherGives(context(), call, floatBitsTensor({2, 2}, {0x80000000u, 0, 0x80000000u, 0})));
}

// Float data's scales shared (dim 1) along every axis before quantize_axis, every axis after it, both,
// and one per tensor (block_size 0), gathered along each axis of [3, 40, 4] e5m2 data quantized along
// axis 1 in blocks of 16 (three, the last of 8).
TEST_F(QuantizedGatherTest, FloatScalesSharedAlongOuterOrInnerAxes) {
  Rng rng(0x5ca1e);
  const HostTensor data = randomCodes(rng, DataType::kFloat8E5M2, {3, 40, 4});
  const Shape scale_shapes[] = {{1, 3, 4}, {3, 3, 1}, {1, 3, 1}, {3, 3, 4}};
  for (const Shape& scale_shape : scale_shapes) {
    for (int64_t axis = 0; axis < 3; ++axis) {
      const HostTensor scales = randomScales(rng, DataType::kFloat16, scale_shape);
      ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(
          context(), makeCall(data, {2, 2}, {-1, 0, 2, 1}, scales, std::nullopt, axis, 1, 16)));
    }
  }
  // One scale for the whole tensor: block_size 0 with quantize_axis 0, 2 and -1.
  for (const int64_t quantize_axis : {0, 2, -1}) {
    const HostTensor scales = randomScales(rng, DataType::kBFloat16, {1, 1, 1});
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(
        context(), makeCall(data, {3}, {1, 39, -40}, scales, std::nullopt, 1, quantize_axis, 0)));
  }
  // float4e2m1 [2, 3, 5] quantized along the last axis, scales [1, 1, 1] with block 16 and [2, 3, 1].
  const HostTensor fp4 = randomCodes(rng, DataType::kFloat4E2M1, {2, 3, 5});
  for (const Shape& scale_shape : {Shape{1, 1, 1}, Shape{2, 3, 1}}) {
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(
        context(),
        makeCall(fp4, {1}, {-2}, randomScales(rng, DataType::kFloat32, scale_shape), std::nullopt, 1, 2, 16)));
  }
}

// A rank-0 index (the gathered dim disappears), empty indices ([0] and [2, 0]: no output elements), an
// empty gather axis (every index skipped: zeros), and data with an empty dim elsewhere.
TEST_F(QuantizedGatherTest, RankZeroAndEmptyIndicesAndEmptyData) {
  Rng rng(0xe3);
  const HostTensor data = randomCodes(rng, DataType::kInt4, {4, 33});
  const HostTensor scales = randomScales(rng, DataType::kFloat32, {4, 3});
  const HostTensor zero_points = randomTensor(rng, DataType::kInt4, {4, 3});
  const std::pair<Shape, std::vector<int64_t>> index_sets[] = {{{}, {-4}}, {{0}, {}}, {{2, 0}, {}}};
  for (const auto& [index_shape, index_values] : index_sets) {
    for (const int64_t gather_axis : {0, 1}) {
      ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(
          context(), makeCall(data, index_shape, index_values, scales, zero_points, gather_axis, 1, 16)));
    }
  }
  // An empty gather axis: every index skipped, zeros (e4m3fn along axis 1, uint8 along axis 0).
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(
      context(), makeCall(randomCodes(rng, DataType::kFloat8E4M3FN, {3, 0, 16}), {2}, {0, -1},
                          randomScales(rng, DataType::kFloat16, {3, 0, 1}), std::nullopt, 1, 2, 16)));
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(
      context(),
      makeCall(randomCodes(rng, DataType::kUInt8, {0, 8}), {2}, {0, -1}, randomScales(rng, DataType::kFloat32, {0, 1}),
               randomTensor(rng, DataType::kUInt8, {0, 1}), 0, 1, 16, 4)));
  // Empty data along quantize_axis (no blocks) and along an axis before it: outputs without elements.
  ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(
      context(), makeCall(randomCodes(rng, DataType::kUInt8, {3, 0}), {2}, {2, -3},
                          randomScales(rng, DataType::kFloat32, {3, 0}), std::nullopt, 0, 1, 32, 8)));
  ASSERT_NO_FATAL_FAILURE(
      expectQuantizedGatherMatches(context(), makeCall(randomCodes(rng, DataType::kInt4, {2, 0, 20}), {2}, {1, -2},
                                                       randomScales(rng, DataType::kFloat32, {2, 0, 2}),
                                                       randomTensor(rng, DataType::kInt4, {2, 0, 2}), 0, 2, 16)));
}

// Tables split into binding windows (bindings of 4 KiB): uint8 with bits 4 and 2 and packed zero points,
// int4 rows of 101 codes (odd: rows start mid-byte), float8 with one scale per row and with one for the
// whole table, uint4 quantized
// along the gather axis (passes of whole blocks), gathering first, last, negative and repeated rows
// and rows on both sides of a block's end, every form.
TEST_F(QuantizedGatherTest, TablesBeyondOneBinding) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> windows, makeContextWithBindings(4096));
  Rng rng(0xb16);
  const std::vector<int64_t> rows = {599, 0, -1, 300, 17, 300, -600, 451};
  {
    QuantizedGatherCall call = makeCall(randomCodes(rng, DataType::kUInt8, {600, 40}), {8}, rows,
                                        randomScales(rng, DataType::kFloat16, {600, 5}),
                                        randomTensor(rng, DataType::kUInt8, {600, 3}), 0, 1, 16, 4);
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(*windows, call));
  }
  {
    QuantizedGatherCall call = makeCall(randomCodes(rng, DataType::kInt4, {600, 101}), {2, 4}, rows,
                                        randomScales(rng, DataType::kFloat32, {600, 4}),
                                        randomTensor(rng, DataType::kInt4, {600, 4}), 0, 1, 32);
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(*windows, call));
  }
  {
    QuantizedGatherCall call = makeCall(randomCodes(rng, DataType::kFloat8E4M3FNUZ, {600, 24}), {8}, rows,
                                        randomScales(rng, DataType::kBFloat16, {600, 1}), std::nullopt, 0, 1, 0);
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(*windows, call));
    call.scales = randomScales(rng, DataType::kBFloat16, {1, 1});  // one scale for every row: shared outer
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(*windows, call));
  }
  {  // uint8 with bits 2, rows of 52 codes (the element path), packed zero-point rows of one byte
    QuantizedGatherCall call = makeCall(randomCodes(rng, DataType::kUInt8, {700, 13}), {8}, rows,
                                        randomScales(rng, DataType::kBFloat16, {700, 4}),
                                        randomTensor(rng, DataType::kUInt8, {700, 1}), 0, 1, 16, 2);
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(*windows, call));
  }
  {  // gather_axis = quantize_axis = 0: passes of whole blocks of rows
    QuantizedGatherCall call = makeCall(randomCodes(rng, DataType::kUInt4, {3000, 5}), {2, 4}, rows,
                                        randomScales(rng, DataType::kFloat32, {94, 5}),
                                        randomTensor(rng, DataType::kUInt4, {94, 5}), 0, 0, 32);
    call.indices = indexTensor(call.indices.dtype, {2, 4}, {2999, 0, -1, 1500, 31, 32, -3000, 2048});
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(*windows, call));
  }
  EXPECT_EQ(windows->validationMessageCount(), 0u) << windows->firstValidationMessage();
}

// Every tensor a view into one buffer of random bytes at offsets that are multiples of 4 but not of 16
// (data 36, indices 1028, scales 1540, zero points 1796, output 2052, 2056 or 2064: 4, 8 and 16 bytes
// past a 256-byte boundary, so the word path stores words, 8-byte vectors, or 16-byte vectors), 16-bit
// outputs of an odd element count: the output holds the reference's bytes and every other byte of the
// buffer, the rest of the output's last word included (Tensor::view's promise), keeps its own. Word path
// (uint8 of 4, 2 and 8 bits into float16), element path (int4 gathered along quantize_axis into
// bfloat16, uint4 into float16), float8 (float32).
TEST_F(QuantizedGatherTest, UnalignedViewsKeepTheirNeighbours) {
  constexpr uint64_t kArenaBytes = 4096;
  Rng rng(0x0ff5e7);
  std::vector<QuantizedGatherCall> calls;
  calls.push_back(makeCall(randomCodes(rng, DataType::kUInt8, {9, 8}), {3}, {8, -9, 4},
                           randomScales(rng, DataType::kFloat16, {9, 1}), randomTensor(rng, DataType::kUInt8, {9, 1}),
                           0, 1, 16, 4));  // word path: 3 x 16 elements
  calls.push_back(makeCall(randomCodes(rng, DataType::kUInt8, {9, 4}), {3}, {8, -9, 4},
                           randomScales(rng, DataType::kFloat16, {9, 1}), randomTensor(rng, DataType::kUInt8, {9, 1}),
                           0, 1, 16, 2));  // word path: 3 x 16 elements
  calls.push_back(makeCall(randomCodes(rng, DataType::kUInt8, {9, 16}), {3}, {8, -9, 4},
                           randomScales(rng, DataType::kFloat16, {9, 1}), randomTensor(rng, DataType::kUInt8, {9, 1}),
                           0, 1, 16, 8));  // word path: 3 x 16 elements, two output words per data word
  calls.push_back(makeCall(randomCodes(rng, DataType::kInt4, {3, 7}), {3}, {6, -7, 2},
                           randomScales(rng, DataType::kBFloat16, {3, 1}), randomTensor(rng, DataType::kInt4, {3, 1}),
                           1, 1, 16));  // element path: 3 x 3 elements, the last word half filled
  calls.push_back(makeCall(randomCodes(rng, DataType::kUInt4, {5, 3}), {1}, {-1},
                           randomScales(rng, DataType::kFloat16, {5, 1}), std::nullopt, 0, 1, 16));  // 1 x 3 elements
  calls.push_back(makeCall(randomCodes(rng, DataType::kFloat8E5M2, {5, 7}), {2}, {4, 0},
                           randomScales(rng, DataType::kFloat32, {5, 1}), std::nullopt, 0, 1, 0));
  for (const uint64_t output_offset : {2052u, 2056u, 2064u}) {
    for (const QuantizedGatherCall& call : calls) {
      SCOPED_TRACE(call.description() + ", output at byte " + std::to_string(output_offset));
      const HostTensor expected = call.reference().output;
      HostTensor arena_host = randomTensor(rng, DataType::kUInt8, {static_cast<int64_t>(kArenaBytes)});
      const std::pair<const HostTensor*, uint64_t> placed[] = {
          {&call.data, 36}, {&call.indices, 1028}, {&call.scales, 1540}, {call.zeroPoints(), 1796}};
      for (const auto& [tensor, offset] : placed) {
        if (tensor != nullptr) std::copy(tensor->bytes.begin(), tensor->bytes.end(), arena_host.bytes.begin() + offset);
      }
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor arena, toDevice(context(), arena_host));
      std::vector<Tensor> views;
      for (const auto& [tensor, offset] : placed) {
        if (tensor == nullptr) continue;
        VKINDEX_ASSERT_OK_AND_ASSIGN(
            Tensor view, Tensor::view(context(), tensor->dtype, tensor->shape, arena.buffer(), offset, kArenaBytes));
        views.push_back(std::move(view));
      }
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, Tensor::view(context(), expected.dtype, expected.shape,
                                                               arena.buffer(), output_offset, kArenaBytes));
      const Tensor* zero_points = views.size() > 3 ? &views[3] : nullptr;
      VKINDEX_ASSERT_OK(
          gatherBlockQuantized(context(), views[0], views[1], views[2], zero_points, call.options, output));
      std::copy(expected.bytes.begin(), expected.bytes.end(), arena_host.bytes.begin() + output_offset);
      VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor after, toHost(arena));
      const auto differs = std::mismatch(after.bytes.begin(), after.bytes.end(), arena_host.bytes.begin());
      EXPECT_TRUE(differs.first == after.bytes.end())
          << "byte " << (differs.first - after.bytes.begin()) << " is " << int{*differs.first} << ", expected "
          << int{*differs.second} << " (the output is bytes [" << output_offset << ", "
          << output_offset + expected.bytes.size() << "))";
    }
  }
}

}  // namespace
}  // namespace vkindex::test
