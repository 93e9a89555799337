// The ONNX tensor element types and the facts vkindex needs about each: its width for data movement
// and its ONNX TensorProto code.
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
  // The low-precision types of ONNX opsets 19-23. Only TensorScatter takes them, and GatherBlockQuantized
  // as its quantized data (ONNX's other indexing operators do not allow them); data movement never looks
  // at their values either.
  kFloat8E4M3FN,
  kFloat8E4M3FNUZ,
  kFloat8E5M2,
  kFloat8E5M2FNUZ,
  kFloat8E8M0,
  kInt4,        // 4 bits: two elements per byte, the first in the low nibble, packed over the whole tensor
  kUInt4,       // 4 bits, packed as kInt4
  kFloat4E2M1,  // 4 bits, packed as kInt4
};

// The 16 types every operator takes.
inline constexpr DataType kClassicDataTypes[] = {
    DataType::kBool,    DataType::kInt8,      DataType::kUInt8,      DataType::kInt16,
    DataType::kUInt16,  DataType::kInt32,     DataType::kUInt32,     DataType::kInt64,
    DataType::kUInt64,  DataType::kFloat16,   DataType::kBFloat16,   DataType::kFloat32,
    DataType::kFloat64, DataType::kComplex64, DataType::kComplex128, DataType::kString,
};

// The 8 low-precision types (1-byte float8 kinds, packed 4-bit types): TensorScatter's, and
// GatherBlockQuantized's data.
inline constexpr DataType kLowPrecisionDataTypes[] = {
    DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2, DataType::kFloat8E5M2FNUZ,
    DataType::kFloat8E8M0,   DataType::kInt4,           DataType::kUInt4,      DataType::kFloat4E2M1,
};

// Whether `type` is one of the 16 classic types (not a low-precision one).
VKINDEX_API bool isClassicDataType(DataType type);

// Whether `type` is one of the enumerators above (not an unchecked cast of another integer). The
// functions below give 0, "unknown" and 0 for any other value; tensors of it are refused.
VKINDEX_API bool isKnownDataType(DataType type);

// Bytes per element on the device: 1, 2, 4, 8 or 16. Strings report 4, the size of the element id that
// stands for each string on the device; the 4-bit types report 0 (see elementBits).
VKINDEX_API size_t elementSize(DataType type);

// Bits per element on the device: 4 for the packed 4-bit types, 8 x elementSize otherwise.
VKINDEX_API size_t elementBits(DataType type);

// Bytes that `element_count` packed elements of `type` occupy: count x elementSize, or for the 4-bit
// types count / 2 rounded up. Strings: 0 (they have no device bytes).
VKINDEX_API uint64_t packedByteSize(DataType type, uint64_t element_count);

// The ONNX name, e.g. "float16", "complex64", "string".
VKINDEX_API const char* dataTypeName(DataType type);

// ONNX TensorProto.DataType code (FLOAT = 1, ..., BFLOAT16 = 16, FLOAT8E4M3FN = 17, ..., FLOAT8E8M0 = 24)
// and back. Codes vkindex does not know give nullopt.
VKINDEX_API int32_t onnxTypeCode(DataType type);
VKINDEX_API std::optional<DataType> dataTypeFromOnnx(int32_t code);

}  // namespace vkindex
