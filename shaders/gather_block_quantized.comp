#version 450
#extension GL_GOOGLE_include_directive : require
// GatherBlockQuantized (com.microsoft): gathers rows of a block-quantized table and dequantizes them.
// Codes are unpacked from 32-bit words (no 8-bit storage); float16/bfloat16 outputs are assembled into
// words one invocation owns (no 16-bit storage; the output's last word, half of it beyond the tensor,
// by atomics). Each code's value is ONNX Runtime's CPU arithmetic: (code - zero point) or the
// float8/float4 value, exact in float32; times the scale widened to float32, rounded to nearest even
// with subnormals kept; rounded again to the output type, with soft_float.glsl's bits on every device
// (drivers may flush subnormals in native arithmetic). Two layouts (modules): the word path, an
// invocation per segment of a row's data words (below), and the general path, an invocation per four
// output words, stepping its element's position. An index outside [-s, s-1] gives +0.0 (the schema's
// zero slice) in the pass flagged VKINDEX_GBQ_WRITES_ZEROS; under the error policy a check pass ran
// first and this one writes nothing if it found a bad index. With VKINDEX_SELF_CHECK (the *_checked
// modules: a lookup of a few indices in one pass) there is no check pass: every invocation checks every
// index first (common/self_check.glsl) and writes nothing if one is out of range.
#include "common/spec_ids.h"
#include "common/gather_block_quantized_params.h"

#ifndef VKINDEX_GBQ_WORD_PATH
#define VKINDEX_GBQ_WORD_PATH 0
#endif
// 1: the device's float32 multiply, rounding to nearest even on request (shaderRoundingModeRTEFloat32),
// gives the products where operands and product are normal numbers (as common/native_float32_add.glsl
// does for adds).
#ifndef VKINDEX_GBQ_NATIVE_MULTIPLY
#define VKINDEX_GBQ_NATIVE_MULTIPLY 0
#endif
// 1 (the *_half_scales modules, float16 and bfloat16 scales alone): plainBits takes the device's float32
// multiply on any device. A difference of at most 8 bits times an 11- or 8-bit significand is exact in
// float32, and plain scales keep both operands and the product normal, so rounding and denormal modes
// cannot change its bits.
#ifndef VKINDEX_GBQ_EXACT_PRODUCTS
#define VKINDEX_GBQ_EXACT_PRODUCTS 0
#endif
#ifndef VKINDEX_SELF_CHECK
#define VKINDEX_SELF_CHECK 0
#endif

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
layout(constant_id = VKINDEX_SPEC_CODE_KIND) const uint CODE_KIND = VKINDEX_CODE_UINT;
layout(constant_id = VKINDEX_SPEC_CODE_BITS) const uint CODE_BITS = 4;
layout(constant_id = VKINDEX_SPEC_SCALE_KIND) const uint SCALE_KIND = VKINDEX_SCALE_FLOAT32;

layout(binding = 0, std430) buffer Status { uint status_words[]; };
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 2, std430) readonly buffer Data { uint data_words[]; };
layout(binding = 3, std430) readonly buffer Scales { uint scale_words[]; };
layout(binding = 4, std430) readonly buffer ZeroPoints { uint zero_point_words[]; };
layout(binding = 5, std430) buffer Out { uint out_words[]; };
#ifndef VKINDEX_GBQ_VECTORS
#define VKINDEX_GBQ_VECTORS 0
#endif
#ifndef VKINDEX_GBQ_INT64_UNITS
#define VKINDEX_GBQ_INT64_UNITS 0
#endif
#if VKINDEX_GBQ_VECTORS
// Data and output as 16-byte units (quads of words), for VKINDEX_GBQ_VECTOR_STORES and
// VKINDEX_GBQ_QUAD_WORDS: as 64-bit components in the *_int64 modules (Tuning::int64_units), since
// lavapipe moves each component of a storage access lane by lane (common/unit_type.glsl).
#if VKINDEX_GBQ_INT64_UNITS
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define GBQ_QUAD u64vec2
uvec4 fromQuad(u64vec2 quad) { return uvec4(unpackUint2x32(quad.x), unpackUint2x32(quad.y)); }
u64vec2 toQuad(uvec4 words) { return u64vec2(packUint2x32(words.xy), packUint2x32(words.zw)); }
#else
#define GBQ_QUAD uvec4
uvec4 fromQuad(uvec4 quad) { return quad; }
uvec4 toQuad(uvec4 words) { return words; }
#endif
layout(binding = 2, std430) readonly buffer DataQuads { GBQ_QUAD data_quads[]; };
layout(binding = 5, std430) writeonly buffer OutQuads { GBQ_QUAD out_quads[]; };
layout(binding = 5, std430) writeonly buffer OutVectors2 { uvec2 out_vectors2[]; };
#endif

#include "common/fast_division.glsl"
#include "common/indices.glsl"
#include "common/soft_float.glsl"
#if VKINDEX_GBQ_NATIVE_MULTIPLY
#extension GL_EXT_spirv_intrinsics : require
// OpExecutionMode RoundingModeRTE 32 (SPV_KHR_float_controls: execution mode 4462, capability 4467).
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);
#endif
#include "common/status_gate.glsl"
#if VKINDEX_SELF_CHECK
const uint TUPLE_LENGTH = 1u;
#define VKINDEX_SELF_CHECK_EXTENT(position) pc.axis_dim
#include "common/self_check.glsl"
#endif

const uint kCodesPerWord = 32u / CODE_BITS;
const uint kCodeMask = (1u << CODE_BITS) - 1u;
const uint kElementsPerWord = SCALE_KIND == VKINDEX_SCALE_FLOAT32 ? 1u : 2u;

// Code `position` of a binding of packed codes (the first code in the low bits of each word).
uint dataCode(uint position) {
  return (data_words[position / kCodesPerWord] >> ((position % kCodesPerWord) * CODE_BITS)) & kCodeMask;
}

uint zeroPointCode(uint position) {
  return (zero_point_words[position / kCodesPerWord] >> ((position % kCodesPerWord) * CODE_BITS)) & kCodeMask;
}

// A small float format's code, exactly as float32 bits: `man_bits` fraction bits, exponent bias
// `bias`; subnormals become normal float32 numbers. Special codes are the caller's.
uint smallFloatBits(uint code, uint exp_bits, uint man_bits, int bias) {
  uint sign = ((code >> (exp_bits + man_bits)) & 1u) << 31u;
  uint exponent = (code >> man_bits) & ((1u << exp_bits) - 1u);
  uint fraction = code & ((1u << man_bits) - 1u);
  if (exponent == 0u) {
    if (fraction == 0u) return sign;
    int msb = findMSB(fraction);  // fraction x 2^(1 - bias - man_bits), its leading one made hidden
    return sign | (uint(msb + 1 - int(man_bits) - bias + 127) << 23u) | ((fraction << uint(23 - msb)) & 0x7FFFFFu);
  }
  return sign | (uint(int(exponent) - bias + 127) << 23u) | (fraction << (23u - man_bits));
}

uint quietNaN(uint code, uint sign_bit) { return ((code >> sign_bit) & 1u) << 31u | 0x7FC00000u; }

// The float8/float4 code's value as float32 bits. The fnuz kinds' one NaN (0x80) reads as -NaN, as in
// ONNX Runtime (its Float8E4M3FNUZ and Float8E5M2FNUZ ToFloat).
uint floatCodeBits(uint code) {
  if (CODE_KIND == VKINDEX_CODE_E4M3FN) {
    return (code & 0x7Fu) == 0x7Fu ? quietNaN(code, 7u) : smallFloatBits(code, 4u, 3u, 7);
  }
  if (CODE_KIND == VKINDEX_CODE_E4M3FNUZ) return code == 0x80u ? kF32DefaultNaN : smallFloatBits(code, 4u, 3u, 8);
  if (CODE_KIND == VKINDEX_CODE_E5M2) {
    if ((code & 0x7Cu) == 0x7Cu) return (code & 3u) == 0u ? ((code & 0x80u) << 24u) | kF32Infinity : quietNaN(code, 7u);
    return smallFloatBits(code, 5u, 2u, 15);
  }
  if (CODE_KIND == VKINDEX_CODE_E5M2FNUZ) return code == 0x80u ? kF32DefaultNaN : smallFloatBits(code, 5u, 2u, 16);
  return smallFloatBits(code, 2u, 1u, 1);  // E2M1: no infinities or NaNs
}

// An integer code, signed for int4.
int integerCode(uint code) { return CODE_KIND == VKINDEX_CODE_INT4 ? (int(code << 28u) >> 28) : int(code); }

// Scale `index`'s bits where the scales are float16 or bfloat16.
uint scaleHalfBits(uint index) { return (scale_words[index >> 1u] >> ((index & 1u) * 16u)) & 0xFFFFu; }

uint scaleBits(uint index) {
  if (SCALE_KIND == VKINDEX_SCALE_FLOAT32) return scale_words[index];
  uint half_bits = scaleHalfBits(index);
  return SCALE_KIND == VKINDEX_SCALE_FLOAT16 ? f16ToF32(half_bits) : bf16ToF32(half_bits);
}

bool hasFlag(uint flag) { return (pc.flags & flag) != 0u; }

// Whether this pass may write: no bad index found by the check pass before it (a status gate), or, in a
// self-checking module, by its own check (which records it).
bool mayWrite() {
#if VKINDEX_SELF_CHECK
  return !checkAndReport(pc.index_count);
#else
  return !(hasFlag(VKINDEX_GBQ_STATUS_GATE) && badIndexFound());
#endif
}

// value x s in float32 (both float32 bits; value an exact small integer or float8/float4 value),
// rounded to nearest even with subnormals kept: soft_float.glsl's f32Mul, computed cheaply where the
// operands and the product are normal numbers, which is nearly always.
// The rare cases' soft float runs in loops of at most one turn rather than under `if`: SwiftShader
// runs a loop's body only while some invocation needs it, but an `if`'s body under a mask whether or
// not any does, which made every element pay for f32Mul and f32ToF16.
uint scaled(uint value, uint s) {
  uint result;
  bool slow;
#if VKINDEX_GBQ_NATIVE_MULTIPLY
  precise float product = uintBitsToFloat(value) * uintBitsToFloat(s);  // rounded once, to nearest even
  result = floatBitsToUint(product);
  slow = !f32IsNormal(s) || !f32IsNormal(result);
#else
  // |value| = magnitude x 2^k with magnitude < 2^8 (integer codes: the difference itself), so
  // magnitude x the scale's 24-bit significand is one exact 32-bit product, rounded here to 24 bits.
  uint low = uint(findLSB(value | 0x800000u));  // value is normal: its significand ends at bit `low`
  uint magnitude = ((value & 0x7FFFFFu) | 0x800000u) >> low;
  int k = int((value >> 23u) & 0xFFu) - 150 + int(low);
  uint product = magnitude * f32Significand(s);
  // The product's leading bit, from its float conversion (which may round up to the next power of two).
  int msb = int((floatBitsToUint(float(product)) >> 23u) & 0xFFu) - 127;
  if ((product >> uint(msb)) == 0u) msb -= 1;
  uint shift = uint(msb - 23);  // the product is at least the significand: msb >= 23
  uint significand = product >> shift;
  uint rest = product & ((1u << shift) - 1u);
  uint halfway = (1u << shift) >> 1u;
  if (shift != 0u && (rest > halfway || (rest == halfway && (significand & 1u) != 0u))) significand += 1u;
  int exponent = int((s >> 23u) & 0xFFu) + int(shift) + k;
  // A significand rounded up to 2^24 carries into the exponent by the addition, as in roundPackSmall.
  uint magnitude_bits = min((uint(max(exponent, 1) - 1) << 23u) + significand, kF32Infinity);
  result = ((value ^ s) & kSoftSignBit) | magnitude_bits;
  slow = !f32IsNormal(value) || !f32IsNormal(s) || exponent < 1;  // f32Mul rounds a subnormal product
#endif
  // Frequent: code == zero point, a signed zero.
  if ((value & kSoftMagnitude) == 0u && f32IsNormal(s)) return (value ^ s) & kSoftSignBit;
  for (bool again = slow; again; again = false) result = f32Mul(value, s);
  return result;
}

// Float32 bits to the output type, rounded to nearest even: the integer formulas where the result is
// a normal float16 (or any bfloat16 but NaN), soft_float.glsl's conversions elsewhere.
uint outputBits(uint f) {
  if (SCALE_KIND == VKINDEX_SCALE_FLOAT32) return f;
  if (SCALE_KIND == VKINDEX_SCALE_BFLOAT16) return f32IsNaN(f) ? f32ToBf16(f) : (f + 0x7FFFu + ((f >> 16u) & 1u)) >> 16u;
  uint exponent = (f >> 23u) & 0xFFu;
  if ((f & kSoftMagnitude) == 0u) return (f >> 16u) & 0x8000u;  // a signed zero (frequent)
  uint magnitude = (f & kSoftMagnitude) - (112u << 23u);        // rebias 127 -> 15
  uint half_bits = ((f >> 16u) & 0x8000u) | ((magnitude + 0xFFFu + ((magnitude >> 13u) & 1u)) >> 13u);
  // float16 subnormals, infinities and NaNs: the soft conversion (in a loop, as in scaled()).
  for (bool again = exponent < 113u || exponent > 142u; again; again = false) half_bits = f32ToF16(f);
  return half_bits;
}

// Where an invocation is in the output: its element, the element's row of indices and position
// around quantize_axis, found by division once and then stepped element by element.
struct Cursor {
  uint e;      // code within the output row
  uint n;      // index position
  uint m;      // outer slice
  bool owned;  // this pass writes the row (its index is in the pass's rows, or a zero slice here)
  bool zero;   // the row is a zero slice
  uint p;      // the code's position from the pass's first row
  uint x, y, z;
};

void locateRow(inout Cursor c) {
  uvec2 index = loadIndex(pc.indices_word_offset, c.n);
  c.zero = !indexInRange(index, pc.axis_dim);
  uint row = index.y != 0u ? index.x + pc.axis_dim : index.x;
  c.owned = c.zero ? hasFlag(VKINDEX_GBQ_WRITES_ZEROS) : (row >= pc.row_first && row < pc.row_end);
  if (c.zero || !c.owned) return;
  c.p = (c.m * pc.axis_dim + row - pc.row_first) * pc.row_codes + c.e;
  c.x = fastDivide(c.p, pc.quantize_span, pc.span_multiplier, pc.span_shift);
  uint rest = c.p - c.x * pc.quantize_span;
  c.y = fastDivide(rest, pc.quantize_inner, pc.inner_multiplier, pc.inner_shift);
  c.z = rest - c.y * pc.quantize_inner;
}

Cursor cursorAt(uint o) {
  Cursor c;
  uint r = fastDivide(o, pc.row_codes, pc.row_multiplier, pc.row_shift);
  c.e = o - r * pc.row_codes;
  c.m = fastDivide(r, pc.index_count, pc.index_multiplier, pc.index_shift);
  c.n = r - c.m * pc.index_count;
  locateRow(c);
  return c;
}

void advance(inout Cursor c) {
  c.e += 1u;
  if (c.e == pc.row_codes) {
    c.e = 0u;
    c.n += 1u;
    if (c.n == pc.index_count) {
      c.n = 0u;
      c.m += 1u;
    }
    locateRow(c);
    return;
  }
  c.p += 1u;
  c.z += 1u;
  if (c.z == pc.quantize_inner) {
    c.z = 0u;
    c.y += 1u;
    if (c.y * pc.quantize_inner == pc.quantize_span) {
      c.y = 0u;
      c.x += 1u;
    }
  }
}

// The zero point of block `block` of scales row `x` (scale index `scale_index`): uint8 of 4 or 2 bits
// keeps them per packed row (quantize_axis is the last axis, so x is the scales' row), the other
// types lie like the scales; absent, the type's default.
int zeroPoint(uint x, uint block, uint scale_index) {
  if (CODE_KIND >= VKINDEX_CODE_E4M3FN || !hasFlag(VKINDEX_GBQ_ZERO_POINTS)) return int(pc.default_zero_point);
  uint position = pc.zero_point_row_bytes != 0u ? x * pc.zero_point_row_bytes * (8u / CODE_BITS) + block : scale_index;
  return integerCode(zeroPointCode(position + pc.zero_point_lead));
}

// A code's output bits: (code - zero point) or the float code's value, times the scale (float32 bits).
uint dequantized(uint code, int zero_point, uint scale) {
  if (CODE_KIND >= VKINDEX_CODE_E4M3FN) {
    uint value = floatCodeBits(code);
    // NaN and infinite codes take f32Mul inside scaled() too: they are not normal numbers.
    return outputBits(scaled(value, scale));
  }
  // An integer difference of at most 255 in magnitude: exact in float32.
  return outputBits(scaled(floatBitsToUint(float(integerCode(code) - zero_point)), scale));
}

// Whether every product of scale `s` with an integer difference of magnitude 1 to 255 is a normal
// float32 number that rounds to a normal number of the output type: a normal scale of exponent field
// e gives products in [|s|, 2^(e - 118)), so float32 and bfloat16 outputs need e <= 245 and float16
// ones 113 <= e <= 133. Uniform across a data word: its codes then take plainBits.
bool plainScale(uint s) {
  uint e = (s >> 23u) & 0xFFu;
  if (e == 0u || e > 245u) return false;
  return SCALE_KIND != VKINDEX_SCALE_FLOAT16 || (e >= 113u && e <= 133u);
}

// What plainBits multiplies by for a plain scale `s`: the scale itself, but where the device multiplies,
// a float16 output's scale divided by 2^112 (its exponent field less 112: still a normal number, the
// scale being plain), so that the product's bits are the float16's before rounding, a zero difference
// giving a signed zero that rounds to itself (no rebias and no special case per code).
uint plainFactor(uint s) {
#if VKINDEX_GBQ_NATIVE_MULTIPLY || VKINDEX_GBQ_EXACT_PRODUCTS
  if (SCALE_KIND == VKINDEX_SCALE_FLOAT16) return s - (112u << 23u);
#endif
  return s;
}

// dequantized()'s bits for an integer code under a plain scale (as plainFactor(scale)), with no
// special case left: the product exact to nearest even (the device's multiply where it rounds so; else
// one 32-bit integer product rounded here), a zero difference a zero of the scale's sign, the output
// rounding by formula.
uint plainBits(int difference, uint factor) {
#if VKINDEX_GBQ_NATIVE_MULTIPLY || VKINDEX_GBQ_EXACT_PRODUCTS
  // 0 x the factor is a zero of its sign, which each output's rounding below keeps.
  precise float native = float(difference) * uintBitsToFloat(factor);
  uint product = floatBitsToUint(native);
  if (SCALE_KIND == VKINDEX_SCALE_FLOAT32) return product;
  if (SCALE_KIND == VKINDEX_SCALE_BFLOAT16) return (product + 0x7FFFu + ((product >> 16u) & 1u)) >> 16u;
  uint magnitude = product & kSoftMagnitude;  // already rebiased by plainFactor
  return ((product >> 16u) & 0x8000u) | ((magnitude + 0xFFFu + ((magnitude >> 13u) & 1u)) >> 13u);
#else
  uint s = factor;
  uint sign = (s ^ (difference < 0 ? kSoftSignBit : 0u)) & kSoftSignBit;
  uint wide = uint(abs(difference)) * f32Significand(s);  // < 2^32
  int msb = int((floatBitsToUint(float(wide)) >> 23u) & 0xFFu) - 127;
  if ((wide >> uint(msb)) == 0u) msb -= 1;  // the conversion rounded up to the next power of two
  uint shift = uint(msb - 23);
  uint significand = wide >> shift;
  uint rest = wide & ((1u << shift) - 1u);
  uint halfway = (1u << shift) >> 1u;
  if (shift != 0u && (rest > halfway || (rest == halfway && (significand & 1u) != 0u))) significand += 1u;
  uint product = sign | ((((s >> 23u) & 0xFFu) + shift - 1u) << 23u) + significand;
  if (difference == 0) product = s & kSoftSignBit;
  if (SCALE_KIND == VKINDEX_SCALE_FLOAT32) return product;
  if (SCALE_KIND == VKINDEX_SCALE_BFLOAT16) return (product + 0x7FFFu + ((product >> 16u) & 1u)) >> 16u;
  uint magnitude = (product & kSoftMagnitude) - (112u << 23u);  // rebias 127 -> 15
  uint half_bits = ((product >> 16u) & 0x8000u) | ((magnitude + 0xFFFu + ((magnitude >> 13u) & 1u)) >> 13u);
  return difference == 0 ? (product >> 16u) : half_bits;
#endif
}

// The element's output bits (the row must be owned): by plainBits (`general` false) or by the
// general dequantized(). `plain` says whether plainBits gives them (a zero slice, or an integer code
// under a plain scale); with `general` false an element that is not plain gets no bits here.
uint elementBits(Cursor c, bool general, out bool plain) {
  plain = true;
  if (c.zero) return 0u;
  uint block = c.y >> pc.block_shift;
  uint scale_x = hasFlag(VKINDEX_GBQ_SHARED_OUTER) ? 0u : c.x;
  uint scale_z = hasFlag(VKINDEX_GBQ_SHARED_INNER) ? 0u : c.z;
  uint scale_index = scale_x * pc.scale_outer_stride + block * pc.scale_inner + scale_z;
  uint scale = scaleBits(scale_index + pc.scale_lead);
  uint code = dataCode(c.p + pc.data_code_lead);
  int zero_point = zeroPoint(c.x, block, scale_index);
  plain = CODE_KIND < VKINDEX_CODE_E4M3FN && plainScale(scale);
  if (general) return dequantized(code, zero_point, scale);
  return plainBits(integerCode(code) - zero_point, plainFactor(scale));
}

#if VKINDEX_GBQ_WORD_PATH
// The word path: quantize_axis is the last axis, gather_axis the first, and the codes along
// quantize_axis fill whole data words, so the codes of one data word share a row, a scale and a zero
// point. An invocation takes a segment of SEGMENT_WORDS data words of one output row (the device's
// row_items: a long run streamed by one invocation on CPU drivers, a few words on GPUs, where adjacent
// invocations take adjacent segments): its index is read once, and each word's codes are
// dequantized with one scale and zero point; in the native modules, four words at a time where the
// pass says everything is whole quads (VKINDEX_GBQ_QUAD_WORDS). row_multiplier and row_shift divide by
// the segments per row here.
layout(constant_id = VKINDEX_SPEC_SEGMENT_WORDS) const uint SEGMENT_WORDS = 1;
const uint kOutWordsPerWord = kCodesPerWord / kElementsPerWord;
#if VKINDEX_GBQ_EXACT_PRODUCTS
// storeUnshifted's constants. A data word flipped by kFieldFlip has fields that read as their codes plus
// these offsets; kFieldStep and 2^-bits (as float32 bits) step from field to field.
const uint kFieldFlip = CODE_KIND == VKINDEX_CODE_INT4 ? 0x08888888u : 0x80000000u;
const int kLowerFieldOffset = CODE_KIND == VKINDEX_CODE_INT4 ? 8 : 0;
const int kTopFieldOffset = CODE_KIND == VKINDEX_CODE_INT4 ? 0 : -int(1u << (CODE_BITS - 1u));
const uint kFieldStep = 1u << CODE_BITS;
const uint kScaleStepBits = (127u - CODE_BITS) << 23u;
// The output's rounding and placement, float16 (the product rebiased, its last bit bit 13, the
// magnitude in bits 13 to 27) or bfloat16 (bit 16, bits 16 to 30): one formula, its constants chosen
// by the scale kind.
const bool kBfloat16Out = SCALE_KIND == VKINDEX_SCALE_BFLOAT16;
const uint kRoundBias = kBfloat16Out ? 0x7FFFu : 0xFFFu;
const uint kLastBit = kBfloat16Out ? 0x10000u : 0x2000u;
const uint kMagnitudeBits = kBfloat16Out ? 0x7FFF0000u : 0x0FFFE000u;
const uint kHighFactor = kBfloat16Out ? 1u : 8u;
#endif

// A data word's scale and zero point (from wordSource), and its codes (the caller's load).
struct WordSource {
  uint codes;
  uint scale;
  uint factor;  // plainFactor(scale)
  int zero_point;
#if VKINDEX_GBQ_EXACT_PRODUCTS
  // What unshiftedRounded subtracts from a lower and from the top field's value: the zero point plus
  // the field's offset, as float32.
  float lower_zero;
  float top_zero;
#endif
  // Data words from this one to the end of its block (they share scale and zero point): the block's
  // end or the quantized axis's, whichever comes first (a block may be longer than the axis).
  uint block_words;
};

// The scale index (before the binding's lead) of block `block` of scales row `x`, on the word path.
uint wordScaleIndex(uint x, uint block) {
  return (hasFlag(VKINDEX_GBQ_SHARED_OUTER) ? 0u : x) * pc.scale_outer_stride + block;
}

WordSource wordSource(uint p) {
  uint x = fastDivide(p, pc.quantize_span, pc.span_multiplier, pc.span_shift);
  uint along = p - x * pc.quantize_span;
  uint block = along >> pc.block_shift;
  uint scale_index = wordScaleIndex(x, block);
  WordSource source;
  source.scale = scaleBits(scale_index + pc.scale_lead);
  source.factor = plainFactor(source.scale);
  source.zero_point = zeroPoint(x, block, scale_index);
#if VKINDEX_GBQ_EXACT_PRODUCTS
  source.lower_zero = float(source.zero_point + kLowerFieldOffset);
  source.top_zero = float(source.zero_point + kTopFieldOffset);
#endif
  // At least 1: the word path's rows are whole words and blocks whole words too (the planner's
  // condition), so `along` starts a word; the floor keeps the loop moving whatever the push block says.
  uint block_left = (1u << pc.block_shift) - (along & ((1u << pc.block_shift) - 1u));  // block_shift <= 31
  source.block_words = max(min(block_left, pc.quantize_span - along) / kCodesPerWord, 1u);
  return source;
}

bool plainWord(WordSource source) { return CODE_KIND < VKINDEX_CODE_E4M3FN && plainScale(source.scale); }

#if VKINDEX_GBQ_EXACT_PRODUCTS
// The plain codes of the *_half_scales modules (SwiftShader, devices without rounding control) without a
// shift: SwiftShader's compiler (Subzero) moves every vector shift lane by lane, constant amounts too
// (some 16 instructions a shift where an AND is one), and unpacking and rounding by shifts took most of
// its time (docs/tuning.md links the measurements). Here each field is masked in place and read
// as a float scaled down by its position's power of two, and the rounded output bits are moved by
// multiplies and exact float conversions; every step is exact, so the bits are plainBits' on any
// device. Two elements per output word: these modules take float16 and bfloat16 scales alone.

// A code's product with the plain factor (exact, as in plainBits), rounded to nearest even at the
// output type's last bit, its low bits left for unshiftedHigh to drop. `field` is the
// code's field of the flipped data word in place, `down` 2^-(bits x its position), `zero` the
// source's lower_zero or top_zero: a field below bit 31 reads as a non-negative int, the top one
// signed, with at most 8 significant bits, so the conversion, the scaling and the subtraction of two
// small integers are exact. The rounding's last bit is taken by a comparison rather than a shift.
uint unshiftedRounded(WordSource source, uint field, float down, float zero) {
  precise float difference = float(int(field)) * down - zero;
  precise float product = difference * uintBitsToFloat(source.factor);
  uint bits = floatBitsToUint(product);
  return bits + kRoundBias + ((bits & kLastBit) != 0u ? 1u : 0u);
}

// Rounded bits `r` as an output word's high half: a plain float16 result's exponent is at most 30, so
// its magnitude times 8 stays below the sign.
uint unshiftedHigh(uint r) { return (r & 0x80000000u) | (r & kMagnitudeBits) * kHighFactor; }

// An output word's high half `high` moved to the low half: read as an int it has at most 16
// significant bits, so converting to float, scaling by 2^-16 and converting back is exact.
uint unshiftedLow(uint high) { return uint(int(float(int(high)) * (1.0 / 65536.0))) & 0xFFFFu; }

// The data word's plain output words (two elements each) from `out_word` on. The field's mask and its
// power of two step by multiplies.
void storeUnshifted(WordSource source, uint out_word) {
  uint flipped = source.codes ^ kFieldFlip;
  uint mask = kCodeMask;
  float down = 1.0;
  for (uint w = 0u; w < kOutWordsPerWord; ++w) {
    uint low = unshiftedRounded(source, flipped & mask, down, source.lower_zero);
    mask *= kFieldStep;
    down *= uintBitsToFloat(kScaleStepBits);
    float zero = w + 1u == kOutWordsPerWord ? source.top_zero : source.lower_zero;
    uint high = unshiftedRounded(source, flipped & mask, down, zero);
    mask *= kFieldStep;
    down *= uintBitsToFloat(kScaleStepBits);
    out_words[out_word + w] = unshiftedLow(unshiftedHigh(low)) | unshiftedHigh(high);
  }
}
#endif

// The codes of the data word at code position `p` (counted from the pass's first row).
uint dataWordIndex(uint p) { return (p + pc.data_code_lead) / kCodesPerWord; }
uint dataWord(uint p) { return data_words[dataWordIndex(p)]; }

// Output word `w` of a data word's codes: by plainBits when `plain`, else by the general dequantized().
uint outputWord(WordSource source, bool plain, uint w) {
  uint bits = 0u;
  for (uint i = 0u; i < kElementsPerWord; ++i) {
    uint code = (source.codes >> ((w * kElementsPerWord + i) * CODE_BITS)) & kCodeMask;
    uint element = plain ? plainBits(integerCode(code) - source.zero_point, source.factor)
                         : dequantized(code, source.zero_point, source.scale);
    bits |= element << (16u * i);
  }
  return bits;
}

// A data word's codes into the output words from `out_word` (2 to 16 words: 2 only for 8-bit codes into
// float16/bfloat16). main calls it for plain and general words in separate loops (it runs the general
// one only for segments that need it): the general path's code inside the plain codes' loop, taken or
// not, keeps the CPU drivers' compilers from making that loop tight (the measurements page of
// GatherBlockQuantized). The modules built with VKINDEX_GBQ_VECTORS (the native-multiply ones: GPUs
// and lavapipe) store them as 16- or 8-byte vectors where the pass's flag VKINDEX_GBQ_VECTOR_STORES
// says the output is aligned, so that a warp's stores cover contiguous memory. SwiftShader never takes
// those modules (it has no rounding control) and keeps the word stores alone: it runs an `if`'s body
// under a mask whether or not an invocation takes it, so the vector code compiled in slowed every word
// (the H200 and CPU-driver numbers: docs/tuning.md links them).
#if VKINDEX_GBQ_VECTORS
// Output words [w, w + 4) of the source's data word (kOutWordsPerWord of 4 or more), as outputWord.
uvec4 fourWords(WordSource source, bool plain, uint w) {
  return uvec4(outputWord(source, plain, w), outputWord(source, plain, w + 1u), outputWord(source, plain, w + 2u),
               outputWord(source, plain, w + 3u));
}
#endif

void storeWord(WordSource source, bool plain, uint out_word) {
#if VKINDEX_GBQ_EXACT_PRODUCTS
  if (plain) {
    storeUnshifted(source, out_word);
    return;
  }
#endif
#if VKINDEX_GBQ_VECTORS
  if (hasFlag(VKINDEX_GBQ_VECTOR_STORES)) {
    if (kOutWordsPerWord == 2u) {
      out_vectors2[out_word / 2u] = uvec2(outputWord(source, plain, 0u), outputWord(source, plain, 1u));
      return;
    }
    for (uint w = 0u; w < kOutWordsPerWord; w += 4u) out_quads[(out_word + w) / 4u] = toQuad(fourWords(source, plain, w));
    return;
  }
#endif
  for (uint w = 0u; w < kOutWordsPerWord; ++w) out_words[out_word + w] = outputWord(source, plain, w);
}

#if VKINDEX_GBQ_VECTORS
// Plain output words [w, w + 4) of data word `codes` (kOutWordsPerWord of 4 or more).
uvec4 fourPlainWords(WordSource source, uint codes, uint w) {
  source.codes = codes;
  return fourWords(source, true, w);
}

// Plain output words [0, 2) of data words `first` and `second` (kOutWordsPerWord 2: 8-bit codes into
// float16 or bfloat16).
uvec4 twoPlainWordsEach(WordSource source, uint first, uint second) {
  WordSource other = source;
  source.codes = first;
  other.codes = second;
  return uvec4(outputWord(source, true, 0u), outputWord(source, true, 1u), outputWord(other, true, 0u),
               outputWord(other, true, 1u));
}

// The plain codes of data quad `data_quad` (VKINDEX_GBQ_QUAD_WORDS: four data words sharing the
// source's scale and zero point) from output quad `out_quad` on: the codes in one 16-byte load, their
// output words (8 to 32) in 16-byte stores. Whole quads, as the copy kernels move units, cut lavapipe's
// loop to about the copy's cost, where a word at a time cost more than the arithmetic (docs/tuning.md,
// int64_units). Written out word by word rather than as a vector indexed in loops left to the
// driver's unrolling.
void storePlainQuad(WordSource source, uint data_quad, uint out_quad) {
  const uint kOutQuadsPerWord = kOutWordsPerWord / 4u;  // 0 for kOutWordsPerWord 2
  uvec4 codes = fromQuad(data_quads[data_quad]);
  if (kOutWordsPerWord == 2u) {
    out_quads[out_quad] = toQuad(twoPlainWordsEach(source, codes.x, codes.y));
    out_quads[out_quad + 1u] = toQuad(twoPlainWordsEach(source, codes.z, codes.w));
    return;
  }
  for (uint q = 0u; q < kOutQuadsPerWord; ++q) {
    out_quads[out_quad + q] = toQuad(fourPlainWords(source, codes.x, 4u * q));
    out_quads[out_quad + kOutQuadsPerWord + q] = toQuad(fourPlainWords(source, codes.y, 4u * q));
    out_quads[out_quad + 2u * kOutQuadsPerWord + q] = toQuad(fourPlainWords(source, codes.z, 4u * q));
    out_quads[out_quad + 3u * kOutQuadsPerWord + q] = toQuad(fourPlainWords(source, codes.w, 4u * q));
  }
}

// Where code position `p` lies along quantize_axis: its scales row x and its position `along` in it.
struct BlockWalk {
  uint x;
  uint along;
};

BlockWalk blockWalkAt(uint p) {
  BlockWalk walk;
  walk.x = fastDivide(p, pc.quantize_span, pc.span_multiplier, pc.span_shift);
  walk.along = p - walk.x * pc.quantize_span;
  return walk;
}

// The walk moved on by `codes` positions, which must not pass the end of its scales row.
void stepWalk(inout BlockWalk walk, uint codes) {
  walk.along += codes;
  if (walk.along >= pc.quantize_span) {
    walk.along = 0u;
    walk.x += 1u;
  }
}

// The quad loop's source of the walk's block: its plain factor and zero point (the rest unset), and
// whether it is plain (plainWord). A float16 scale's factor is taken from its bits rather than
// widened by f16ToF32 first, which lavapipe paid for per quad: a float16 scale is plain where its
// exponent field is 1 to 21 (plainScale's 113 to 133, rebiased), and the native modules' plain factor
// is then its sign, exponent field and fraction moved into float32's fields as they are.
WordSource plainQuadSource(BlockWalk walk, out bool plain) {
  uint block = walk.along >> pc.block_shift;
  uint scale_index = wordScaleIndex(walk.x, block);
  WordSource source;
  if (SCALE_KIND == VKINDEX_SCALE_FLOAT16) {
    uint half_bits = scaleHalfBits(scale_index + pc.scale_lead);
    uint exponent = (half_bits >> 10u) & 0x1Fu;
    source.factor = ((half_bits & 0x8000u) << 16u) | ((half_bits & 0x7FFFu) << 13u);
    plain = exponent >= 1u && exponent <= 21u;
  } else {
    source.scale = scaleBits(scale_index + pc.scale_lead);
    source.factor = plainFactor(source.scale);
    plain = plainScale(source.scale);
  }
  plain = plain && CODE_KIND < VKINDEX_CODE_E4M3FN;
  source.zero_point = zeroPoint(walk.x, block, scale_index);
  return source;
}

// The plain words of a segment in quads (VKINDEX_GBQ_QUAD_WORDS: blocks, segments and the data's lead
// are whole quads, the planner's condition): `quads` quads of data words from code position `first_p`
// (counted from the pass's first row) into the output words from `out_word`. One loop over the quads,
// each reading its block's scale and zero point at a position stepped from the last: a loop per block,
// with a division to find it, cost lavapipe as much as the arithmetic where a block is one quad, and
// reading them only where a block starts cost more than reading them per quad (docs/tuning.md links
// the measurements). Returns whether a word was left to the general loop.
bool storePlainQuads(uint first_p, uint quads, uint out_word) {
  bool general_left = false;
  uint quad_codes = 4u * kCodesPerWord;
  uint data_quad = (first_p + pc.data_code_lead) / quad_codes;
  BlockWalk walk = blockWalkAt(first_p);
  for (uint quad = 0u; quad < quads; ++quad) {
    bool plain;
    WordSource source = plainQuadSource(walk, plain);
    stepWalk(walk, quad_codes);
    general_left = general_left || !plain;
    if (plain) storePlainQuad(source, data_quad + quad, out_word / 4u + quad * kOutWordsPerWord);
  }
  return general_left;
}
#endif

void main() {
  if (!mayWrite()) return;
  uint words_per_row = pc.row_codes / kCodesPerWord;
  uint segments_per_row = divideRoundingUp(words_per_row, SEGMENT_WORDS);
  uint items = pc.index_count * segments_per_row;
  for (uint item = firstInvocationItem(); item < items; item += invocationStride()) {
    uint n = fastDivide(item, segments_per_row, pc.row_multiplier, pc.row_shift);
    uint first_word = (item - n * segments_per_row) * SEGMENT_WORDS;
    uint end_word = min(first_word + SEGMENT_WORDS, words_per_row);
    uint out_word = pc.out_word_offset + (n * pc.row_codes + first_word * kCodesPerWord) / kElementsPerWord;
    uvec2 index = loadIndex(pc.indices_word_offset, n);
    if (!indexInRange(index, pc.axis_dim)) {
      if (hasFlag(VKINDEX_GBQ_WRITES_ZEROS)) {
        for (uint w = 0u; w < (end_word - first_word) * kOutWordsPerWord; ++w) out_words[out_word + w] = 0u;
      }
      continue;
    }
    uint row = index.y != 0u ? index.x + pc.axis_dim : index.x;
    if (row < pc.row_first || row >= pc.row_end) continue;
    uint first_p = (row - pc.row_first) * pc.row_codes + first_word * kCodesPerWord;
    // The plain words, then (rarely: extreme scales, float codes) the others. The plain ones in quads
    // where the pass says so, else in a loop per block, its scale and zero point read once.
    bool general_left = false;
#if VKINDEX_GBQ_VECTORS
    if (hasFlag(VKINDEX_GBQ_QUAD_WORDS)) {
      general_left = storePlainQuads(first_p, (end_word - first_word) / 4u, out_word);
    } else
#endif
    for (uint word = first_word; word < end_word;) {
      uint p = first_p + (word - first_word) * kCodesPerWord;
      WordSource source = wordSource(p);
      uint block_end = min(end_word, word + source.block_words);
      bool plain = plainWord(source);
      general_left = general_left || !plain;
      // The block's words, each one's codes loaded once; the data word's index divided out once per
      // block (a division by a specialization constant is a division on some drivers: SwiftShader).
      for (uint data_word = dataWordIndex(p); word < block_end; ++word, ++data_word) {
        source.codes = data_words[data_word];
        if (plain) storeWord(source, true, out_word + (word - first_word) * kOutWordsPerWord);
      }
    }
    if (!general_left) continue;
    for (uint word = first_word; word < end_word; ++word) {
      uint p = first_p + (word - first_word) * kCodesPerWord;
      WordSource source = wordSource(p);
      source.codes = dataWord(p);
      if (!plainWord(source)) storeWord(source, false, out_word + (word - first_word) * kOutWordsPerWord);
    }
  }
}
#else
const uint kWordsPerInvocation = VKINDEX_GBQ_WORDS_PER_INVOCATION;

// Stores the output words [first_word, end_word) whose elements are all plain (`general` false), or
// those with an element that is not (`general` true); returns whether any word was left to the
// general pass. As in the word path, the two are separate loops (main runs the general one only when
// needed): the general path's code in the plain elements' loop slowed them, taken or not.
bool storeRun(uint first_word, uint end_word, bool general) {
  bool general_left = false;
  Cursor c = cursorAt(first_word * kElementsPerWord);
  for (uint w = first_word; w < end_word; ++w) {
    // The host keeps both elements of a word in one pass: the first one's owner stores it.
    bool owned = c.owned;
    bool plain = true;
    uint bits = owned ? elementBits(c, general, plain) : 0u;
    bool whole_word = true;
    if (kElementsPerWord == 2u) {
      uint second = w * 2u + 1u;
      whole_word = second < pc.output_elements;
      if (whole_word) {
        advance(c);
        bool second_plain = true;
        if (owned) bits |= elementBits(c, general, second_plain) << 16u;
        plain = plain && second_plain;
      }
    }
    general_left = general_left || (owned && !plain);
    bool store = owned && (general ? !plain : plain);
    if (store && whole_word) out_words[pc.out_word_offset + w] = bits;
    if (store && !whole_word) {
      // The output's last word, half of it beyond the tensor: only its low half is the operation's.
      atomicAnd(out_words[pc.out_word_offset + w], 0xFFFF0000u);
      atomicOr(out_words[pc.out_word_offset + w], bits);
    }
    if (w + 1u < end_word) advance(c);
  }
  return general_left;
}

void main() {
  if (!mayWrite()) return;
  uint runs = divideRoundingUp(pc.output_words, kWordsPerInvocation);
  for (uint run = firstInvocationItem(); run < runs; run += invocationStride()) {
    uint first_word = run * kWordsPerInvocation;
    uint end_word = min(first_word + kWordsPerInvocation, pc.output_words);
    if (storeRun(first_word, end_word, false)) storeRun(first_word, end_word, true);
  }
}
#endif
