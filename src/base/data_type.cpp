#include "vkindex/data_type.hpp"

#include <iterator>

namespace vkindex {
namespace {

struct TypeFacts {
  DataType type;
  size_t bits;
  const char* name;
  int32_t onnx_code;  // TensorProto.DataType
};

// One row per type; the order matches the DataType enum so lookup is by position.
constexpr TypeFacts kTypeFacts[] = {
    {DataType::kBool, 8, "bool", 9},
    {DataType::kInt8, 8, "int8", 3},
    {DataType::kUInt8, 8, "uint8", 2},
    {DataType::kInt16, 16, "int16", 5},
    {DataType::kUInt16, 16, "uint16", 4},
    {DataType::kInt32, 32, "int32", 6},
    {DataType::kUInt32, 32, "uint32", 12},
    {DataType::kInt64, 64, "int64", 7},
    {DataType::kUInt64, 64, "uint64", 13},
    {DataType::kFloat16, 16, "float16", 10},
    {DataType::kBFloat16, 16, "bfloat16", 16},
    {DataType::kFloat32, 32, "float", 1},
    {DataType::kFloat64, 64, "double", 11},
    {DataType::kComplex64, 64, "complex64", 14},
    {DataType::kComplex128, 128, "complex128", 15},
    {DataType::kString, 32, "string", 8},
    {DataType::kFloat8E4M3FN, 8, "float8e4m3fn", 17},
    {DataType::kFloat8E4M3FNUZ, 8, "float8e4m3fnuz", 18},
    {DataType::kFloat8E5M2, 8, "float8e5m2", 19},
    {DataType::kFloat8E5M2FNUZ, 8, "float8e5m2fnuz", 20},
    {DataType::kFloat8E8M0, 8, "float8e8m0", 24},
    {DataType::kInt4, 4, "int4", 22},
    {DataType::kUInt4, 4, "uint4", 21},
    {DataType::kFloat4E2M1, 4, "float4e2m1", 23},
};

// A value outside the enum (a cast from an unchecked integer) gets this row instead of a read past
// the table; Tensor::create and Tensor::view refuse it.
constexpr TypeFacts kUnknownType = {DataType::kString, 0, "unknown", 0};

const TypeFacts& factsOf(DataType type) {
  const size_t position = static_cast<size_t>(type);
  return position < std::size(kTypeFacts) ? kTypeFacts[position] : kUnknownType;
}

}  // namespace

bool isKnownDataType(DataType type) { return static_cast<size_t>(type) < std::size(kTypeFacts); }
bool isClassicDataType(DataType type) { return static_cast<size_t>(type) <= static_cast<size_t>(DataType::kString); }
size_t elementSize(DataType type) { return factsOf(type).bits / 8; }
size_t elementBits(DataType type) { return factsOf(type).bits; }

uint64_t packedByteSize(DataType type, uint64_t element_count) {
  if (type == DataType::kString) return 0;
  const size_t bits = elementBits(type);
  return bits == 4 ? element_count / 2 + element_count % 2 : element_count * (bits / 8);
}
const char* dataTypeName(DataType type) { return factsOf(type).name; }
int32_t onnxTypeCode(DataType type) { return factsOf(type).onnx_code; }

std::optional<DataType> dataTypeFromOnnx(int32_t code) {
  for (const TypeFacts& facts : kTypeFacts) {
    if (facts.onnx_code == code) return facts.type;
  }
  return std::nullopt;
}

}  // namespace vkindex
