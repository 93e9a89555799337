// Exact widening of float16 and bfloat16 bits (in the low 16 bits) to float32 bits: integer code
// only, so kernels without the soft float (common/soft_float.glsl) can compare half floats too.
#ifndef VKINDEX_HALF_WIDENING_GLSL
#define VKINDEX_HALF_WIDENING_GLSL

// Exact. Infinities and NaNs keep their payload bits (a signalling NaN stays signalling: the float32
// operation that follows quiets it).
uint f16ToF32(uint h) {
  uint sign = (h & 0x8000u) << 16u;
  uint exponent = (h >> 10u) & 0x1Fu;
  uint fraction = h & 0x3FFu;
  if (exponent == 0x1Fu) return sign | 0x7F800000u | (fraction << 13u);
  if (exponent != 0u) return sign | ((exponent + 112u) << 23u) | (fraction << 13u);  // rebias 15 -> 127
  if (fraction == 0u) return sign;
  // Subnormal fraction * 2^-24: normal in binary32, with the leading one becoming the hidden bit.
  int msb = findMSB(fraction);
  return sign | (uint(msb + 103) << 23u) | ((fraction << uint(23 - msb)) & 0x7FFFFFu);
}

uint bf16ToF32(uint h) { return (h & 0xFFFFu) << 16u; }

#endif
