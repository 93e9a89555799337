// shaders/common/soft_float.glsl's add, subtract and multiply, compiled as C++, against the host FPU
// (x86-64 SSE: IEEE, round to nearest even, no flushing) bit for bit. Where the host result is a NaN
// the expected bits come from the agreed NaN rule instead, so the test does not depend on the host's
// payload choices. Operands: every pair of special values, then millions of pairs from a generator
// weighted toward the hard cases (cancellation, alignment shifts around the significand width,
// subnormal results, overflow, ties).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "soft_float_host.hpp"

namespace vkindex::glsl {
namespace {

enum class Op { kAdd, kSub, kMul };

const char* opName(Op op) { return op == Op::kAdd ? "add" : op == Op::kSub ? "sub" : "mul"; }

// A format's layout, the GLSL entry points for it, and the host type that computes it.
struct Binary32 {
  using Bits = uint32_t;
  using Float = float;
  static constexpr int kFractionBits = 23;
  static constexpr int kExponentAllOnes = 255;
  static constexpr int kBias = 127;
  static constexpr Bits kDefaultNaN = 0xFFC00000u;
  static Bits soft(Op op, Bits a, Bits b) {
    return op == Op::kAdd ? f32Add(a, b) : op == Op::kSub ? f32Sub(a, b) : f32Mul(a, b);
  }
};

struct Binary64 {
  using Bits = uint64_t;
  using Float = double;
  static constexpr int kFractionBits = 52;
  static constexpr int kExponentAllOnes = 2047;
  static constexpr int kBias = 1023;
  static constexpr Bits kDefaultNaN = 0xFFF8000000000000u;
  static Bits soft(Op op, Bits a, Bits b) {
    uvec2 x(static_cast<uint>(a), static_cast<uint>(a >> 32));
    uvec2 y(static_cast<uint>(b), static_cast<uint>(b >> 32));
    uvec2 r = op == Op::kAdd ? f64Add(x, y) : op == Op::kSub ? f64Sub(x, y) : f64Mul(x, y);
    return (uint64_t{r.y} << 32) | r.x;
  }
};

template <class F>
struct Fields {
  using Bits = typename F::Bits;
  static constexpr Bits kFractionMask = (Bits{1} << F::kFractionBits) - 1;
  static constexpr Bits kQuietBit = Bits{1} << (F::kFractionBits - 1);
  static constexpr Bits kSign = Bits{1} << (sizeof(Bits) * 8 - 1);
  static constexpr Bits kInfinity = Bits(F::kExponentAllOnes) << F::kFractionBits;

  static Bits make(bool negative, int exponent, Bits fraction) {
    return (negative ? kSign : 0) | (Bits(exponent) << F::kFractionBits) | (fraction & kFractionMask);
  }
  static bool isNaN(Bits x) { return (x & ~kSign) > kInfinity; }
};

// What the kernels must produce: the host's IEEE result, with the NaN rule applied explicitly (a NaN
// `a` quieted, else a NaN `b` quieted, else the default NaN; subtraction does not negate a NaN `b`).
template <class F>
typename F::Bits expected(Op op, typename F::Bits a, typename F::Bits b) {
  using Float = typename F::Float;
  Float x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  Float r = op == Op::kAdd ? x + y : op == Op::kSub ? x - y : x * y;
  if (std::isnan(r)) {
    if (Fields<F>::isNaN(a)) return a | Fields<F>::kQuietBit;
    if (Fields<F>::isNaN(b)) return b | Fields<F>::kQuietBit;
    return F::kDefaultNaN;
  }
  typename F::Bits bits;
  std::memcpy(&bits, &r, sizeof bits);
  return bits;
}

// Counts cases and reports the first few mismatches in hex.
template <class F>
class Checker {
 public:
  void check(Op op, typename F::Bits a, typename F::Bits b) {
    ++cases_;
    typename F::Bits want = expected<F>(op, a, b), got = F::soft(op, a, b);
    if (got != want && ++failures_ <= 20) {
      ADD_FAILURE() << std::hex << opName(op) << "(0x" << a << ", 0x" << b << "): got 0x" << got << ", want 0x" << want;
    }
  }
  void checkAllOps(typename F::Bits a, typename F::Bits b) {
    for (Op op : {Op::kAdd, Op::kSub, Op::kMul}) check(op, a, b);
  }
  int64_t cases() const { return cases_; }
  int64_t failures() const { return failures_; }

 private:
  int64_t cases_ = 0;
  int64_t failures_ = 0;
};

// Zeros, the subnormal and normal extremes, values around 1, the largest finite values, infinities,
// and quiet and signalling NaNs with payloads; each with both signs.
template <class F>
std::vector<typename F::Bits> specialValues() {
  using Bits = typename F::Bits;
  using L = Fields<F>;
  const Bits mask = L::kFractionMask, quiet = L::kQuietBit;
  const int bias = F::kBias, top = F::kExponentAllOnes;
  // clang-format off
  const std::pair<int, Bits> magnitudes[] = {
      {0, 0}, {0, 1}, {0, 2}, {0, mask},                         // zero, subnormals
      {1, 0}, {1, 1},                                            // smallest normals
      {bias - 1, 0}, {bias, 0}, {bias, 1}, {bias, quiet},        // 0.5, 1, 1 + ulp, 1.5
      {bias, mask}, {bias + 1, 0},                               // 2 - ulp, 2
      {top - 1, 0}, {top - 1, mask - 1}, {top - 1, mask},        // largest binade
      {top, 0},                                                  // infinity
      {top, quiet}, {top, quiet | 0x12345}, {top, mask},         // quiet NaNs
      {top, 1}, {top, quiet >> 1}, {top, quiet - 1}};            // signalling NaNs
  // clang-format on
  std::vector<Bits> values;
  for (bool negative : {false, true}) {
    for (auto [exponent, fraction] : magnitudes) values.push_back(L::make(negative, exponent, fraction));
  }
  return values;
}

// Operand pairs weighted toward the cases a soft-float implementation gets wrong.
template <class F>
class HardCaseGenerator {
 public:
  using Bits = typename F::Bits;
  using L = Fields<F>;
  static constexpr int kN = F::kFractionBits;
  static constexpr int kTop = F::kExponentAllOnes;
  static constexpr int kBias = F::kBias;

  explicit HardCaseGenerator(uint64_t seed) : engine_(seed) {}

  std::pair<Bits, Bits> addPair() {
    bool sign_a = coin(), sign_b = coin();
    int ea = exponent();
    switch (uniform(0, 9)) {
      case 0:  // independent
        return {make(sign_a, ea), make(sign_b, exponent())};
      case 1:  // near exponents, mostly opposite signs: cancellation
        return {make(sign_a, ea), make(uniform(0, 3) == 0 ? sign_a : !sign_a, ea + uniform(-2, 2))};
      case 2: {  // -a plus a small change in the last bits: massive cancellation, tiny results
        Bits a = make(sign_a, ea);
        Bits b = (a ^ L::kSign) + Bits(uniform(-4, 4));
        return {a, L::isNaN(b) ? a : b};
      }
      case 3:  // shifted just across the significand: guard, round and sticky bits, and ties
        return {make(sign_a, ea), make(sign_b, ea + plusOrMinus(uniform(kN - 1, kN + 4)))};
      case 4:  // far apart: only the sticky bit remains
        return {make(sign_a, ea), make(sign_b, ea + plusOrMinus(uniform(kN + 5, kTop)))};
      case 5:  // subnormal operands and results
        return {make(sign_a, uniform(0, 2)), make(sign_b, uniform(0, 2))};
      case 6:  // around the overflow threshold
        return {make(sign_a, uniform(kTop - 3, kTop - 1)), make(uniform(0, 3) == 0 ? !sign_a : sign_a, kTop - 1)};
      case 7:  // random bits
        return {randomBits(), randomBits()};
      default:  // a special value with a random one
        return coin() ? std::pair{special(), make(sign_b, ea)} : std::pair{make(sign_a, ea), special()};
    }
  }

  std::pair<Bits, Bits> mulPair() {
    bool sign_a = coin(), sign_b = coin();
    int ea = exponent();
    const int min_normal = 1 - kBias, max_normal = kTop - 1 - kBias;
    switch (uniform(0, 7)) {
      case 0:  // independent
        return {make(sign_a, ea), make(sign_b, exponent())};
      case 1:  // product near and below the smallest normal: subnormal results, underflow to zero
        return {make(sign_a, ea), make(sign_b, exponentFor(min_normal + uniform(-kN - 3, 2), ea))};
      case 2:  // product near the largest binade: overflow, and rounding up into it
        return {make(sign_a, ea), make(sign_b, exponentFor(max_normal + uniform(-2, 1), ea))};
      case 3:  // a power of two: exact scaling, ties when a subnormal result loses bits
        return {make(sign_a, ea), L::make(sign_b, exponent(), 0)};
      case 4:  // subnormal times anything
        return {make(sign_a, 0), make(sign_b, exponent())};
      case 5: return {randomBits(), randomBits()};
      default: return coin() ? std::pair{special(), make(sign_b, ea)} : std::pair{make(sign_a, ea), special()};
    }
  }

 private:
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine_); }
  bool coin() { return (engine_() & 1) != 0; }
  int plusOrMinus(int d) { return coin() ? d : -d; }
  Bits randomBits() { return static_cast<Bits>(engine_()); }
  static Bits lowMask(int bits) { return bits >= kN ? L::kFractionMask : (Bits{1} << bits) - 1; }

  // A finite biased exponent: anywhere, tiny, huge, or around 1.
  int exponent() {
    switch (uniform(0, 3)) {
      case 0: return uniform(0, kTop - 1);
      case 1: return uniform(0, 3);
      case 2: return uniform(kTop - 4, kTop - 1);
      default: return kBias + uniform(-kN - 2, kN + 2);
    }
  }
  // The exponent b needs for a * b to land near unbiased exponent `target`.
  int exponentFor(int target, int ea) { return target + kBias - (ea - kBias); }

  // Fractions with structure: few significant bits (exact products, ties), trailing ones, leading
  // zeros (short subnormals), extremes, single bits.
  Bits fraction() {
    Bits r = randomBits() & L::kFractionMask;
    switch (uniform(0, 5)) {
      case 0: return r;
      case 1: return r & ~lowMask(uniform(0, kN));
      case 2: return r | lowMask(uniform(0, kN));
      case 3: return r & lowMask(uniform(0, kN));
      case 4: {
        const Bits extremes[] = {0, 1, L::kFractionMask, L::kFractionMask - 1, L::kQuietBit};
        return extremes[uniform(0, 4)];
      }
      default: return Bits{1} << uniform(0, kN - 1);
    }
  }

  // A finite operand; out-of-range exponents are clamped to the finite range.
  Bits make(bool negative, int biased_exponent) {
    return L::make(negative, std::clamp(biased_exponent, 0, kTop - 1), fraction());
  }

  Bits special() {
    static const std::vector<Bits> values = specialValues<F>();
    return values[static_cast<size_t>(uniform(0, static_cast<int>(values.size()) - 1))];
  }

  std::mt19937_64 engine_;
};

template <class F>
void checkSpecialPairs() {
  Checker<F> checker;
  const std::vector<typename F::Bits> values = specialValues<F>();
  for (auto a : values) {
    for (auto b : values) checker.checkAllOps(a, b);
  }
  EXPECT_EQ(checker.failures(), 0) << "of " << checker.cases();
}

template <class F>
void checkHardCases(uint64_t seed, int add_pairs, int sub_pairs, int mul_pairs) {
  Checker<F> checker;
  HardCaseGenerator<F> generator(seed);
  for (int i = 0; i < add_pairs; ++i) {
    auto [a, b] = generator.addPair();
    checker.check(Op::kAdd, a, b);
  }
  for (int i = 0; i < sub_pairs; ++i) {
    auto [a, b] = generator.addPair();
    checker.check(Op::kSub, a, b);
  }
  for (int i = 0; i < mul_pairs; ++i) {
    auto [a, b] = generator.mulPair();
    checker.check(Op::kMul, a, b);
  }
  EXPECT_EQ(checker.failures(), 0) << "of " << checker.cases();
}

// The reference is only as good as the host: x86-64 SSE keeps subnormals unless FTZ/DAZ is set.
TEST(SoftFloatArithmeticTest, HostKeepsSubnormals) {
  volatile float tiny = 1e-45f;  // the smallest subnormal
  volatile double tiny_double = 5e-324;
  EXPECT_NE(tiny * 1.0f, 0.0f);
  EXPECT_NE(tiny + tiny, 0.0f);
  EXPECT_NE(tiny_double * 1.0, 0.0);
}

TEST(SoftFloatArithmeticTest, Binary32SpecialValuePairs) { checkSpecialPairs<Binary32>(); }
TEST(SoftFloatArithmeticTest, Binary64SpecialValuePairs) { checkSpecialPairs<Binary64>(); }

TEST(SoftFloatArithmeticTest, Binary32HardCases) { checkHardCases<Binary32>(32, 1500000, 500000, 1500000); }
TEST(SoftFloatArithmeticTest, Binary64HardCases) { checkHardCases<Binary64>(64, 1500000, 500000, 1500000); }

// What a Vulkan device with round to nearest even may return for a float32 a + b
// (common/native_float32_add.glsl): for normal operands, the correctly rounded sum, except that a
// subnormal or zero sum may come back as either zero (flushed, or the zero's sign not kept); for any
// other operands, anything at all (subnormal operands flushed first, or NaN and infinity rules
// dropped), here the flushed operands' sum and a few values of every kind, normal ones included.
std::vector<uint32_t> deviceSums(uint32_t a, uint32_t b, uint32_t exact) {
  using L = Fields<Binary32>;
  const auto normal = [](uint32_t x) {
    const uint32_t exponent = x & L::kInfinity;
    return exponent != 0 && exponent != L::kInfinity;
  };
  if (normal(a) && normal(b)) {
    if (normal(exact) || (exact & ~L::kSign) == L::kInfinity) return {exact};
    return {exact, 0x00000000u, 0x80000000u};
  }
  const auto flushed = [&](uint32_t x) { return (x & L::kInfinity) == 0 ? x & L::kSign : x; };
  return {exact,       expected<Binary32>(Op::kAdd, flushed(a), flushed(b)),
          0x00000000u, 0x80000000u,
          0x7FC00000u, 0x7F800000u,
          0x3F800000u, 0x00800000u,
          exact ^ 1u};
}

// f32AddGivenSum keeps a device's sum only where Vulkan binds the device to the soft add's bits: every
// special pair and 2M hard cases, each against every sum deviceSums allows, give the IEEE result.
TEST(SoftFloatArithmeticTest, Binary32AddGivenADevicesSumTrustsItOnlyWhereVulkanBindsIt) {
  int64_t cases = 0, failures = 0;
  const auto check = [&](uint32_t a, uint32_t b) {
    const uint32_t exact = expected<Binary32>(Op::kAdd, a, b);
    for (uint32_t sum : deviceSums(a, b, exact)) {
      ++cases;
      const uint32_t got = f32AddGivenSum(a, b, sum);
      if (got != exact && ++failures <= 20) {
        ADD_FAILURE() << std::hex << "f32AddGivenSum(0x" << a << ", 0x" << b << ", 0x" << sum << "): got 0x" << got
                      << ", want 0x" << exact;
      }
    }
  };
  const std::vector<uint32_t> values = specialValues<Binary32>();
  for (uint32_t a : values) {
    for (uint32_t b : values) check(a, b);
  }
  HardCaseGenerator<Binary32> generator(3232);
  for (int i = 0; i < 2000000; ++i) {
    auto [a, b] = generator.addPair();
    check(a, b);
  }
  EXPECT_EQ(failures, 0) << "of " << cases;
}

// Significand pairs whose 128-bit product makes word 2's partial sum wrap on the carry from word 1
// (bits 64..95 of the aligned product end up zero), which random operands reach with probability near
// 2^-32. Found by trying b = ceil(q * 2^74 / a) over consecutive q for random 53-bit a. The carry does
// not depend on exponents or signs, so each pair is also checked scaled to a subnormal product.
TEST(SoftFloatArithmeticTest, Binary64ProductCarryChains) {
  const std::pair<uint64_t, uint64_t> pairs[] = {{0x3FFDCF4BF4BEA973u, 0x3FF0000131F16508u},
                                                 {0x3FFD95BAF2A4D27Bu, 0x3FF00002C18D8677u},
                                                 {0x3FF177210E7A269Fu, 0x3FF0000052784B93u},
                                                 {0x3FF5C6E415BA2BDDu, 0x3FF00000075D2C4Du},
                                                 {0x3FF2B491D5E34124u, 0x3FF0000F38BC3539u}};
  const uint64_t fraction_mask = Fields<Binary64>::kFractionMask;
  Checker<Binary64> checker;
  for (auto [a, b] : pairs) {
    for (int exponent_a : {1023, 1, 500}) {
      for (int exponent_b : {1023, 1000, 2}) {
        uint64_t x = Fields<Binary64>::make(false, exponent_a, a & fraction_mask);
        uint64_t y = Fields<Binary64>::make(true, exponent_b, b & fraction_mask);
        checker.check(Op::kMul, x, y);
        checker.check(Op::kMul, y, x);
      }
    }
  }
  EXPECT_EQ(checker.failures(), 0) << "of " << checker.cases();
}

// The rules spelled out, so a reader sees them without the generator.
TEST(SoftFloatArithmeticTest, Binary32NamedCases) {
  EXPECT_EQ(f32Add(0x3F800000u, 0xBF800000u), 0x00000000u);  // 1 + (-1) = +0
  EXPECT_EQ(f32Add(0x80000000u, 0x80000000u), 0x80000000u);  // (-0) + (-0) = -0
  EXPECT_EQ(f32Sub(0x80000000u, 0x00000000u), 0x80000000u);  // (-0) - (+0) = -0
  EXPECT_EQ(f32Add(0x00000001u, 0x80000000u), 0x00000001u);  // subnormals are kept
  EXPECT_EQ(f32Add(0x00400000u, 0x00400000u), 0x00800000u);  // two subnormals make the smallest normal
  EXPECT_EQ(f32Mul(0x00000001u, 0x3F000000u), 0x00000000u);  // min subnormal / 2: tie to even zero
  EXPECT_EQ(f32Mul(0x00000003u, 0x3F000000u), 0x00000002u);  // 1.5 * min subnormal: tie to even
  EXPECT_EQ(f32Add(0x7F7FFFFFu, 0x73000000u), 0x7F800000u);  // max + half an ulp: tie to even = inf
  EXPECT_EQ(f32Add(0x7F7FFFFFu, 0x72FFFFFFu), 0x7F7FFFFFu);  // just under half an ulp
  EXPECT_EQ(f32Add(0x3F800000u, 0x33800000u), 0x3F800000u);  // 1 + 2^-24: tie to even 1
  EXPECT_EQ(f32Add(0x3F800000u, 0x33800001u), 0x3F800001u);  // sticky bit breaks the tie
  EXPECT_EQ(f32Sub(0x3F800000u, 0x33800001u), 0x3F7FFFFFu);  // borrow from the sticky bit
  EXPECT_EQ(f32Add(0x7F800000u, 0xFF800000u), 0xFFC00000u);  // inf - inf: default NaN
  EXPECT_EQ(f32Mul(0x80000000u, 0x7F800000u), 0xFFC00000u);  // 0 * inf: default NaN
  EXPECT_EQ(f32Add(0x7F800001u, 0x7FC00002u), 0x7FC00001u);  // first NaN operand wins, quieted
  EXPECT_EQ(f32Add(0x3F800000u, 0xFF800003u), 0xFFC00003u);  // NaN b, quieted, payload and sign kept
  EXPECT_EQ(f32Sub(0x3F800000u, 0x7FC00000u), 0x7FC00000u);  // subtraction does not negate a NaN b
}

TEST(SoftFloatArithmeticTest, Binary64NamedCases) {
  const uvec2 one(0u, 0x3FF00000u), minus_one(0u, 0xBFF00000u), tiny(1u, 0u), half(0u, 0x3FE00000u);
  EXPECT_EQ(f64Add(one, minus_one), uvec2(0u, 0u));
  EXPECT_EQ(f64Add(uvec2(0u, 0x80000000u), uvec2(0u, 0x80000000u)), uvec2(0u, 0x80000000u));
  EXPECT_EQ(f64Mul(tiny, half), uvec2(0u, 0u));                                     // tie to even zero
  EXPECT_EQ(f64Mul(uvec2(3u, 0u), half), uvec2(2u, 0u));                            // tie to even
  EXPECT_EQ(f64Add(one, uvec2(0u, 0x3CA00000u)), one);                              // 1 + 2^-53: tie to even 1
  EXPECT_EQ(f64Sub(one, uvec2(1u, 0x3CA00000u)), uvec2(0xFFFFFFFFu, 0x3FEFFFFFu));  // borrow from sticky
  EXPECT_EQ(f64Mul(uvec2(0u, 0x7FF00000u), uvec2(0u, 0u)), uvec2(0u, 0xFFF80000u));
  EXPECT_EQ(f64Sub(one, uvec2(5u, 0x7FF00000u)), uvec2(5u, 0x7FF80000u));  // NaN b, quieted, not negated
}

}  // namespace
}  // namespace vkindex::glsl
