// Exact conversions between float16 / bfloat16 bit patterns and float32, written from the IEEE 754
// encodings (no host half-float type, no FPU conversion instructions: the CPU reference must not depend
// on what the host happens to offer). Widening is exact for every pattern; narrowing rounds to nearest
// even, keeps subnormals, overflows to +-inf, and maps NaNs by the agreed rule (a quiet NaN that keeps
// the sign and the top payload bits).
#pragma once

#include <cstdint>

namespace vkindex::test {

// The float32 value of a float16 pattern, exactly (NaN payloads shifted into place, sNaNs stay sNaNs).
float halfToFloat(uint16_t bits);

// float32 -> float16, rounded to nearest even; subnormal results kept, |x| >= 65520 -> +-inf;
// a NaN becomes sign | 0x7E00 | (mantissa >> 13).
uint16_t floatToHalf(float value);

// The float32 value of a bfloat16 pattern (its top 16 bits), exactly.
float bfloat16ToFloat(uint16_t bits);

// float32 -> bfloat16, rounded to nearest even; subnormals kept, overflow to +-inf; a NaN becomes
// (bits >> 16) | 0x0040.
uint16_t floatToBFloat16(float value);

}  // namespace vkindex::test
