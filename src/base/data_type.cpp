#include "vkindex/data_type.hpp"

#include <iterator>

namespace vkindex {
namespace {

struct TypeFacts {
  DataType type;
  size_t size;
  const char* name;
  int32_t onnx_code;  // TensorProto.DataType
};

// One row per type; the order matches the DataType enum so lookup is by position.
constexpr TypeFacts kTypeFacts[] = {
    {DataType::kBool, 1, "bool", 9},
    {DataType::kInt8, 1, "int8", 3},
    {DataType::kUInt8, 1, "uint8", 2},
    {DataType::kInt16, 2, "int16", 5},
    {DataType::kUInt16, 2, "uint16", 4},
    {DataType::kInt32, 4, "int32", 6},
    {DataType::kUInt32, 4, "uint32", 12},
    {DataType::kInt64, 8, "int64", 7},
    {DataType::kUInt64, 8, "uint64", 13},
    {DataType::kFloat16, 2, "float16", 10},
    {DataType::kBFloat16, 2, "bfloat16", 16},
    {DataType::kFloat32, 4, "float", 1},
    {DataType::kFloat64, 8, "double", 11},
    {DataType::kComplex64, 8, "complex64", 14},
    {DataType::kComplex128, 16, "complex128", 15},
    {DataType::kString, 4, "string", 8},
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
size_t elementSize(DataType type) { return factsOf(type).size; }
const char* dataTypeName(DataType type) { return factsOf(type).name; }
int32_t onnxTypeCode(DataType type) { return factsOf(type).onnx_code; }

std::optional<DataType> dataTypeFromOnnx(int32_t code) {
  for (const TypeFacts& facts : kTypeFacts) {
    if (facts.onnx_code == code) return facts.type;
  }
  return std::nullopt;
}

}  // namespace vkindex
