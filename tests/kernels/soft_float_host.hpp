// shaders/common/soft_float.glsl compiled as C++ (soft_float_host.cpp), so host tests check the very
// source the kernels include. These declarations mirror the GLSL signatures: a mismatch fails to link.
#pragma once

#include "support/glsl_host_shim.hpp"

namespace vkindex::glsl {

uint f32Add(uint a, uint b);
uint f32Sub(uint a, uint b);
uint f32Mul(uint a, uint b);
uint f32AddGivenSum(uint a, uint b, uint sum);
// binary64 as uvec2(low word, high word).
uvec2 f64Add(uvec2 a, uvec2 b);
uvec2 f64Sub(uvec2 a, uvec2 b);
uvec2 f64Mul(uvec2 a, uvec2 b);
// binary16 and bfloat16 in the low 16 bits.
uint f16ToF32(uint h);
uint f32ToF16(uint f);
uint bf16ToF32(uint h);
uint f32ToBf16(uint f);

}  // namespace vkindex::glsl
