// GatherBlockQuantized's CPU reference (com.microsoft), written from ONNX Runtime's CPU kernel
// (contrib_ops/cpu/quantization/gather_block_quantized.cc): element by element over the output, each
// code read from its flat position in the logical data, its scale found from its coordinates, and the
// arithmetic done bit-exactly in software (shaders/common/soft_float.glsl compiled as C++,
// kernels/soft_float_host.hpp), so the result does not depend on the host's floating-point mode.
// Shares nothing with the planner or the kernel's row decomposition.
#pragma once

#include <cstdint>

#include "support/reference_ops.hpp"
#include "vkindex/gather_block_quantized.hpp"

namespace vkindex::test {

// The float32 bit pattern of a float8 (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz) or float4e2m1 code held in the
// low bits of `code`, decoded exactly (subnormals too); a NaN code gives sign | 0x7FC00000.
uint32_t decodeFloatCode(DataType type, uint32_t code);

// Whether `code` is a NaN of the float8 type `type` (float4e2m1 has none).
bool isNaNCode(DataType type, uint32_t code);

// The logical data shape: data's, except uint8 data whose last dim holds 8 / bits codes per byte.
Shape codeShape(const HostTensor& data, int64_t bits);

// Output = data.shape[:g] + indices.shape + data.shape[g+1:] in codes, of the scales' type:
// (code - zero_point) * scale for integer data, value(code) * scale for float data, one float32
// multiply rounded to nearest even (subnormals kept), then rounded to nearest even to the scales' type.
// An index in [-A, A-1] (A = the codes along gather_axis) addresses a row; under kSkip any other gives
// a +0.0 slice, under kError the first such one (row-major) is bad_index_position (the output then has
// no bytes). Preconditions: the call passes the operator's host checks (types, attributes, shapes).
// `zero_points` may be null (absent).
ReferenceResult referenceGatherBlockQuantized(const HostTensor& data, const HostTensor& indices,
                                              const HostTensor& scales, const HostTensor* zero_points,
                                              const GatherBlockQuantizedOptions& options);

}  // namespace vkindex::test
