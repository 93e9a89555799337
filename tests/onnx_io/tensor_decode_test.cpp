// Hand-built TensorProtos through decodeTensorProto: every storage form ONNX allows, and the
// malformed ones.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "onnx_io.hpp"
#include "onnx_io_test_support.hpp"
#include "onnx_proto_decode.hpp"

namespace vkindex::onnxio::test {
namespace {

const char kOrigin[] = "hand.pb";

// The little-endian bytes of `values`, `width` bytes each.
std::vector<uint8_t> littleEndian(std::initializer_list<uint64_t> values, size_t width) {
  std::vector<uint8_t> bytes;
  for (uint64_t value : values) {
    for (size_t i = 0; i < width; ++i) bytes.push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
  return bytes;
}

HostTensor decodeOk(const onnx::TensorProto& proto) {
  StatusOr<HostTensor> tensor = decodeTensorProto(proto, kOrigin);
  EXPECT_TRUE(tensor.ok()) << tensor.status().toString();
  if (!tensor.ok()) return HostTensor();
  expectConsistent(*tensor);
  return std::move(tensor).value();
}

// Decodes a proto that must fail with `code`; the message must name the origin and the tensor, and
// contain `fragment`.
void expectRejected(const onnx::TensorProto& proto, StatusCode code, const std::string& fragment) {
  StatusOr<HostTensor> tensor = decodeTensorProto(proto, kOrigin);
  ASSERT_FALSE(tensor.ok()) << "accepted, expected an error containing '" << fragment << "'";
  EXPECT_EQ(tensor.status().code(), code) << tensor.status().toString();
  EXPECT_EQ(tensor.status().message().rfind("hand.pb: tensor 'x': ", 0), 0u) << tensor.status().toString();
  EXPECT_NE(tensor.status().message().find(fragment), std::string::npos) << tensor.status().toString();
}

TEST(TensorDecode, RawData) {
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_FLOAT, {2, 2});
  const float values[] = {1.5f, -2.0f, 0.25f, 8.0f};
  proto.set_raw_data(std::string(reinterpret_cast<const char*>(values), sizeof(values)));
  HostTensor tensor = decodeOk(proto);
  EXPECT_EQ(tensor.name, "x");
  EXPECT_EQ(tensor.dtype, DataType::kFloat32);
  EXPECT_EQ(tensor.dims, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(valuesOf<float>(tensor), (std::vector<float>{1.5f, -2.0f, 0.25f, 8.0f}));
}

// The low-precision types of opsets 19-23 (TensorScatter's): ONNX codes 17-24, written as numbers since
// Debian's onnx 1.12 does not name them. float8 elements are bytes; 4-bit ones packed pairs, in raw_data
// and one pair per int32_data entry alike.
TEST(TensorDecode, LowPrecisionTypes) {
  onnx::TensorProto float8 = makeTensor(onnx::TensorProto_DataType_UINT8, {3});
  float8.set_data_type(19);  // FLOAT8E5M2
  float8.set_raw_data(std::string("\x3c\xff\x00", 3));
  HostTensor bytes = decodeOk(float8);
  EXPECT_EQ(bytes.dtype, DataType::kFloat8E5M2);
  EXPECT_EQ(bytes.bytes, (std::vector<uint8_t>{0x3c, 0xff, 0x00}));

  onnx::TensorProto packed = makeTensor(onnx::TensorProto_DataType_UINT8, {3});
  packed.set_data_type(22);  // INT4: three nibbles in two bytes
  packed.set_raw_data(std::string("\x21\x03", 2));
  HostTensor nibbles = decodeOk(packed);
  EXPECT_EQ(nibbles.dtype, DataType::kInt4);
  EXPECT_EQ(nibbles.bytes, (std::vector<uint8_t>{0x21, 0x03}));
  packed.clear_raw_data();
  packed.add_int32_data(0x21);
  packed.add_int32_data(0x03);
  EXPECT_EQ(decodeOk(packed).bytes, (std::vector<uint8_t>{0x21, 0x03}));
  packed.add_int32_data(0x04);
  expectRejected(packed, StatusCode::kInvalidArgument, "int32_data has 3 values but dims [3] of int4 need 2");
  packed.clear_int32_data();
  packed.set_raw_data(std::string("\x21\x03\x00", 3));
  expectRejected(packed, StatusCode::kInvalidArgument, "raw_data has 3 bytes but dims [3] of int4 need 2");
}

TEST(TensorDecode, FloatData) {
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_FLOAT, {3});
  for (float value : {1.0f, -0.5f, 3.25f}) proto.add_float_data(value);
  EXPECT_EQ(valuesOf<float>(decodeOk(proto)), (std::vector<float>{1.0f, -0.5f, 3.25f}));
}

TEST(TensorDecode, Int32DataForEveryNarrowType) {
  struct Case {
    onnx::TensorProto_DataType type;
    std::vector<int32_t> stored;
    std::vector<uint8_t> bytes;
  };
  const std::vector<Case> cases = {
      {onnx::TensorProto_DataType_INT32, {-1, 70000}, littleEndian({0xFFFFFFFFu, 70000}, 4)},
      {onnx::TensorProto_DataType_INT16, {-2, 300}, littleEndian({0xFFFEu, 300}, 2)},
      {onnx::TensorProto_DataType_UINT16, {65535, 7}, littleEndian({65535, 7}, 2)},
      {onnx::TensorProto_DataType_INT8, {-128, 127}, {0x80, 0x7F}},
      {onnx::TensorProto_DataType_UINT8, {255, 0}, {0xFF, 0x00}},
      {onnx::TensorProto_DataType_BOOL, {1, 0}, {1, 0}},
      // float16 1.0 = 0x3C00 and -2.0 = 0xC000, stored as their unsigned bit patterns.
      {onnx::TensorProto_DataType_FLOAT16, {0x3C00, 0xC000}, littleEndian({0x3C00, 0xC000}, 2)},
      // bfloat16 1.0 = 0x3F80 and -inf = 0xFF80.
      {onnx::TensorProto_DataType_BFLOAT16, {0x3F80, 0xFF80}, littleEndian({0x3F80, 0xFF80}, 2)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(onnx::TensorProto_DataType_Name(c.type));
    onnx::TensorProto proto = makeTensor(c.type, {2});
    for (int32_t value : c.stored) proto.add_int32_data(value);
    HostTensor tensor = decodeOk(proto);
    EXPECT_EQ(tensor.bytes, c.bytes);
    EXPECT_EQ(onnxTypeCode(tensor.dtype), c.type);
  }
}

TEST(TensorDecode, Int32DataOutOfRangeIsRejected) {
  onnx::TensorProto int8 = makeTensor(onnx::TensorProto_DataType_INT8, {2});
  int8.add_int32_data(1);
  int8.add_int32_data(200);
  expectRejected(int8, StatusCode::kInvalidArgument, "int32_data[1] = 200 is out of range for int8");
  onnx::TensorProto half = makeTensor(onnx::TensorProto_DataType_FLOAT16, {1});
  half.add_int32_data(-1);
  expectRejected(half, StatusCode::kInvalidArgument, "out of range for float16");
  onnx::TensorProto flag = makeTensor(onnx::TensorProto_DataType_BOOL, {1});
  flag.add_int32_data(2);
  expectRejected(flag, StatusCode::kInvalidArgument, "out of range for bool");
}

TEST(TensorDecode, Int64AndUInt64AndDoubleData) {
  onnx::TensorProto int64 = makeTensor(onnx::TensorProto_DataType_INT64, {2});
  int64.add_int64_data(INT64_MIN);
  int64.add_int64_data(42);
  EXPECT_EQ(valuesOf<int64_t>(decodeOk(int64)), (std::vector<int64_t>{INT64_MIN, 42}));

  onnx::TensorProto uint64 = makeTensor(onnx::TensorProto_DataType_UINT64, {2});
  uint64.add_uint64_data(UINT64_MAX);
  uint64.add_uint64_data(5);
  EXPECT_EQ(valuesOf<uint64_t>(decodeOk(uint64)), (std::vector<uint64_t>{UINT64_MAX, 5}));

  onnx::TensorProto uint32 = makeTensor(onnx::TensorProto_DataType_UINT32, {2});
  uint32.add_uint64_data(UINT32_MAX);
  uint32.add_uint64_data(9);
  EXPECT_EQ(valuesOf<uint32_t>(decodeOk(uint32)), (std::vector<uint32_t>{UINT32_MAX, 9}));
  uint32.set_uint64_data(1, uint64_t{1} << 32);
  expectRejected(uint32, StatusCode::kInvalidArgument, "out of range for uint32");

  onnx::TensorProto float64 = makeTensor(onnx::TensorProto_DataType_DOUBLE, {1, 2});
  float64.add_double_data(0.1);
  float64.add_double_data(-1e300);
  EXPECT_EQ(valuesOf<double>(decodeOk(float64)), (std::vector<double>{0.1, -1e300}));
}

TEST(TensorDecode, StringData) {
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_STRING, {3});
  for (const char* value : {"alpha", "", "gamma\xff"}) proto.add_string_data(value);
  HostTensor tensor = decodeOk(proto);
  EXPECT_EQ(tensor.dtype, DataType::kString);
  EXPECT_TRUE(tensor.bytes.empty());
  EXPECT_EQ(tensor.strings, (std::vector<std::string>{"alpha", "", "gamma\xff"}));
  EXPECT_FALSE(tensorValues<uint32_t>(tensor).has_value());
}

TEST(TensorDecode, ComplexPairs) {
  onnx::TensorProto c64 = makeTensor(onnx::TensorProto_DataType_COMPLEX64, {2});
  for (float value : {1.0f, 2.0f, -3.0f, 4.5f}) c64.add_float_data(value);
  HostTensor tensor64 = decodeOk(c64);
  EXPECT_EQ(tensor64.bytes.size(), 16u);
  std::vector<float> parts(4);
  std::memcpy(parts.data(), tensor64.bytes.data(), 16);
  EXPECT_EQ(parts, (std::vector<float>{1.0f, 2.0f, -3.0f, 4.5f}));

  onnx::TensorProto c128 = makeTensor(onnx::TensorProto_DataType_COMPLEX128, {1});
  c128.add_double_data(0.5);
  c128.add_double_data(-0.25);
  HostTensor tensor128 = decodeOk(c128);
  ASSERT_EQ(tensor128.bytes.size(), 16u);
  double halves[2];
  std::memcpy(halves, tensor128.bytes.data(), 16);
  EXPECT_EQ(halves[0], 0.5);
  EXPECT_EQ(halves[1], -0.25);

  c64.add_float_data(7.0f);  // five floats cannot be 2 complex64 elements
  expectRejected(c64, StatusCode::kInvalidArgument, "float_data has 5 values but dims [2] of complex64 need 4");
}

TEST(TensorDecode, ScalarAndEmptyTensors) {
  onnx::TensorProto scalar = makeTensor(onnx::TensorProto_DataType_INT64, {});
  scalar.add_int64_data(-7);
  HostTensor tensor = decodeOk(scalar);
  EXPECT_TRUE(tensor.dims.empty());
  EXPECT_EQ(tensor.elementCount(), 1);
  EXPECT_EQ(valuesOf<int64_t>(tensor), (std::vector<int64_t>{-7}));

  onnx::TensorProto empty = makeTensor(onnx::TensorProto_DataType_FLOAT, {3, 0});
  HostTensor none = decodeOk(empty);
  EXPECT_EQ(none.elementCount(), 0);
  EXPECT_TRUE(none.bytes.empty());
  empty.set_raw_data("");
  EXPECT_TRUE(decodeOk(empty).bytes.empty());
}

TEST(TensorDecode, MismatchedCountsAreRejected) {
  onnx::TensorProto raw = makeTensor(onnx::TensorProto_DataType_FLOAT, {2, 3});
  raw.set_raw_data(std::string(20, '\0'));
  expectRejected(raw, StatusCode::kInvalidArgument, "raw_data has 20 bytes but dims [2, 3] of float need 24");

  onnx::TensorProto typed = makeTensor(onnx::TensorProto_DataType_INT64, {4});
  typed.add_int64_data(1);
  expectRejected(typed, StatusCode::kInvalidArgument, "int64_data has 1 values but dims [4] of int64 need 4");

  onnx::TensorProto strings = makeTensor(onnx::TensorProto_DataType_STRING, {1});
  strings.add_string_data("a");
  strings.add_string_data("b");
  expectRejected(strings, StatusCode::kInvalidArgument, "string_data has 2 values");

  onnx::TensorProto nothing = makeTensor(onnx::TensorProto_DataType_UINT8, {5});
  expectRejected(nothing, StatusCode::kInvalidArgument, "has no data but dims [5] of uint8 need 5 elements");
}

TEST(TensorDecode, MalformedStorageIsRejected) {
  onnx::TensorProto wrong_field = makeTensor(onnx::TensorProto_DataType_INT64, {1});
  wrong_field.add_float_data(1.0f);
  expectRejected(wrong_field, StatusCode::kInvalidArgument, "float_data cannot hold int64 elements");

  onnx::TensorProto both = makeTensor(onnx::TensorProto_DataType_FLOAT, {1});
  both.set_raw_data(std::string(4, '\0'));
  both.add_float_data(1.0f);
  expectRejected(both, StatusCode::kInvalidArgument, "has both raw_data and float_data");

  onnx::TensorProto raw_strings = makeTensor(onnx::TensorProto_DataType_STRING, {1});
  raw_strings.set_raw_data("abcd");
  expectRejected(raw_strings, StatusCode::kInvalidArgument, "string tensors cannot use raw_data");

  onnx::TensorProto negative = makeTensor(onnx::TensorProto_DataType_FLOAT, {2, -3});
  expectRejected(negative, StatusCode::kInvalidArgument, "negative dimension -3 at axis 1");

  onnx::TensorProto huge = makeTensor(onnx::TensorProto_DataType_FLOAT, {1LL << 40, 1LL << 40});
  huge.set_raw_data("abcd");
  expectRejected(huge, StatusCode::kInvalidArgument, "are too large");

  onnx::TensorProto untyped = makeTensor(onnx::TensorProto_DataType_UNDEFINED, {1});
  expectRejected(untyped, StatusCode::kInvalidArgument, "data_type is not set");

  onnx::TensorProto unknown_type = makeTensor(onnx::TensorProto_DataType_FLOAT, {1});
  unknown_type.set_data_type(25);  // past FLOAT8E8M0 (24), the last code vkindex knows
  expectRejected(unknown_type, StatusCode::kUnsupported, "data_type code 25 is not supported");

  onnx::TensorProto external = makeTensor(onnx::TensorProto_DataType_FLOAT, {1});
  external.set_data_location(onnx::TensorProto_DataLocation_EXTERNAL);
  onnx::StringStringEntryProto* location = external.add_external_data();
  location->set_key("location");
  location->set_value("weights.bin");
  expectRejected(external, StatusCode::kUnsupported, "external");
}

TEST(TensorDecode, NamesFromTheFileCannotBreakTheMessageLine) {
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_FLOAT, {2});
  proto.set_name(std::string("bad\nname\x01") + std::string(300, 'z'));
  StatusOr<HostTensor> tensor = decodeTensorProto(proto, kOrigin);
  ASSERT_FALSE(tensor.ok());
  const std::string& message = tensor.status().message();
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find("tensor 'bad\\nname\\x01zzz"), std::string::npos) << message;
  EXPECT_NE(message.find("\xE2\x80\xA6(309 bytes)': has no data"), std::string::npos) << message;
  EXPECT_LT(message.size(), 320u) << message;
}

// A zero dim empties the tensor wherever it sits, whatever the other dims hold: [0, INT64_MAX] has no
// element (as ONNX Runtime reads it), and nothing multiplies the dims before the zero is seen, so no
// order of the same dims overflows on the way. Without a zero, the limit holds: huge dims are refused.
TEST(TensorDecode, AZeroDimEmptiesTheTensorWhateverTheOtherDims) {
  for (const std::vector<int64_t>& dims : std::vector<std::vector<int64_t>>{{0, INT64_MAX},
                                                                            {INT64_MAX, 0},
                                                                            {INT64_MAX, 2, 0},
                                                                            {5, 0, 1LL << 62},
                                                                            {0, 1LL << 40, 1LL << 40},
                                                                            {INT64_MAX, INT64_MAX, 0, INT64_MAX},
                                                                            {5, 0, 7},
                                                                            {0, 0}}) {
    SCOPED_TRACE(formatDims(dims));
    for (const bool raw : {false, true}) {
      onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_FLOAT, dims);
      if (raw) proto.set_raw_data("");  // present and empty: 0 elements need 0 bytes
      const HostTensor empty = decodeOk(proto);
      EXPECT_EQ(empty.dims, dims);
      EXPECT_EQ(empty.elementCount(), 0);
      EXPECT_TRUE(empty.bytes.empty());
    }
  }
  onnx::TensorProto filled = makeTensor(onnx::TensorProto_DataType_FLOAT, {0, INT64_MAX});
  filled.set_raw_data("abcd");
  expectRejected(filled, StatusCode::kInvalidArgument,
                 "raw_data has 4 bytes but dims [0, " + std::to_string(INT64_MAX) + "] of float need 0");
  for (const std::vector<int64_t>& dims :
       std::vector<std::vector<int64_t>>{{1LL << 62, 1}, {1LL << 40, 1LL << 40}, {INT64_MAX}, {1LL << 58, 2}}) {
    SCOPED_TRACE(formatDims(dims));
    expectRejected(makeTensor(onnx::TensorProto_DataType_FLOAT, dims), StatusCode::kInvalidArgument,
                   "dims " + formatDims(dims) + " are too large: they multiply past 576460752303423487 elements");
  }
  expectRejected(makeTensor(onnx::TensorProto_DataType_FLOAT, {0, -1}), StatusCode::kInvalidArgument,
                 "negative dimension -1 at axis 1 in dims [0, -1]");
}

// raw_data of a bool tensor holds ONNX's bools, bytes 0 and 1: any other byte is refused, naming the
// first one (the typed field's values are checked the same way, Int32DataOutOfRangeIsRejected).
TEST(TensorDecode, RawBoolBytesOtherThanZeroAndOneAreRejected) {
  onnx::TensorProto good = makeTensor(onnx::TensorProto_DataType_BOOL, {4});
  good.set_raw_data(std::string("\x01\x00\x00\x01", 4));
  EXPECT_EQ(decodeOk(good).bytes, (std::vector<uint8_t>{1, 0, 0, 1}));
  for (const auto& [raw, message] : std::vector<std::pair<std::string, std::string>>{
           {std::string("\x01\x00\x02\x01", 4), "raw_data[2] = 2 is not a bool (allowed 0 and 1)"},
           {std::string("\xff\x00\x02\x01", 4), "raw_data[0] = 255 is not a bool (allowed 0 and 1)"},
           {std::string("\x00\x00\x00\x80", 4), "raw_data[3] = 128 is not a bool (allowed 0 and 1)"}}) {
    onnx::TensorProto bad = makeTensor(onnx::TensorProto_DataType_BOOL, {2, 2});
    bad.set_raw_data(raw);
    expectRejected(bad, StatusCode::kInvalidArgument, message);
  }
  // uint8 takes every byte: the check is bool's alone.
  onnx::TensorProto bytes = makeTensor(onnx::TensorProto_DataType_UINT8, {2});
  bytes.set_raw_data(std::string("\x02\xff", 2));
  EXPECT_EQ(decodeOk(bytes).bytes, (std::vector<uint8_t>{2, 255}));
}

TEST(TensorDecode, FileRoundTripNamesTheFile) {
  TempDir dir;
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_INT16, {2});
  proto.add_int32_data(-5);
  proto.add_int32_data(6);
  writeProto(dir.file("good.pb"), proto);
  StatusOr<HostTensor> good = readTensorFile(dir.file("good.pb"));
  ASSERT_TRUE(good.ok()) << good.status().toString();
  EXPECT_EQ(valuesOf<int16_t>(*good), (std::vector<int16_t>{-5, 6}));

  proto.add_int32_data(7);
  writeProto(dir.file("bad.pb"), proto);
  StatusOr<HostTensor> bad = readTensorFile(dir.file("bad.pb"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            dir.file("bad.pb") + ": tensor 'x': int32_data has 3 values but dims [2] of int16 need 2");
}

}  // namespace
}  // namespace vkindex::onnxio::test
