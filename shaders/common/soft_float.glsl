// IEEE 754 add, subtract and multiply in binary32 and binary64, and the binary16/bfloat16 <->
// binary32 conversions, on raw bits in 32-bit integer arithmetic only. The scatter reductions must give
// the same bits on every device: without shaderFloat64, and on drivers that flush float32 subnormals
// (llvmpipe does), so no float or double arithmetic is used here.
// Semantics (the scatter reductions' agreed rules, matched bit for bit by the CPU reference): round to
// nearest, ties to even; subnormal inputs and results exact; overflow to +-inf; x + (-x) = +0 and
// (-0) + (-0) = -0; NaN results as x86-64 SSE with `a` as the first operand: a NaN `a` quieted, else a
// NaN `b` quieted, else (inf - inf, 0 * inf) the default NaN. A binary64 value is uvec2(low, high word).
// The file also compiles as C++ (tests/support/glsl_host_shim.hpp, tests/kernels/soft_float_test.cpp),
// so it has no out parameters of its own and no struct constructors, and it never shifts by 32 or more
// (undefined in both languages).
#ifndef VKINDEX_SOFT_FLOAT_GLSL
#define VKINDEX_SOFT_FLOAT_GLSL

#include "half_widening.glsl"

const uint kSoftSignBit = 0x80000000u;  // binary32 sign; binary64 sign in the high word
const uint kSoftMagnitude = 0x7FFFFFFFu;  // binary32 magnitude; binary64 magnitude in the high word
const uint kF32Infinity = 0x7F800000u;
const uint kF32QuietBit = 0x00400000u;
const uint kF32DefaultNaN = 0xFFC00000u;  // what SSE returns for inf - inf and 0 * inf
const uint kF64HighInfinity = 0x7FF00000u;
const uint kF64HighQuietBit = 0x00080000u;
const uint kF64HighDefaultNaN = 0xFFF80000u;

// ---- Shifts that never shift by 32 or more --------------------------------------------------------

// x >> n, with any nonzero bit shifted out ORed into bit 0 ("jamming"). The result is x / 2^n rounded
// to odd, which rounds correctly to nearest-even later as long as two or more bits below the final
// rounding point remain: every rounding step here keeps at least 7.
uint shiftRightJam32(uint x, uint n) {
  if (n == 0u) return x;
  if (n >= 32u) return x != 0u ? 1u : 0u;
  return (x >> n) | ((x << (32u - n)) != 0u ? 1u : 0u);
}

// 64-bit x >> n, jammed like shiftRightJam32, for any n.
uvec2 shiftRightJam64(uvec2 x, uint n) {
  if (n == 0u) return x;
  if (n >= 64u) return uvec2((x.x | x.y) != 0u ? 1u : 0u, 0u);
  if (n >= 32u) {
    uint m = n - 32u;
    uint lost = x.x | (m == 0u ? 0u : x.y << (32u - m));
    return uvec2((x.y >> m) | (lost != 0u ? 1u : 0u), 0u);
  }
  uint lost = x.x << (32u - n);
  return uvec2((x.x >> n) | (x.y << (32u - n)) | (lost != 0u ? 1u : 0u), x.y >> n);
}

// 64-bit x << n, n < 64.
uvec2 shiftLeft64(uvec2 x, uint n) {
  if (n == 0u) return x;
  if (n >= 32u) return uvec2(0u, x.x << (n - 32u));
  return uvec2(x.x << n, (x.y << n) | (x.x >> (32u - n)));
}

uvec2 add64(uvec2 a, uvec2 b) {
  uint carry;
  uint low = uaddCarry(a.x, b.x, carry);
  return uvec2(low, a.y + b.y + carry);
}

uvec2 sub64(uvec2 a, uvec2 b) {
  uint borrow;
  uint low = usubBorrow(a.x, b.x, borrow);
  return uvec2(low, a.y - b.y - borrow);
}

// Index of the highest set bit of a nonzero 64-bit value.
int findMSB64(uvec2 x) { return x.y != 0u ? 32 + findMSB(x.y) : findMSB(x.x); }

// The full 128-bit product of two 64-bit values, as uvec4(word 0 (lowest), word 1, word 2, word 3).
uvec4 mul64x64(uvec2 a, uvec2 b) {
  uint h00, l00, h01, l01, h10, l10, h11, l11;
  umulExtended(a.x, b.x, h00, l00);
  umulExtended(a.x, b.y, h01, l01);
  umulExtended(a.y, b.x, h10, l10);
  umulExtended(a.y, b.y, h11, l11);
  uint c1, c2, c3;
  uint w1 = uaddCarry(h00, l01, c1);
  w1 = uaddCarry(w1, l10, c2);
  uint w2 = uaddCarry(h01, h10, c3);
  uint carry2 = c3;
  w2 = uaddCarry(w2, l11, c3);
  carry2 += c3;
  w2 = uaddCarry(w2, c1 + c2, c3);
  carry2 += c3;
  return uvec4(l00, w1, w2, h11 + carry2);  // the product is below 2^128: no carry out of word 3
}

// ---- Rounding ----------------------------------------------------------------------------------------

// Rounds sign * sig * 2^(exponent - bias - 30) to a binary format of at most 32 bits with
// `fraction_bits` stored fraction bits and `exponent_bits` exponent bits (binary32: 23, 8;
// binary16: 10, 5; bfloat16: 7, 8), bias = 2^(exponent_bits - 1) - 1. `sig` is any value, jammed if
// inexact; `exponent` may lie far outside the format's range (underflow to zero, overflow to inf).
uint roundPackSmall(uint sign, int exponent, uint sig, uint fraction_bits, uint exponent_bits) {
  uint sign_bits = sign << (fraction_bits + exponent_bits);
  if (sig == 0u) return sign_bits;
  // Normalize the leading one to bit 30, where the callers put it (a sum may carry it to 31). Left
  // shifts happen only to exact values or by one bit after a cancellation, and keep the jam meaningful.
  int msb = findMSB(sig);
  if (msb == 31) {
    sig = shiftRightJam32(sig, 1u);
    exponent += 1;
  } else {
    sig <<= uint(30 - msb);
    exponent -= 30 - msb;
  }
  int exponent_all_ones = int((1u << exponent_bits) - 1u);
  if (exponent >= exponent_all_ones) return sign_bits | (uint(exponent_all_ones) << fraction_bits);
  if (exponent < 1) {  // subnormal (or zero): the leading one moves below the hidden-bit position
    sig = shiftRightJam32(sig, uint(1 - exponent));
    exponent = 1;
  }
  uint round_bits = 30u - fraction_bits;
  uint halfway = 1u << (round_bits - 1u);
  uint rest = sig & ((halfway << 1u) - 1u);
  uint significand = sig >> round_bits;
  if (rest > halfway || (rest == halfway && (significand & 1u) != 0u)) significand += 1u;
  // The hidden bit adds one to the exponent field: a subnormal that rounds up to 2^fraction_bits
  // becomes the smallest normal, and a significand that carries to 2^(fraction_bits + 1) bumps the
  // exponent (to infinity from the largest binade), both by plain addition.
  return sign_bits + (uint(exponent - 1) << fraction_bits) + significand;
}

// The binary64 counterpart: rounds sign * sig * 2^(exponent - 1023 - 62), sig a 64-bit value.
uvec2 roundPackF64(uint sign, int exponent, uvec2 sig) {
  uint sign_bits = sign << 31u;
  if ((sig.x | sig.y) == 0u) return uvec2(0u, sign_bits);
  int msb = findMSB64(sig);
  if (msb == 63) {
    sig = shiftRightJam64(sig, 1u);
    exponent += 1;
  } else {
    sig = shiftLeft64(sig, uint(62 - msb));
    exponent -= 62 - msb;
  }
  if (exponent >= 2047) return uvec2(0u, sign_bits | kF64HighInfinity);
  if (exponent < 1) {
    sig = shiftRightJam64(sig, uint(1 - exponent));
    exponent = 1;
  }
  uint rest = sig.x & 0x3FFu;  // 10 bits below the 53-bit significand
  uvec2 significand = uvec2((sig.x >> 10u) | (sig.y << 22u), sig.y >> 10u);
  if (rest > 0x200u || (rest == 0x200u && (significand.x & 1u) != 0u)) significand = add64(significand, uvec2(1u, 0u));
  return uvec2(significand.x, sign_bits + (uint(exponent - 1) << 20u) + significand.y);
}

// ---- binary32 ------------------------------------------------------------------------------------

bool f32IsNaN(uint x) { return (x & kSoftMagnitude) > kF32Infinity; }
bool f32IsInf(uint x) { return (x & kSoftMagnitude) == kF32Infinity; }
bool f32IsZero(uint x) { return (x & kSoftMagnitude) == 0u; }

// SSE: the first NaN operand, quieted.
uint f32PropagateNaN(uint a, uint b) { return (f32IsNaN(a) ? a : b) | kF32QuietBit; }

// A finite value is f32Significand(x) * 2^(f32Exponent(x) - 150): subnormals take exponent 1 and no
// hidden bit, so adding aligns them with normals without a special case.
int f32Exponent(uint x) { return max(int((x >> 23u) & 0xFFu), 1); }
uint f32Significand(uint x) {
  uint fraction = x & 0x7FFFFFu;
  return (x & kF32Infinity) != 0u ? fraction | 0x800000u : fraction;
}

uint f32Add(uint a, uint b) {
  if (f32IsNaN(a) || f32IsNaN(b)) return f32PropagateNaN(a, b);
  if (f32IsInf(a)) return (f32IsInf(b) && a != b) ? kF32DefaultNaN : a;
  if (f32IsInf(b)) return b;
  // Make |a| >= |b| (finite bit patterns order like magnitudes); the result takes a's sign.
  if ((b & kSoftMagnitude) > (a & kSoftMagnitude)) {
    uint t = a;
    a = b;
    b = t;
  }
  int exponent = f32Exponent(a);
  // 7 bits below the significand: the leading one at bit 30, as roundPackSmall expects.
  uint larger = f32Significand(a) << 7u;
  uint smaller = shiftRightJam32(f32Significand(b) << 7u, uint(exponent - f32Exponent(b)));
  bool same_sign = ((a ^ b) & kSoftSignBit) == 0u;
  uint sig = same_sign ? larger + smaller : larger - smaller;
  // An exact zero: -0 only from (-0) + (-0); x + (-x) is +0 in round to nearest.
  if (sig == 0u) return a & b & kSoftSignBit;
  return roundPackSmall(a >> 31u, exponent, sig, 23u, 8u);
}

// A normal binary32 number: exponent bits neither all zeros (zero, subnormal) nor all ones (inf, NaN).
bool f32IsNormal(uint x) {
  uint exponent = x & kF32Infinity;
  return exponent != 0u && exponent != kF32Infinity;
}

// Whether `sum`, a device adder's a + b rounded to nearest even, is f32Add(a, b): Vulkan still lets
// the adder flush subnormals and drop the rules for zeros, infinities and NaNs
// (common/native_float32_add.glsl), so only where the operands and the sum are all normal numbers did
// rounding alone decide the sum. f32AddGivenSum takes it there and the soft add anywhere else.
bool f32SumIsExact(uint a, uint b, uint sum) { return f32IsNormal(a) && f32IsNormal(b) && f32IsNormal(sum); }

uint f32AddGivenSum(uint a, uint b, uint sum) { return f32SumIsExact(a, b, sum) ? sum : f32Add(a, b); }

// -b for subtraction: SSE subss propagates a NaN b before it would flip b's sign, so a NaN keeps it.
uint f32Negated(uint b) { return f32IsNaN(b) ? b : b ^ kSoftSignBit; }

uint f32Sub(uint a, uint b) { return f32Add(a, f32Negated(b)); }

uint f32Mul(uint a, uint b) {
  if (f32IsNaN(a) || f32IsNaN(b)) return f32PropagateNaN(a, b);
  uint sign = (a ^ b) >> 31u;
  bool has_zero = f32IsZero(a) || f32IsZero(b);
  if (f32IsInf(a) || f32IsInf(b)) return has_zero ? kF32DefaultNaN : (sign << 31u) | kF32Infinity;
  if (has_zero) return sign << 31u;
  // Both significands normalized to a leading one at bit 31: the product's high word then holds its
  // leading one at bit 30 or 31 with 7 or more bits below the binary32 significand.
  uint sig_a = f32Significand(a), sig_b = f32Significand(b);
  int shift_a = 31 - findMSB(sig_a), shift_b = 31 - findMSB(sig_b);
  // a * b = sig_a * sig_b * 2^(ea + eb - 300) = high * 2^(ea + eb - shift_a - shift_b + 32 - 300), which
  // is high * 2^(exponent - 157) as roundPackSmall takes it.
  int exponent = f32Exponent(a) + f32Exponent(b) - shift_a - shift_b - 111;
  uint high, low;
  umulExtended(sig_a << uint(shift_a), sig_b << uint(shift_b), high, low);
  return roundPackSmall(sign, exponent, high | (low != 0u ? 1u : 0u), 23u, 8u);
}

// ---- binary64 ------------------------------------------------------------------------------------

bool f64IsNaN(uvec2 x) {
  uint high = x.y & kSoftMagnitude;
  return high > kF64HighInfinity || (high == kF64HighInfinity && x.x != 0u);
}
bool f64IsInf(uvec2 x) { return (x.y & kSoftMagnitude) == kF64HighInfinity && x.x == 0u; }
bool f64IsZero(uvec2 x) { return ((x.y & kSoftMagnitude) | x.x) == 0u; }

uvec2 f64PropagateNaN(uvec2 a, uvec2 b) {
  uvec2 nan = f64IsNaN(a) ? a : b;
  return uvec2(nan.x, nan.y | kF64HighQuietBit);
}

// |a| > |b| for finite values: their bit patterns without the sign, compared as 63-bit integers.
bool f64MagnitudeGreater(uvec2 a, uvec2 b) {
  uint high_a = a.y & kSoftMagnitude, high_b = b.y & kSoftMagnitude;
  return high_a != high_b ? high_a > high_b : a.x > b.x;
}

// A finite value is f64Significand(x) * 2^(f64Exponent(x) - 1075), as for binary32.
int f64Exponent(uvec2 x) { return max(int((x.y >> 20u) & 0x7FFu), 1); }
uvec2 f64Significand(uvec2 x) {
  uint high = x.y & 0xFFFFFu;
  return uvec2(x.x, (x.y & kF64HighInfinity) != 0u ? high | 0x100000u : high);
}

uvec2 f64Add(uvec2 a, uvec2 b) {
  if (f64IsNaN(a) || f64IsNaN(b)) return f64PropagateNaN(a, b);
  if (f64IsInf(a)) return (f64IsInf(b) && a != b) ? uvec2(0u, kF64HighDefaultNaN) : a;
  if (f64IsInf(b)) return b;
  if (f64MagnitudeGreater(b, a)) {
    uvec2 t = a;
    a = b;
    b = t;
  }
  int exponent = f64Exponent(a);
  // 10 bits below the significand: the leading one at bit 62, as roundPackF64 expects.
  uvec2 larger = shiftLeft64(f64Significand(a), 10u);
  uvec2 smaller = shiftRightJam64(shiftLeft64(f64Significand(b), 10u), uint(exponent - f64Exponent(b)));
  bool same_sign = ((a.y ^ b.y) & kSoftSignBit) == 0u;
  uvec2 sig = same_sign ? add64(larger, smaller) : sub64(larger, smaller);
  if ((sig.x | sig.y) == 0u) return uvec2(0u, a.y & b.y & kSoftSignBit);
  return roundPackF64(a.y >> 31u, exponent, sig);
}

// As f32Negated.
uvec2 f64Negated(uvec2 b) { return f64IsNaN(b) ? b : uvec2(b.x, b.y ^ kSoftSignBit); }

uvec2 f64Sub(uvec2 a, uvec2 b) { return f64Add(a, f64Negated(b)); }

uvec2 f64Mul(uvec2 a, uvec2 b) {
  if (f64IsNaN(a) || f64IsNaN(b)) return f64PropagateNaN(a, b);
  uint sign = (a.y ^ b.y) >> 31u;
  bool has_zero = f64IsZero(a) || f64IsZero(b);
  if (f64IsInf(a) || f64IsInf(b)) {
    return has_zero ? uvec2(0u, kF64HighDefaultNaN) : uvec2(0u, (sign << 31u) | kF64HighInfinity);
  }
  if (has_zero) return uvec2(0u, sign << 31u);
  // As in f32Mul: leading ones at bit 63, the high half of the 128-bit product jammed with the low.
  uvec2 sig_a = f64Significand(a), sig_b = f64Significand(b);
  int shift_a = 63 - findMSB64(sig_a), shift_b = 63 - findMSB64(sig_b);
  // a * b = high * 2^(ea + eb - shift_a - shift_b + 64 - 2150) = high * 2^(exponent - 1085).
  int exponent = f64Exponent(a) + f64Exponent(b) - shift_a - shift_b - 1001;
  uvec4 product = mul64x64(shiftLeft64(sig_a, uint(shift_a)), shiftLeft64(sig_b, uint(shift_b)));
  uint jam = (product.x | product.y) != 0u ? 1u : 0u;
  return roundPackF64(sign, exponent, uvec2(product.z | jam, product.w));
}

// ---- binary16 and bfloat16 (in the low 16 bits) ---------------------------------------------------

uint f32ToF16(uint f) {
  uint sign = f >> 31u;
  if (f32IsNaN(f)) return (sign << 15u) | 0x7E00u | ((f & 0x7FFFFFu) >> 13u);  // quiet, top payload bits
  if (f32IsInf(f)) return (sign << 15u) | 0x7C00u;
  // f32Significand << 7 puts the leading one at bit 30; 127 - 15 = 112 rebiases.
  return roundPackSmall(sign, f32Exponent(f) - 112, f32Significand(f) << 7u, 10u, 5u);
}

uint f32ToBf16(uint f) {
  if (f32IsNaN(f)) return (f >> 16u) | 0x0040u;
  if (f32IsInf(f)) return f >> 16u;
  return roundPackSmall(f >> 31u, f32Exponent(f), f32Significand(f) << 7u, 7u, 8u);
}

#endif
