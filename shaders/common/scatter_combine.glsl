// The scatter reductions on element bits: combine(current, update) for every element kind, exactly
// as /README.md's reductions table states and tests/support/reduction_reference.cpp computes.
// Everything is integer arithmetic on 32-bit words (floats through common/soft_float.glsl), so it
// needs no shaderInt64, no shaderFloat64, no 8/16-bit types and no float controls, and a driver that
// flushes denormals still gets every bit right.
//
// VKINDEX_SCATTER_FLOATS picks the kernel variant (CMakeLists.txt): 0 integers only, 1 adds float32
// arithmetic (float, float16, bfloat16, complex64), 2 adds float64 (double, complex128). The soft
// float is compiled only into the variants that need it: SwiftShader compiles a pipeline that
// contains it about 10x slower, even where a specialization constant makes it unreachable.
#ifndef VKINDEX_SCATTER_COMBINE_GLSL
#define VKINDEX_SCATTER_COMBINE_GLSL

#ifndef VKINDEX_SCATTER_FLOATS
#define VKINDEX_SCATTER_FLOATS 0
#endif
#include "half_widening.glsl"
#if VKINDEX_SCATTER_FLOATS > 0
#include "soft_float.glsl"
#endif

// REDUCTION: 0 none (the update replaces), 1 add, 2 mul, 3 max, 4 min. ELEMENT_KIND: the arithmetic,
// src/plan/scatter_plan.cpp's ElementKind (0 without a reduction).
layout(constant_id = 3) const uint REDUCTION = 0;
layout(constant_id = 4) const uint ELEMENT_KIND = 0;

const uint kReduceNone = 0u, kReduceAdd = 1u, kReduceMul = 2u, kReduceMax = 3u, kReduceMin = 4u;
const uint kKindInt32 = 1u, kKindUInt32 = 2u, kKindFloat32 = 3u, kKindInt64 = 4u, kKindUInt64 = 5u;
const uint kKindInt8 = 6u, kKindUInt8 = 7u, kKindInt16 = 8u, kKindUInt16 = 9u, kKindFloat16 = 10u;
const uint kKindBFloat16 = 11u, kKindFloat64 = 12u, kKindComplex64 = 13u, kKindComplex128 = 14u;

// --- Ordering: a > b, exact for every bit pattern ------------------------------------------------
// Floats compare as sign-magnitude integers. NaNs compare false; +0 and -0 are equal.

bool float32Greater(uint a, uint b) {
  if ((a & 0x7FFFFFFFu) > 0x7F800000u || (b & 0x7FFFFFFFu) > 0x7F800000u) return false;
  if (((a | b) & 0x7FFFFFFFu) == 0u) return false;
  uint key_a = (a >> 31) != 0u ? ~a : (a | 0x80000000u);
  uint key_b = (b >> 31) != 0u ? ~b : (b | 0x80000000u);
  return key_a > key_b;
}

// (low, high) words; signed compares the high words as int.
bool greater64(uvec2 a, uvec2 b, bool is_signed) {
  if (a.y != b.y) return is_signed ? int(a.y) > int(b.y) : a.y > b.y;
  return a.x > b.x;
}

bool isNaN64(uvec2 a) {
  uint high = a.y & 0x7FFFFFFFu;
  return high > 0x7FF00000u || (high == 0x7FF00000u && a.x != 0u);
}

bool float64Greater(uvec2 a, uvec2 b) {
  if (isNaN64(a) || isNaN64(b)) return false;
  if (((a.y | b.y) & 0x7FFFFFFFu) == 0u && (a.x | b.x) == 0u) return false;
  uvec2 key_a = (a.y >> 31) != 0u ? ~a : uvec2(a.x, a.y | 0x80000000u);
  uvec2 key_b = (b.y >> 31) != 0u ? ~b : uvec2(b.x, b.y | 0x80000000u);
  return greater64(key_a, key_b, false);
}

// --- Elements narrower than a word: 8 or 16 bits, zero-extended --------------------------------

uint smallBits() { return ELEMENT_KIND == kKindInt8 || ELEMENT_KIND == kKindUInt8 ? 8u : 16u; }

uint toFloat32(uint small) { return ELEMENT_KIND == kKindFloat16 ? f16ToF32(small) : bf16ToF32(small); }

bool smallGreater(uint a, uint b) {
  if (ELEMENT_KIND == kKindFloat16 || ELEMENT_KIND == kKindBFloat16) {
    return float32Greater(toFloat32(a), toFloat32(b));  // the widening is exact
  }
  if (ELEMENT_KIND == kKindInt8 || ELEMENT_KIND == kKindInt16) {
    return bitfieldExtract(int(a), 0, int(smallBits())) > bitfieldExtract(int(b), 0, int(smallBits()));
  }
  return a > b;
}

uint combineSmall(uint current, uint update) {
  if (REDUCTION == kReduceMax) return smallGreater(update, current) ? update : current;
  if (REDUCTION == kReduceMin) return smallGreater(current, update) ? update : current;
#if VKINDEX_SCATTER_FLOATS > 0
  if (ELEMENT_KIND == kKindFloat16 || ELEMENT_KIND == kKindBFloat16) {
    // One float32 operation, rounded once to the type: correctly rounded (24 >= 2p + 2 bits).
    uint a = toFloat32(current), b = toFloat32(update);
    uint result = REDUCTION == kReduceAdd ? f32Add(a, b) : f32Mul(a, b);
    return ELEMENT_KIND == kKindFloat16 ? f32ToF16(result) : f32ToBf16(result);
  }
#endif
  uint mask = (1u << smallBits()) - 1u;  // integers wrap at their width
  return (REDUCTION == kReduceAdd ? current + update : current * update) & mask;
}

// --- One-word elements: int32, uint32, float32 ---------------------------------------------------

bool greater32(uint a, uint b) {
  if (ELEMENT_KIND == kKindFloat32) return float32Greater(a, b);
  if (ELEMENT_KIND == kKindInt32) return int(a) > int(b);
  return a > b;
}

uint combine32(uint current, uint update) {
  if (REDUCTION == kReduceMax) return greater32(update, current) ? update : current;
  if (REDUCTION == kReduceMin) return greater32(current, update) ? update : current;
#if VKINDEX_SCATTER_FLOATS > 0
  if (ELEMENT_KIND == kKindFloat32) return REDUCTION == kReduceAdd ? f32Add(current, update) : f32Mul(current, update);
#endif
  return REDUCTION == kReduceAdd ? current + update : current * update;  // wraps, signed or not
}

// --- Two-word elements: int64, uint64, double, complex64 ------------------------------------------

uvec2 wrappingAdd64(uvec2 a, uvec2 b) {
  uint carry;
  uint low = uaddCarry(a.x, b.x, carry);
  return uvec2(low, a.y + b.y + carry);
}

uvec2 wrappingMul64(uvec2 a, uvec2 b) {  // the low 64 bits of the product, signed or not
  uint high, low;
  umulExtended(a.x, b.x, high, low);
  return uvec2(low, high + a.x * b.y + a.y * b.x);
}

#if VKINDEX_SCATTER_FLOATS > 0
// (a + bi)(c + di) = (ac - bd) + (ad + bc)i, every operation rounded on its own (no fused form).
uvec2 complex64Mul(uvec2 current, uvec2 update) {
  uint real = f32Sub(f32Mul(current.x, update.x), f32Mul(current.y, update.y));
  uint imaginary = f32Add(f32Mul(current.x, update.y), f32Mul(current.y, update.x));
  return uvec2(real, imaginary);
}
#endif

bool greater2(uvec2 a, uvec2 b) {
  return ELEMENT_KIND == kKindFloat64 ? float64Greater(a, b) : greater64(a, b, ELEMENT_KIND == kKindInt64);
}

uvec2 combine2(uvec2 current, uvec2 update) {
  if (REDUCTION == kReduceMax) return greater2(update, current) ? update : current;  // never complex
  if (REDUCTION == kReduceMin) return greater2(current, update) ? update : current;
  const bool add = REDUCTION == kReduceAdd;
#if VKINDEX_SCATTER_FLOATS > 1
  if (ELEMENT_KIND == kKindFloat64) return add ? f64Add(current, update) : f64Mul(current, update);
#endif
#if VKINDEX_SCATTER_FLOATS > 0
  if (ELEMENT_KIND == kKindComplex64) {
    return add ? uvec2(f32Add(current.x, update.x), f32Add(current.y, update.y)) : complex64Mul(current, update);
  }
#endif
  return add ? wrappingAdd64(current, update) : wrappingMul64(current, update);
}

// --- Four-word elements: complex128 (add and mul only) -------------------------------------------

uvec4 combine4(uvec4 current, uvec4 update) {
#if VKINDEX_SCATTER_FLOATS > 1
  uvec2 a = current.xy, b = current.zw, c = update.xy, d = update.zw;
  if (REDUCTION == kReduceAdd) return uvec4(f64Add(a, c), f64Add(b, d));
  return uvec4(f64Sub(f64Mul(a, c), f64Mul(b, d)), f64Add(f64Mul(a, d), f64Mul(b, c)));
#else
  return update;  // not planned: complex128 reductions run the float64 variant
#endif
}

#endif
