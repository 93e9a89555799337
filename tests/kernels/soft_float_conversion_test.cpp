// shaders/common/soft_float.glsl's binary16/bfloat16 <-> binary32 conversions, compiled as C++:
// widening checked on all 65536 inputs, narrowing on every rounding boundary of the narrow formats and
// on random inputs, both against a rounding written independently here in double arithmetic (ilogb
// for the binade, nearbyint for ties to even). Also: binary16/bfloat16 add and mul through binary32
// (as the kernels compute them) are correctly rounded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "soft_float_host.hpp"

namespace vkindex::glsl {
namespace {

// A narrow format: binary16 (10 fraction bits, 5 exponent bits) or bfloat16 (7, 8).
struct Narrow {
  int fraction_bits;
  int exponent_bits;
  uint (*to_f32)(uint);
  uint (*from_f32)(uint);
  const char* name;

  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  uint signBit() const { return 1u << (fraction_bits + exponent_bits); }
  uint infinity() const { return ((1u << exponent_bits) - 1u) << fraction_bits; }
  uint quietBit() const { return 1u << (fraction_bits - 1); }
  bool isNaN(uint h) const { return (h & (signBit() - 1u)) > infinity(); }
};

const Narrow kF16{10, 5, f16ToF32, f32ToF16, "binary16"};
const Narrow kBf16{7, 8, bf16ToF32, f32ToBf16, "bfloat16"};

uint32_t bitsOf(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

float floatOf(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// The exact value of a finite narrow encoding.
double narrowValue(const Narrow& f, uint h) {
  int exponent = static_cast<int>((h >> f.fraction_bits) & ((1u << f.exponent_bits) - 1u));
  double fraction = static_cast<double>(h & (f.quietBit() * 2 - 1));
  double magnitude =
      exponent == 0 ? std::ldexp(fraction, 1 - f.bias() - f.fraction_bits)
                    : std::ldexp(fraction + std::ldexp(1.0, f.fraction_bits), exponent - f.bias() - f.fraction_bits);
  return (h & f.signBit()) != 0 ? -magnitude : magnitude;
}

// The narrow encoding nearest to a finite x, ties to even, computed without bit tricks: in x's binade
// (or the smallest normal one, for subnormals) the spacing is 2^(e - fraction_bits); x / spacing
// rounded to an integer n, and the encoding is ((e - e_min) << fraction_bits) + n, which carries into
// the exponent field (and to infinity) by itself when n reaches 2^(fraction_bits + 1).
uint roundToNarrow(const Narrow& f, double x) {
  uint sign = std::signbit(x) ? f.signBit() : 0u;
  double magnitude = std::fabs(x);
  if (magnitude == 0) return sign;
  const int min_exponent = 1 - f.bias();
  int e = std::max(std::ilogb(magnitude), min_exponent);
  double n = std::nearbyint(std::ldexp(magnitude, f.fraction_bits - e));  // exact scaling, then ties to even
  uint64_t bits = (uint64_t(e - min_exponent) << f.fraction_bits) + static_cast<uint64_t>(n);
  return sign | static_cast<uint>(std::min<uint64_t>(bits, f.infinity()));
}

// The agreed narrowing of any binary32 value: NaNs keep their sign and top payload bits and become
// quiet; everything else rounds.
uint expectedNarrowing(const Narrow& f, uint32_t x) {
  if (std::isnan(floatOf(x))) {
    uint sign = (x >> 31) != 0 ? f.signBit() : 0u;
    return sign | f.infinity() | f.quietBit() | ((x & 0x7FFFFFu) >> (23 - f.fraction_bits));
  }
  if (std::isinf(floatOf(x))) return ((x >> 31) != 0 ? f.signBit() : 0u) | f.infinity();
  return roundToNarrow(f, static_cast<double>(floatOf(x)));
}

class Counter {
 public:
  void expectEq(const char* what, uint32_t input, uint got, uint want) {
    ++cases_;
    if (got != want && ++failures_ <= 20) {
      ADD_FAILURE() << std::hex << what << "(0x" << input << "): got 0x" << got << ", want 0x" << want;
    }
  }
  void expectNarrowing(const Narrow& f, uint32_t x) { expectEq(f.name, x, f.from_f32(x), expectedNarrowing(f, x)); }
  int64_t cases() const { return cases_; }
  int64_t failures() const { return failures_; }

 private:
  int64_t cases_ = 0;
  int64_t failures_ = 0;
};

// Every encoding widens exactly; NaNs and infinities keep sign and payload (a signalling NaN stays
// signalling: the binary32 operation that follows quiets it). Narrowing back returns the encoding,
// NaNs quieted.
void checkEveryWidening(const Narrow& f) {
  Counter counter;
  for (uint h = 0; h <= 0xFFFFu; ++h) {
    uint32_t widened = f.to_f32(h);
    if (f.isNaN(h) || (h & (f.signBit() - 1u)) == f.infinity()) {
      uint32_t sign = (h & f.signBit()) != 0 ? 0x80000000u : 0u;
      uint32_t payload = (h & (f.quietBit() * 2 - 1)) << (23 - f.fraction_bits);
      counter.expectEq("widen", h, widened, sign | 0x7F800000u | payload);
    } else {
      counter.expectEq("widen", h, widened, bitsOf(static_cast<float>(narrowValue(f, h))));
    }
    counter.expectEq("round trip", h, f.from_f32(widened), f.isNaN(h) ? h | f.quietBit() : h);
  }
  EXPECT_EQ(counter.failures(), 0) << "of " << counter.cases();
}

// For every finite narrow encoding h >= 0 and both signs: the binary32 values at h, at the midpoint to
// the next encoding, and one and two binary32 ulps either side of each.
void checkEveryRoundingBoundary(const Narrow& f) {
  Counter counter;
  for (uint h = 0; h < f.infinity(); ++h) {
    // For the largest finite h, narrowValue(infinity's bits) reads as 2^(max exponent + 1): the
    // overflow threshold is the midpoint to it, as if the exponent range went on.
    double value = narrowValue(f, h), next = narrowValue(f, h + 1);
    for (double point : {value, (value + next) / 2}) {
      uint32_t bits = bitsOf(static_cast<float>(point));
      for (uint32_t delta = 0; delta <= 2; ++delta) {
        for (uint32_t x : {bits + delta, bits - delta}) {
          if ((x & 0x7FFFFFFFu) > 0x7F800000u || (x >> 31) != 0) continue;  // stepped off the positives
          counter.expectNarrowing(f, x);
          counter.expectNarrowing(f, x | 0x80000000u);
        }
      }
    }
  }
  EXPECT_EQ(counter.failures(), 0) << "of " << counter.cases();
}

// Random binary32 inputs: uniform bits, and every exponent with the bits below the narrow
// significand set to a tie, just below or above one, or random.
void checkRandomNarrowing(const Narrow& f, uint64_t seed, int count) {
  Counter counter;
  std::mt19937 engine(static_cast<uint32_t>(seed));
  auto random = [&engine] { return static_cast<uint32_t>(engine()); };
  const int dropped = 23 - f.fraction_bits;
  const uint32_t dropped_mask = (1u << dropped) - 1u, tie = 1u << (dropped - 1);
  for (int i = 0; i < count; ++i) {
    uint32_t x = random();
    counter.expectNarrowing(f, x);
    const uint32_t low_patterns[] = {0u, tie, tie - 1u, tie + 1u, dropped_mask, 1u, x & dropped_mask};
    uint32_t low = low_patterns[random() % 7];
    counter.expectNarrowing(f, (x & ~dropped_mask) | low);
  }
  EXPECT_EQ(counter.failures(), 0) << "of " << counter.cases();
}

// The kernels do binary16/bfloat16 add and mul in binary32 and round once; with 24 >= 2p + 2 that is
// correctly rounded. The reference: the sum or product in double (exact for binary16; for bfloat16
// rounded to 53 bits, which again rounds correctly to 8), rounded here.
void checkArithmeticThroughF32(const Narrow& f, uint64_t seed, int count) {
  Counter counter;
  std::mt19937 engine(static_cast<uint32_t>(seed));
  auto random = [&engine] { return static_cast<uint32_t>(engine()); };
  for (int i = 0; i < count; ++i) {
    uint a = random() & 0xFFFFu, b = random() & 0xFFFFu;
    if (random() % 4 == 0) b = (b & ~(f.infinity())) | (a & f.infinity());  // equal exponents: cancellation
    if ((a & f.infinity()) == f.infinity() || (b & f.infinity()) == f.infinity()) continue;
    double x = narrowValue(f, a), y = narrowValue(f, b);
    uint32_t inputs = (a << 16) | b;
    uint sum = f.from_f32(f32Add(f.to_f32(a), f.to_f32(b)));
    uint product = f.from_f32(f32Mul(f.to_f32(a), f.to_f32(b)));
    // roundToNarrow(0) is +0; IEEE gives -0 only for (-0) + (-0), which the sign check below covers.
    uint want_sum = x + y == 0 ? ((a & b & f.signBit()) != 0 ? f.signBit() : 0u) : roundToNarrow(f, x + y);
    counter.expectEq("add", inputs, sum, want_sum);
    counter.expectEq("mul", inputs, product, roundToNarrow(f, x * y));
  }
  EXPECT_EQ(counter.failures(), 0) << "of " << counter.cases();
}

TEST(SoftFloatConversionTest, F16EveryValueWidens) { checkEveryWidening(kF16); }
TEST(SoftFloatConversionTest, Bf16EveryValueWidens) { checkEveryWidening(kBf16); }
TEST(SoftFloatConversionTest, F16EveryRoundingBoundary) { checkEveryRoundingBoundary(kF16); }
TEST(SoftFloatConversionTest, Bf16EveryRoundingBoundary) { checkEveryRoundingBoundary(kBf16); }
TEST(SoftFloatConversionTest, F16RandomNarrowing) { checkRandomNarrowing(kF16, 16, 1000000); }
TEST(SoftFloatConversionTest, Bf16RandomNarrowing) { checkRandomNarrowing(kBf16, 17, 1000000); }
TEST(SoftFloatConversionTest, F16ArithmeticThroughF32) { checkArithmeticThroughF32(kF16, 18, 500000); }
TEST(SoftFloatConversionTest, Bf16ArithmeticThroughF32) { checkArithmeticThroughF32(kBf16, 19, 500000); }

// Every binary32 exponent and sign, with fraction patterns around the narrow formats' rounding points.
TEST(SoftFloatConversionTest, EveryExponentWithBoundaryFractions) {
  Counter counter;
  for (uint32_t top = 0; top <= 0x1FFu; ++top) {  // sign and exponent
    for (uint32_t fraction :
         {0x000000u, 0x000001u, 0x000FFFu, 0x001000u, 0x001001u, 0x002000u, 0x003000u, 0x007FFFu, 0x008000u, 0x008001u,
          0x010000u, 0x018000u, 0x3FFFFFu, 0x400000u, 0x7FE000u, 0x7FEFFFu, 0x7FF000u, 0x7FFFFFu}) {
      counter.expectNarrowing(kF16, (top << 23) | fraction);
      counter.expectNarrowing(kBf16, (top << 23) | fraction);
    }
  }
  EXPECT_EQ(counter.failures(), 0) << "of " << counter.cases();
}

// The rules spelled out.
TEST(SoftFloatConversionTest, NamedCases) {
  EXPECT_EQ(f32ToF16(0x477FE000u), 0x7BFFu);  // 65504, the largest binary16
  EXPECT_EQ(f32ToF16(0x477FEFFFu), 0x7BFFu);  // just under the midpoint to 65536
  EXPECT_EQ(f32ToF16(0x477FF000u), 0x7C00u);  // 65520: the tie rounds to even, which is infinity
  EXPECT_EQ(f32ToF16(0xC7800000u), 0xFC00u);  // -65536 overflows
  EXPECT_EQ(f32ToF16(0x33800000u), 0x0001u);  // 2^-24, the smallest subnormal
  EXPECT_EQ(f32ToF16(0x33000000u), 0x0000u);  // 2^-25: tie to even zero
  EXPECT_EQ(f32ToF16(0x33000001u), 0x0001u);  // just over
  EXPECT_EQ(f32ToF16(0x33C00000u), 0x0002u);  // 1.5 * 2^-24: tie to even
  EXPECT_EQ(f32ToF16(0x80000001u), 0x8000u);  // a binary32 subnormal becomes -0
  EXPECT_EQ(f32ToF16(0x387FC000u), 0x03FFu);  // the largest subnormal
  EXPECT_EQ(f32ToF16(0x387FE000u), 0x0400u);  // tie above it: rounds up to the smallest normal
  EXPECT_EQ(f32ToF16(0x7F800001u), 0x7E00u);  // signalling NaN: quieted, payload's top bits (none) kept
  EXPECT_EQ(f32ToF16(0xFF802000u), 0xFE01u);
  EXPECT_EQ(f32ToF16(0x7FFFFFFFu), 0x7FFFu);
  EXPECT_EQ(f16ToF32(0x0001u), 0x33800000u);
  EXPECT_EQ(f16ToF32(0x83FFu), 0xB87FC000u);
  EXPECT_EQ(f16ToF32(0x7C01u), 0x7F802000u);   // signalling NaN stays signalling
  EXPECT_EQ(f32ToBf16(0x7F7FFFFFu), 0x7F80u);  // the largest binary32 rounds to infinity
  EXPECT_EQ(f32ToBf16(0x7F7F7FFFu), 0x7F7Fu);
  EXPECT_EQ(f32ToBf16(0x3F808000u), 0x3F80u);  // tie to even
  EXPECT_EQ(f32ToBf16(0x3F818000u), 0x3F82u);  // tie to even
  EXPECT_EQ(f32ToBf16(0x00008000u), 0x0000u);  // subnormal tie to even zero
  EXPECT_EQ(f32ToBf16(0x00018000u), 0x0002u);
  EXPECT_EQ(f32ToBf16(0x7F800001u), 0x7FC0u);  // NaN: top bits, quieted
  EXPECT_EQ(f32ToBf16(0xFF810000u), 0xFFC1u);
  EXPECT_EQ(bf16ToF32(0xFF81u), 0xFF810000u);
  EXPECT_EQ(bf16ToF32(0x12345678u), 0x56780000u);  // only the low 16 bits count
}

}  // namespace
}  // namespace vkindex::glsl
