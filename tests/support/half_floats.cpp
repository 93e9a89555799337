#include "support/half_floats.hpp"

#include "support/bit_cast.hpp"

namespace vkindex::test {
namespace {

// `significand` >> `shift` (1 <= shift <= 31), rounded to nearest even.
uint32_t shiftRoundedToEven(uint32_t significand, uint32_t shift) {
  const uint32_t kept = significand >> shift;
  const uint32_t rest = significand & ((1u << shift) - 1u);
  const uint32_t halfway = 1u << (shift - 1u);
  return rest > halfway || (rest == halfway && (kept & 1u) != 0u) ? kept + 1u : kept;
}

}  // namespace

float halfToFloat(uint16_t bits) {
  const uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1Fu;
  uint32_t mantissa = bits & 0x3FFu;
  if (exponent == 0x1Fu) return bitCast<float>(sign | 0x7F800000u | mantissa << 13);  // inf, NaN (payload kept)
  if (exponent != 0u) return bitCast<float>(sign | (exponent + 127u - 15u) << 23 | mantissa << 13);
  if (mantissa == 0u) return bitCast<float>(sign);
  // A subnormal, mantissa x 2^-24: normalize so the leading one reaches bit 10 (2^-14 x 1.f).
  uint32_t shift = 0;
  while ((mantissa & 0x400u) == 0u) {
    mantissa <<= 1;
    ++shift;
  }
  return bitCast<float>(sign | (127u - 14u - shift) << 23 | (mantissa & 0x3FFu) << 13);
}

uint16_t floatToHalf(float value) {
  const uint32_t bits = bitCast<uint32_t>(value);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t exponent = (bits >> 23) & 0xFFu;
  const uint32_t mantissa = bits & 0x7FFFFFu;
  if (exponent == 0xFFu) {
    return static_cast<uint16_t>(mantissa != 0u ? sign | 0x7E00u | mantissa >> 13 : sign | 0x7C00u);
  }
  const int e = static_cast<int>(exponent) - 127;  // value = 1.mantissa x 2^e for a normal float
  if (e > 15) return static_cast<uint16_t>(sign | 0x7C00u);
  if (e >= -14) {
    // A normal half, unless rounding carries into the exponent: into the next binade, or to inf from
    // 65520 on (0x7BFF + 1 = 0x7C00), both right by construction of the encoding.
    const uint32_t half = uint32_t(e + 15) << 10 | mantissa >> 13;
    const uint32_t rest = mantissa & 0x1FFFu;
    return static_cast<uint16_t>(sign | (rest > 0x1000u || (rest == 0x1000u && (half & 1u)) ? half + 1u : half));
  }
  // A subnormal half (units of 2^-24) or zero. Float subnormals (below 2^-126) and anything below 2^-25
  // round to zero; 2^-25 itself is a tie that rounds to even (zero).
  if (exponent == 0u || e < -25) return static_cast<uint16_t>(sign);
  const uint32_t significand = mantissa | 0x800000u;  // value = significand x 2^(e - 23)
  // In units of 2^-24: significand x 2^(e + 1), a right shift by -(e + 1) in [14, 24]. A result of
  // 0x400 is the smallest normal half, again right by construction.
  return static_cast<uint16_t>(sign | shiftRoundedToEven(significand, static_cast<uint32_t>(-(e + 1))));
}

float bfloat16ToFloat(uint16_t bits) { return bitCast<float>(uint32_t(bits) << 16); }

uint16_t floatToBFloat16(float value) {
  const uint32_t bits = bitCast<uint32_t>(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>(bits >> 16 | 0x0040u);
  // Round the low 16 bits to nearest even on the pattern itself: exact for subnormals, and a carry out
  // of the largest finite value lands on inf.
  return static_cast<uint16_t>(shiftRoundedToEven(bits, 16));
}

}  // namespace vkindex::test
