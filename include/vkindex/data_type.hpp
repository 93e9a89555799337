// The 16 ONNX tensor element types and the facts vkindex needs about each: its byte width for data
// movement and its ONNX TensorProto code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "vkindex/api.h"

namespace vkindex {

// Every ONNX tensor element type. Data movement never looks at values, only at the byte width.
enum class DataType : uint8_t {
  kBool,
  kInt8,
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kFloat16,
  kBFloat16,
  kFloat32,
  kFloat64,
  kComplex64,
  kComplex128,
  kString,  // kept on the host; kernels move 4-byte element ids, the host materializes the strings
};

inline constexpr DataType kAllDataTypes[] = {
    DataType::kBool,    DataType::kInt8,      DataType::kUInt8,      DataType::kInt16,
    DataType::kUInt16,  DataType::kInt32,     DataType::kUInt32,     DataType::kInt64,
    DataType::kUInt64,  DataType::kFloat16,   DataType::kBFloat16,   DataType::kFloat32,
    DataType::kFloat64, DataType::kComplex64, DataType::kComplex128, DataType::kString,
};

// Whether `type` is one of the enumerators above (not an unchecked cast of another integer). The
// functions below give 0, "unknown" and 0 for any other value; tensors of it are refused.
VKINDEX_API bool isKnownDataType(DataType type);

// Bytes per element on the device: 1, 2, 4, 8 or 16. Strings report 4, the size of the element id that
// stands for each string on the device.
VKINDEX_API size_t elementSize(DataType type);

// The ONNX name, e.g. "float16", "complex64", "string".
VKINDEX_API const char* dataTypeName(DataType type);

// ONNX TensorProto.DataType code (FLOAT = 1, ..., BFLOAT16 = 16) and back. Codes vkindex does not know
// (e.g. the float8 types of opset 19) give nullopt.
VKINDEX_API int32_t onnxTypeCode(DataType type);
VKINDEX_API std::optional<DataType> dataTypeFromOnnx(int32_t code);

}  // namespace vkindex
