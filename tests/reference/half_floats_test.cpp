// The CPU reference's float16 and bfloat16 conversions, without a device: every pattern widens exactly
// and narrows back to itself (NaNs quieted), every midpoint between neighbours rounds to the even one
// and its float neighbours to the nearer one, and hand-picked cases (ties, overflow to inf, the
// subnormal range, NaN payloads) give the bits written out from the encodings.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "support/bit_cast.hpp"
#include "support/half_floats.hpp"

namespace vkindex::test {
namespace {

float floatOf(uint32_t bits) { return bitCast<float>(bits); }

// For every positive finite pattern i < last of a 16-bit format and its successor (for `last`, the
// value `beyond_last` where the next binade would start): the midpoint narrows to the even pattern and
// the floats either side of it to the nearer one, for both signs. The midpoint is exact in float32.
void expectMidpointsRoundToEven(float (*widen)(uint16_t), uint16_t (*narrow)(float), uint32_t last, float beyond_last) {
  for (uint32_t i = 0; i <= last; ++i) {
    const auto low = static_cast<uint16_t>(i), high = static_cast<uint16_t>(i + 1);
    const float below = widen(low), above = i == last ? beyond_last : widen(high);
    const float mid = below + (above - below) / 2;
    const uint16_t even = (i & 1u) ? high : low;
    for (const float sign : {1.0f, -1.0f}) {
      const auto sign_bit = static_cast<uint16_t>(sign < 0 ? 0x8000u : 0u);
      ASSERT_EQ(narrow(sign * mid), even | sign_bit) << std::hex << i;
      ASSERT_EQ(narrow(sign * std::nextafter(mid, 0.0f)), low | sign_bit) << std::hex << i;
      ASSERT_EQ(narrow(sign * std::nextafter(mid, INFINITY)), high | sign_bit) << std::hex << i;
    }
  }
}

bool halfIsNaN(uint16_t bits) { return (bits & 0x7C00u) == 0x7C00u && (bits & 0x3FFu) != 0u; }
bool bfloat16IsNaN(uint16_t bits) { return (bits & 0x7F80u) == 0x7F80u && (bits & 0x7Fu) != 0u; }

// A float16 pattern's value from its fields, computed independently in double.
double halfValue(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  const double magnitude = exponent == 0    ? std::ldexp(mantissa, -24)
                           : exponent == 31 ? (mantissa != 0 ? NAN : INFINITY)
                                            : std::ldexp(mantissa | 0x400, exponent - 25);
  return (bits & 0x8000u) ? -magnitude : magnitude;
}

TEST(HalfFloatsTest, EveryHalfWidensExactlyAndNarrowsBack) {
  for (uint32_t i = 0; i <= 0xFFFFu; ++i) {
    const auto bits = static_cast<uint16_t>(i);
    const float wide = halfToFloat(bits);
    if (halfIsNaN(bits)) {
      ASSERT_TRUE(std::isnan(wide)) << std::hex << i;
      // Sign and payload kept, shifted into place; the way back sets the quiet bit.
      ASSERT_EQ(bitsOf(wide), (i & 0x8000u) << 16 | 0x7F800000u | (i & 0x3FFu) << 13) << std::hex << i;
      ASSERT_EQ(floatToHalf(wide), bits | 0x0200u) << std::hex << i;
    } else {
      ASSERT_EQ(static_cast<double>(wide), halfValue(bits)) << std::hex << i;
      ASSERT_EQ(std::signbit(wide), (i & 0x8000u) != 0u) << std::hex << i;
      ASSERT_EQ(floatToHalf(wide), bits) << std::hex << i;
    }
  }
}

TEST(HalfFloatsTest, EveryHalfMidpointRoundsToEven) {
  // After 65504 (0x7BFF) the next binade would start at 65536: its midpoint 65520 rounds to inf.
  expectMidpointsRoundToEven(halfToFloat, floatToHalf, 0x7BFFu, 65536.0f);
}

TEST(HalfFloatsTest, HalfRoundingCases) {
  struct Case {
    float value;
    uint16_t bits;
  };
  const Case cases[] = {
      {1.0f + std::ldexp(1.0f, -11), 0x3C00},                          // a tie: down to even
      {1.0f + 3 * std::ldexp(1.0f, -11), 0x3C02},                      // a tie: up to even
      {1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20), 0x3C01},  // just above the tie
      {65504.0f, 0x7BFF},                                              // the largest finite half
      {65519.99f, 0x7BFF},                                             // below the midpoint to 65536
      {65520.0f, 0x7C00},                                              // the midpoint: to even, inf
      {-65520.0f, 0xFC00},                                             //
      {1e10f, 0x7C00},                                                 // far beyond
      {INFINITY, 0x7C00},                                              //
      {-INFINITY, 0xFC00},                                             //
      {std::ldexp(1.0f, -14), 0x0400},                                 // the smallest normal
      {std::ldexp(1.0f, -14) - std::ldexp(1.0f, -25), 0x0400},         // a tie up into the normals
      {std::ldexp(1.0f, -24), 0x0001},                                 // the smallest subnormal
      {std::ldexp(1.0f, -25), 0x0000},                                 // half of it: a tie, to zero
      {std::nextafter(std::ldexp(1.0f, -25), 1.0f), 0x0001},           // just above: up
      {3 * std::ldexp(1.0f, -25), 0x0002},                             // 1.5 units: a tie, to 2
      {-5 * std::ldexp(1.0f, -25), 0x8002},                            // -2.5 units: a tie, to -2
      {1e-40f, 0x0000},                                                // a float subnormal
      {-1e-40f, 0x8000},                                               //
      {-0.0f, 0x8000},                                                 //
      {floatOf(0x7FC00000u), 0x7E00},                                  // NaNs: quiet, top payload
      {floatOf(0xFFC00001u), 0xFE00},                                  // low payload bits dropped
      {floatOf(0x7F800001u), 0x7E00},                                  // sNaN: quiet, never inf
      {floatOf(0x7FBFE000u), 0x7FFF},                                  // every kept payload bit
  };
  for (const Case& c : cases) {
    EXPECT_EQ(floatToHalf(c.value), c.bits) << std::hex << "float 0x" << bitsOf(c.value);
  }
}

TEST(BFloat16Test, EveryBFloat16WidensExactlyAndNarrowsBack) {
  for (uint32_t i = 0; i <= 0xFFFFu; ++i) {
    const auto bits = static_cast<uint16_t>(i);
    const float wide = bfloat16ToFloat(bits);
    ASSERT_EQ(bitsOf(wide), i << 16) << std::hex << i;
    ASSERT_EQ(floatToBFloat16(wide), bfloat16IsNaN(bits) ? bits | 0x0040u : bits) << std::hex << i;
  }
}

TEST(BFloat16Test, EveryBFloat16MidpointRoundsToEven) {
  // The step from the largest finite value to inf (2^128 is no float) is a case below.
  expectMidpointsRoundToEven(bfloat16ToFloat, floatToBFloat16, 0x7F7Eu, bfloat16ToFloat(0x7F7F));
}

TEST(BFloat16Test, BFloat16RoundingCases) {
  struct Case {
    uint32_t float_bits;
    uint16_t bits;
  };
  const Case cases[] = {
      {0x3F808000u, 0x3F80},  // 1 + 2^-8: a tie, down to even
      {0x3F818000u, 0x3F82},  // 1 + 3 x 2^-8: a tie, up to even
      {0x3F808001u, 0x3F81},  // just above the tie
      {0x7F7F7FFFu, 0x7F7F},  // below the midpoint to 2^128
      {0x7F7F8000u, 0x7F80},  // the midpoint: to even, inf
      {0x7F7FFFFFu, 0x7F80},  // the largest float
      {0xFF7FFFFFu, 0xFF80},  //
      {0x00008000u, 0x0000},  // half the smallest subnormal bfloat16: a tie, to zero
      {0x00018000u, 0x0002},  // 1.5 units: a tie, to 2
      {0x80000001u, 0x8000},  // the smallest negative float subnormal: -0
      {0x7FC00000u, 0x7FC0},  // NaNs: quiet, top payload
      {0x7F800001u, 0x7FC0},  // sNaN: quiet, never inf
      {0xFF810000u, 0xFFC1},  //
      {0x7FBF0000u, 0x7FFF},  //
  };
  for (const Case& c : cases) {
    EXPECT_EQ(floatToBFloat16(floatOf(c.float_bits)), c.bits) << std::hex << "float 0x" << c.float_bits;
  }
}

}  // namespace
}  // namespace vkindex::test
