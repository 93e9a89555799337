// The scatter reductions on element bits: combine(current, update) for every element kind, exactly
// as /README.md's reductions table states and tests/support/reduction_reference.cpp computes.
// Everything is integer arithmetic on 32-bit words (floats through common/soft_float.glsl), so it
// needs no shaderInt64, no shaderFloat64, no 8/16-bit types and no float controls, and a driver that
// flushes denormals still gets every bit right.
//
// VKINDEX_SCATTER_FLOATS picks the kernel variant (CMakeLists.txt): 0 integers (and every max and
// min), 1 float32 arithmetic (add and mul of float16 and bfloat16, mul of float and complex64), 2
// float64 arithmetic (add and mul of double and complex128); src/plan/scatter_passes.cpp's walkKernel
// plans no other kind into 1 or 2. The soft float is compiled only into the variants that need it,
// and there once: SwiftShader compiles every inlined copy of it, even where a specialization constant
// makes that copy unreachable. So each float variant reaches f32Add and f32Mul (or f64Add and f64Mul)
// through one call site, softCombine below, which applyElement (common/scatter_apply.glsl) calls once
// for every element width. Spelled out per kind and width, complex128 mul alone took four copies of
// f64Mul, and SwiftShader's compile of the float64 fold and walk took seconds (docs/reductions.md).
//
// VKINDEX_SCATTER_SOFT_ADD (the *_half_add and *_float64_add modules): variants 1 and 2 with add
// alone, for float16 and bfloat16 add (1) and float64 and complex128 add (2); docs/reductions.md
// gives the numbers.
//
// VKINDEX_SCATTER_INTEGERS (the *_integers modules): variant 0 without its float compares, for the
// integer reductions of every width but the *_int32 and *_order32 modules' (faster on SwiftShader
// than the plain module, the same on lavapipe: docs/reductions.md). The plain module keeps float16,
// bfloat16 and float64 max and min.
#ifndef VKINDEX_SCATTER_COMBINE_GLSL
#define VKINDEX_SCATTER_COMBINE_GLSL

#ifndef VKINDEX_SCATTER_FLOATS
#define VKINDEX_SCATTER_FLOATS 0
#endif
#ifndef VKINDEX_SCATTER_INTEGERS
#define VKINDEX_SCATTER_INTEGERS 0
#endif
#ifndef VKINDEX_SCATTER_SOFT_ADD
#define VKINDEX_SCATTER_SOFT_ADD 0
#endif
#include "common/spec_ids.h"
#include "half_widening.glsl"
#if VKINDEX_SCATTER_FLOATS > 0
#include "soft_float.glsl"
#endif

// REDUCTION: VKINDEX_REDUCE_* (none: the update replaces). ELEMENT_KIND: the arithmetic,
// VKINDEX_KIND_* (VKINDEX_KIND_MOVE without a reduction). Both in common/spec_ids.h, shared with C++.
layout(constant_id = VKINDEX_SPEC_REDUCTION) const uint REDUCTION = 0;
layout(constant_id = VKINDEX_SPEC_ELEMENT_KIND) const uint ELEMENT_KIND = 0;

const uint kReduceNone = VKINDEX_REDUCE_NONE, kReduceAdd = VKINDEX_REDUCE_ADD, kReduceMul = VKINDEX_REDUCE_MUL;
const uint kReduceMax = VKINDEX_REDUCE_MAX, kReduceMin = VKINDEX_REDUCE_MIN;
const uint kKindInt32 = VKINDEX_KIND_INT32, kKindUInt32 = VKINDEX_KIND_UINT32, kKindFloat32 = VKINDEX_KIND_FLOAT32;
const uint kKindInt64 = VKINDEX_KIND_INT64, kKindUInt64 = VKINDEX_KIND_UINT64, kKindInt8 = VKINDEX_KIND_INT8;
const uint kKindUInt8 = VKINDEX_KIND_UINT8, kKindInt16 = VKINDEX_KIND_INT16, kKindUInt16 = VKINDEX_KIND_UINT16;
const uint kKindFloat16 = VKINDEX_KIND_FLOAT16, kKindBFloat16 = VKINDEX_KIND_BFLOAT16;
const uint kKindFloat64 = VKINDEX_KIND_FLOAT64, kKindComplex64 = VKINDEX_KIND_COMPLEX64;
const uint kKindComplex128 = VKINDEX_KIND_COMPLEX128;

// --- Float add and mul, real or complex ----------------------------------------------------------
// softCombine(current, update, parts): REDUCTION add or mul of a real (parts 1) or complex (parts 2,
// real then imaginary) value in soft float, every operation rounded on its own, as the README's
// reductions table has it: (a + bi)(c + di) = (ac - bd) + (ad + bc)i, no fused form. The products and
// the sums each run in a loop around one call, so that the variant holds one copy of each operation.
#if VKINDEX_SCATTER_FLOATS == 1
// float32 parts: part i is word i.
uvec4 softCombine(uvec4 current, uvec4 update, uint parts) {
  uvec4 left = current, right = update;
#if !VKINDEX_SCATTER_SOFT_ADD
  if (REDUCTION == kReduceMul) {
    // ac, bd, ad, bc: part i & 1 of current times part (i & 1) ^ (i >> 1) of update (ac alone for reals).
    uint products[4];
    for (uint i = 0u; i < parts * parts; ++i) products[i] = f32Mul(current[i & 1u], update[(i & 1u) ^ (i >> 1u)]);
    if (parts == 1u) return uvec4(products[0], 0u, 0u, 0u);
    // Then ac - bd (f32Sub's way) and ad + bc.
    left = uvec4(products[0], products[2], 0u, 0u);
    right = uvec4(f32Negated(products[1]), products[3], 0u, 0u);
  }
#endif
  uvec4 sums = uvec4(0u);
  for (uint i = 0u; i < parts; ++i) sums[i] = f32Add(left[i], right[i]);
  return sums;
}
#elif VKINDEX_SCATTER_FLOATS == 2
// float64 parts: part i is words 2i (low) and 2i + 1 (high).
uvec2 f64Part(uvec4 value, uint i) { return i == 0u ? value.xy : value.zw; }

uvec4 softCombine(uvec4 current, uvec4 update, uint parts) {
  uvec2 left[2] = uvec2[2](current.xy, current.zw), right[2] = uvec2[2](update.xy, update.zw);
#if !VKINDEX_SCATTER_SOFT_ADD
  if (REDUCTION == kReduceMul) {
    uvec2 products[4];  // as for float32
    for (uint i = 0u; i < parts * parts; ++i) {
      products[i] = f64Mul(f64Part(current, i & 1u), f64Part(update, (i & 1u) ^ (i >> 1u)));
    }
    if (parts == 1u) return uvec4(products[0], 0u, 0u);
    left = uvec2[2](products[0], products[2]);
    right = uvec2[2](f64Negated(products[1]), products[3]);
  }
#endif
  uvec2 sums[2] = uvec2[2](uvec2(0u), uvec2(0u));
  for (uint i = 0u; i < parts; ++i) sums[i] = f64Add(left[i], right[i]);
  return uvec4(sums[0], sums[1]);
}
#endif

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
#if !VKINDEX_SCATTER_INTEGERS
  if (ELEMENT_KIND == kKindFloat16 || ELEMENT_KIND == kKindBFloat16) {
    return float32Greater(toFloat32(a), toFloat32(b));  // the widening is exact
  }
#endif
  if (ELEMENT_KIND == kKindInt8 || ELEMENT_KIND == kKindInt16) {
    return bitfieldExtract(int(a), 0, int(smallBits())) > bitfieldExtract(int(b), 0, int(smallBits()));
  }
  return a > b;
}

uint combineSmall(uint current, uint update) {
#if !VKINDEX_SCATTER_SOFT_ADD
  if (REDUCTION == kReduceMax) return smallGreater(update, current) ? update : current;
  if (REDUCTION == kReduceMin) return smallGreater(current, update) ? update : current;
#endif
#if VKINDEX_SCATTER_FLOATS == 1
  if (ELEMENT_KIND == kKindFloat16 || ELEMENT_KIND == kKindBFloat16) {
    // One float32 operation, rounded once to the type: correctly rounded (24 >= 2p + 2 bits).
    uint result = softCombine(uvec4(toFloat32(current), 0u, 0u, 0u), uvec4(toFloat32(update), 0u, 0u, 0u), 1u).x;
    return ELEMENT_KIND == kKindFloat16 ? f32ToF16(result) : f32ToBf16(result);
  }
#endif
  uint mask = (1u << smallBits()) - 1u;  // integers wrap at their width
  return (REDUCTION == kReduceAdd ? current + update : current * update) & mask;
}

// --- One-word elements: int32, uint32, float32 ---------------------------------------------------

bool greater32(uint a, uint b) {
#if !VKINDEX_SCATTER_INTEGERS
  if (ELEMENT_KIND == kKindFloat32) return float32Greater(a, b);
#endif
  if (ELEMENT_KIND == kKindInt32) return int(a) > int(b);
  return a > b;
}

uint combine32(uint current, uint update) {
  if (REDUCTION == kReduceMax) return greater32(update, current) ? update : current;
  if (REDUCTION == kReduceMin) return greater32(current, update) ? update : current;
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

bool greater2(uvec2 a, uvec2 b) {
#if !VKINDEX_SCATTER_INTEGERS
  if (ELEMENT_KIND == kKindFloat64) return float64Greater(a, b);
#endif
  return greater64(a, b, ELEMENT_KIND == kKindInt64);
}

uvec2 combine2(uvec2 current, uvec2 update) {
  if (REDUCTION == kReduceMax) return greater2(update, current) ? update : current;  // never complex
  if (REDUCTION == kReduceMin) return greater2(current, update) ? update : current;
  return REDUCTION == kReduceAdd ? wrappingAdd64(current, update) : wrappingMul64(current, update);
}

// --- Elements of whole words: the one call site for every width ----------------------------------

// Combines elements of `words` = 1, 2 or 4 words, held in the low words of `current` and `update`.
uvec4 combineWords(uvec4 current, uvec4 update, uint words) {
#if VKINDEX_SCATTER_FLOATS == 1
  return softCombine(current, update, words);  // float (1 part), complex64 (2)
#elif VKINDEX_SCATTER_FLOATS == 2
  return softCombine(current, update, words / 2u);  // double (1 part), complex128 (2)
#else
  if (words == 1u) return uvec4(combine32(current.x, update.x), 0u, 0u, 0u);
  if (words == 2u) return uvec4(combine2(current.xy, update.xy), 0u, 0u);
  return update;  // not planned: complex128 reductions run the float64 variant
#endif
}

#endif
