// The CPU reference's reduction step, combine(current, update), without a device: hand-written cases
// from the agreed semantics for every type and reduction, chosen where a plausible shortcut goes wrong
// (narrow integers promoting to int, the host's NaN payloads, flushed subnormals, double rounding
// through float, a fused multiply-add, a negated NaN in complex subtraction).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "support/bit_cast.hpp"
#include "support/reduction_reference.hpp"

namespace vkindex::test {
namespace {

// combine(current, update) on values of T (the element's bytes; for complex, T is its (re, im) pair).
template <typename T>
T combine(DataType dtype, Reduction reduction, T current, T update) {
  EXPECT_EQ(sizeof(T), elementSize(dtype));
  uint8_t target[sizeof(T)], source[sizeof(T)];
  std::memcpy(target, &current, sizeof(T));
  std::memcpy(source, &update, sizeof(T));
  combineBytes(dtype, reduction, target, source);
  T result;
  std::memcpy(&result, target, sizeof(T));
  return result;
}

uint32_t f32(DataType dtype, Reduction reduction, uint32_t current, uint32_t update) {
  return combine<uint32_t>(dtype, reduction, current, update);
}

constexpr Reduction kAdd = Reduction::kAdd, kMul = Reduction::kMul, kMax = Reduction::kMax, kMin = Reduction::kMin;

TEST(ReductionReferenceTest, NarrowIntegersWrapAndCompareBySignedness) {
  EXPECT_EQ(combine<int8_t>(DataType::kInt8, kAdd, 127, 1), -128);
  EXPECT_EQ(combine<int8_t>(DataType::kInt8, kMul, 16, 16), 0);
  EXPECT_EQ(combine<int8_t>(DataType::kInt8, kMul, -128, -1), -128);
  EXPECT_EQ(combine<int8_t>(DataType::kInt8, kMax, 1, -1), 1);
  EXPECT_EQ(combine<int8_t>(DataType::kInt8, kMin, 1, -1), -1);
  EXPECT_EQ(combine<uint8_t>(DataType::kUInt8, kAdd, 200, 100), 44);
  EXPECT_EQ(combine<uint8_t>(DataType::kUInt8, kMax, 1, 0xFF), 0xFF);
  EXPECT_EQ(combine<uint8_t>(DataType::kUInt8, kMin, 1, 0xFF), 1);
  EXPECT_EQ(combine<int16_t>(DataType::kInt16, kAdd, 32767, 1), -32768);
  EXPECT_EQ(combine<int16_t>(DataType::kInt16, kMul, -32768, -1), -32768);
  EXPECT_EQ(combine<int16_t>(DataType::kInt16, kMin, 5, -32768), -32768);
  // 65535 x 65535 overflows int, to which uint16 promotes: the product must wrap to 1, not be undefined.
  EXPECT_EQ(combine<uint16_t>(DataType::kUInt16, kMul, 0xFFFF, 0xFFFF), 1);
  EXPECT_EQ(combine<uint16_t>(DataType::kUInt16, kMax, 0x7FFF, 0x8000), 0x8000);
}

TEST(ReductionReferenceTest, WideIntegersWrapAndCompareBySignedness) {
  EXPECT_EQ(combine<int32_t>(DataType::kInt32, kAdd, INT32_MAX, 1), INT32_MIN);
  EXPECT_EQ(combine<uint32_t>(DataType::kUInt32, kMul, 0xFFFFFFFFu, 0xFFFFFFFFu), 1u);
  EXPECT_EQ(combine<int32_t>(DataType::kInt32, kMax, 1, -1), 1);
  EXPECT_EQ(combine<uint32_t>(DataType::kUInt32, kMax, 1, 0xFFFFFFFFu), 0xFFFFFFFFu);
  EXPECT_EQ(combine<int64_t>(DataType::kInt64, kAdd, INT64_MAX, 1), INT64_MIN);
  EXPECT_EQ(combine<uint64_t>(DataType::kUInt64, kMul, 0x100000001u, 0xFFFFFFFFu), 0xFFFFFFFFFFFFFFFFu);
  EXPECT_EQ(combine<int64_t>(DataType::kInt64, kMin, 1, -1), -1);
  EXPECT_EQ(combine<uint64_t>(DataType::kUInt64, kMin, 1, ~uint64_t{0}), 1u);
}

// bool add is OR and mul is AND (ONNX Runtime's CPU kernels); on bytes other than 0 and 1 the larger
// and the smaller byte keep the truth: nonzero iff either (add) or both (mul) are.
TEST(ReductionReferenceTest, BoolAddIsOrAndMulIsAnd) {
  for (const uint8_t a : {uint8_t{0}, uint8_t{1}}) {
    for (const uint8_t b : {uint8_t{0}, uint8_t{1}}) {
      EXPECT_EQ(combine<uint8_t>(DataType::kBool, kAdd, a, b), (a | b)) << int(a) << " add " << int(b);
      EXPECT_EQ(combine<uint8_t>(DataType::kBool, kMul, a, b), (a & b)) << int(a) << " mul " << int(b);
    }
  }
  // Not 1 + 1 = 2, nor a wrapped 0: a plain uint8 add or mul would give those.
  EXPECT_EQ(combine<uint8_t>(DataType::kBool, kAdd, 1, 1), 1);
  EXPECT_EQ(combine<uint8_t>(DataType::kBool, kAdd, 2, 0), 2);
  EXPECT_EQ(combine<uint8_t>(DataType::kBool, kAdd, 0x80, 0x80), 0x80);
  EXPECT_EQ(combine<uint8_t>(DataType::kBool, kMul, 2, 0x80), 2);
  EXPECT_EQ(combine<uint8_t>(DataType::kBool, kMul, 0x10, 0), 0);
}

TEST(ReductionReferenceTest, Float32ArithmeticKeepsSubnormalsAndRoundsToEven) {
  const DataType t = DataType::kFloat32;
  // Subnormal inputs and results exactly (a flushing host or kernel gives 0).
  EXPECT_EQ(f32(t, kAdd, 0x00000001u, 0x00000001u), 0x00000002u);
  EXPECT_EQ(f32(t, kMul, 0x00800000u, 0x3F000000u), 0x00400000u);  // 2^-126 x 0.5
  EXPECT_EQ(f32(t, kMul, 0x00000003u, 0x3F000000u), 0x00000002u);  // 1.5 units: a tie, to even
  EXPECT_EQ(f32(t, kMul, 0x00000001u, 0x3F000000u), 0x00000000u);  // 0.5 units: a tie, to zero
  EXPECT_EQ(f32(t, kAdd, 0x80000001u, 0x00000003u), 0x00000002u);
  // Round to nearest even; exact zero sums.
  EXPECT_EQ(f32(t, kAdd, 0x3F800000u, 0x33800000u), 0x3F800000u);  // 1 + 2^-24
  EXPECT_EQ(f32(t, kAdd, 0x3F800001u, 0x33800000u), 0x3F800002u);  // (1 + 2^-23) + 2^-24
  EXPECT_EQ(f32(t, kAdd, 0x40490FDBu, 0xC0490FDBu), 0x00000000u);  // x + (-x) = +0
  EXPECT_EQ(f32(t, kAdd, 0x80000000u, 0x80000000u), 0x80000000u);  // (-0) + (-0) = -0
  EXPECT_EQ(f32(t, kAdd, 0x80000000u, 0x00000000u), 0x00000000u);
  EXPECT_EQ(f32(t, kMul, 0x80000000u, 0x3F800000u), 0x80000000u);
  // Overflow to inf.
  EXPECT_EQ(f32(t, kAdd, 0x7F7FFFFFu, 0x7F7FFFFFu), 0x7F800000u);
  EXPECT_EQ(f32(t, kMul, 0xFF7FFFFFu, 0x40000000u), 0xFF800000u);
}

TEST(ReductionReferenceTest, Float32NaNsFollowTheX86Rule) {
  const DataType t = DataType::kFloat32;
  for (Reduction r : {kAdd, kMul}) {
    EXPECT_EQ(f32(t, r, 0x7FC00123u, 0x3F800000u), 0x7FC00123u);  // a NaN current, quiet: as it is
    EXPECT_EQ(f32(t, r, 0x7F800123u, 0x3F800000u), 0x7FC00123u);  // signalling: quieted
    EXPECT_EQ(f32(t, r, 0x3F800000u, 0xFF800005u), 0xFFC00005u);  // a NaN update, quieted, its sign kept
    EXPECT_EQ(f32(t, r, 0x7F800001u, 0xFFC00002u), 0x7FC00001u);  // both: the current one
  }
  EXPECT_EQ(f32(t, kAdd, 0x7F800000u, 0xFF800000u), 0xFFC00000u);  // inf - inf: the default NaN
  EXPECT_EQ(f32(t, kMul, 0x00000000u, 0x7F800000u), 0xFFC00000u);  // 0 x inf
  EXPECT_EQ(f32(t, kMul, 0xFF800000u, 0x80000000u), 0xFFC00000u);  // -inf x -0
}

TEST(ReductionReferenceTest, FloatMaxMinCompareAsIEEEAndCopyTheUpdatesBits) {
  const DataType t = DataType::kFloat32;
  EXPECT_EQ(f32(t, kMax, 0x3F800000u, 0x7FC00000u), 0x3F800000u);  // a NaN update never replaces
  EXPECT_EQ(f32(t, kMin, 0x3F800000u, 0x7FC00000u), 0x3F800000u);
  EXPECT_EQ(f32(t, kMax, 0x7F800001u, 0x7F800000u), 0x7F800001u);  // a NaN current stays, as it is
  EXPECT_EQ(f32(t, kMin, 0xFFC00000u, 0xFF800000u), 0xFFC00000u);
  EXPECT_EQ(f32(t, kMax, 0x00000000u, 0x80000000u), 0x00000000u);  // +0 and -0: the current stays
  EXPECT_EQ(f32(t, kMin, 0x80000000u, 0x00000000u), 0x80000000u);
  EXPECT_EQ(f32(t, kMax, 0x00000000u, 0x00000001u), 0x00000001u);  // subnormals compare exactly
  EXPECT_EQ(f32(t, kMin, 0x00000000u, 0x80000001u), 0x80000001u);
  const DataType d = DataType::kFloat64;
  EXPECT_EQ(combine<uint64_t>(d, kMax, 0x0000000000000000u, 0x0000000000000001u), 0x0000000000000001u);
  EXPECT_EQ(combine<uint64_t>(d, kMin, 0x3FF0000000000000u, 0xFFF0000000000001u), 0x3FF0000000000000u);
  EXPECT_EQ(combine<uint64_t>(d, kMax, 0x8000000000000000u, 0x0000000000000000u), 0x8000000000000000u);
}

TEST(ReductionReferenceTest, DoubleArithmetic) {
  const DataType t = DataType::kFloat64;
  auto f64 = [&](Reduction r, uint64_t current, uint64_t update) { return combine<uint64_t>(t, r, current, update); };
  EXPECT_EQ(f64(kMul, 0x0000000000000003u, 0x3FE0000000000000u), 0x0000000000000002u);  // subnormal tie
  EXPECT_EQ(f64(kAdd, 0x0000000000000001u, 0x0000000000000001u), 0x0000000000000002u);
  EXPECT_EQ(f64(kAdd, 0x3FF0000000000000u, 0x3CA0000000000000u), 0x3FF0000000000000u);  // 1 + 2^-53
  EXPECT_EQ(f64(kAdd, 0x8000000000000000u, 0x8000000000000000u), 0x8000000000000000u);
  EXPECT_EQ(f64(kAdd, 0x7FEFFFFFFFFFFFFFu, 0x7FEFFFFFFFFFFFFFu), 0x7FF0000000000000u);
  EXPECT_EQ(f64(kAdd, 0x7FF0000000000005u, 0x3FF0000000000000u), 0x7FF8000000000005u);
  EXPECT_EQ(f64(kMul, 0x3FF0000000000000u, 0xFFF0000000000007u), 0xFFF8000000000007u);
  EXPECT_EQ(f64(kAdd, 0xFFF0000000000000u, 0x7FF0000000000000u), 0xFFF8000000000000u);
  EXPECT_EQ(f64(kMul, 0x7FF0000000000000u, 0x0000000000000000u), 0xFFF8000000000000u);
}

TEST(ReductionReferenceTest, HalfArithmeticRoundsOnceFromFloat32) {
  const DataType t = DataType::kFloat16;
  auto f16 = [&](Reduction r, uint16_t current, uint16_t update) { return combine<uint16_t>(t, r, current, update); };
  EXPECT_EQ(f16(kAdd, 0x3C00, 0x1000), 0x3C00);  // 1 + 2^-11: a tie, to even
  EXPECT_EQ(f16(kAdd, 0x3C01, 0x1000), 0x3C02);  // (1 + 2^-10) + 2^-11: a tie, to even
  EXPECT_EQ(f16(kAdd, 0x0001, 0x0001), 0x0002);  // subnormals
  EXPECT_EQ(f16(kMul, 0x0001, 0x3800), 0x0000);  // 2^-24 x 0.5: a tie, to zero
  EXPECT_EQ(f16(kMul, 0x0003, 0x3800), 0x0002);  // 1.5 units: to even
  EXPECT_EQ(f16(kAdd, 0x7BFF, 0x4B00), 0x7BFF);  // 65504 + 14
  EXPECT_EQ(f16(kAdd, 0x7BFF, 0x4C00), 0x7C00);  // 65504 + 16 = 65520: a tie, to inf
  EXPECT_EQ(f16(kMul, 0xFBFF, 0x4000), 0xFC00);  // overflow to -inf
  EXPECT_EQ(f16(kAdd, 0x7C01, 0x3C00), 0x7E01);  // a signalling NaN current, quieted
  EXPECT_EQ(f16(kMul, 0x3C00, 0xFD55), 0xFF55);  // a NaN update, quieted, sign and payload kept
  EXPECT_EQ(f16(kAdd, 0x7C00, 0xFC00), 0xFE00);  // inf - inf: float's default NaN, narrowed
  EXPECT_EQ(f16(kMul, 0x0000, 0x7C00), 0xFE00);
  EXPECT_EQ(f16(kMax, 0x7E00, 0x3C00), 0x7E00);  // max/min as for float
  EXPECT_EQ(f16(kMin, 0x3C00, 0x7E00), 0x3C00);
  EXPECT_EQ(f16(kMax, 0x0000, 0x8000), 0x0000);
  EXPECT_EQ(f16(kMin, 0x0001, 0x8001), 0x8001);
}

TEST(ReductionReferenceTest, BFloat16ArithmeticRoundsOnceFromFloat32) {
  const DataType t = DataType::kBFloat16;
  auto bf16 = [&](Reduction r, uint16_t current, uint16_t update) { return combine<uint16_t>(t, r, current, update); };
  EXPECT_EQ(bf16(kAdd, 0x3F80, 0x3B80), 0x3F80);  // 1 + 2^-8: a tie, to even
  EXPECT_EQ(bf16(kAdd, 0x3F81, 0x3B80), 0x3F82);
  EXPECT_EQ(bf16(kAdd, 0x0001, 0x0001), 0x0002);  // subnormals (2^-133)
  EXPECT_EQ(bf16(kMul, 0x0001, 0x3F00), 0x0000);  // half a unit: a tie, to zero
  EXPECT_EQ(bf16(kMul, 0x0003, 0x3F00), 0x0002);
  EXPECT_EQ(bf16(kMul, 0x7F7F, 0x4000), 0x7F80);  // overflow to inf
  EXPECT_EQ(bf16(kAdd, 0x7F81, 0x3F80), 0x7FC1);  // a signalling NaN current, quieted
  EXPECT_EQ(bf16(kAdd, 0x3F80, 0xFF81), 0xFFC1);
  EXPECT_EQ(bf16(kAdd, 0x7F80, 0xFF80), 0xFFC0);  // inf - inf
  EXPECT_EQ(bf16(kMax, 0x3F80, 0x7FC0), 0x3F80);
  EXPECT_EQ(bf16(kMin, 0x8000, 0x0000), 0x8000);
}

struct Complex64 {
  uint32_t re, im;
};
struct Complex128 {
  uint64_t re, im;
};

TEST(ReductionReferenceTest, ComplexAddAndMulRoundEachOperation) {
  const DataType t = DataType::kComplex64;
  auto c64 = [&](Reduction r, float a, float b, float c, float d) {
    return combine<Complex64>(t, r, {bitsOf(a), bitsOf(b)}, {bitsOf(c), bitsOf(d)});
  };
  Complex64 sum = c64(kAdd, 1, 2, 3, 4);
  EXPECT_EQ(sum.re, bitsOf(4.0f));
  EXPECT_EQ(sum.im, bitsOf(6.0f));
  Complex64 product = c64(kMul, 1, 2, 3, 4);  // (1 + 2i)(3 + 4i) = -5 + 10i
  EXPECT_EQ(product.re, bitsOf(-5.0f));
  EXPECT_EQ(product.im, bitsOf(10.0f));
  // a*c = 1 + 2^-11 + 2^-24 rounds (a tie) to 1 + 2^-11 before b*d = 1 is subtracted: 2^-11. A fused
  // multiply-add would keep the 2^-24.
  const float a = 1.0f + std::ldexp(1.0f, -12);
  product = c64(kMul, a, 1, a, 1);
  EXPECT_EQ(product.re, bitsOf(std::ldexp(1.0f, -11)));
  // (inf + 0i)(0 + 1i): re = inf*0 - 0*1 = the default NaN (carried through the subtraction), im = inf.
  product = c64(kMul, INFINITY, 0, 0, 1);
  EXPECT_EQ(product.re, 0xFFC00000u);
  EXPECT_EQ(product.im, bitsOf(INFINITY));
  // re = 1*1 - NaN*1: the NaN is not negated on the way (x86 subss), so it keeps its positive sign.
  const Complex64 nan_imaginary =
      combine<Complex64>(t, kMul, {bitsOf(1.0f), 0x7FC00001u}, {bitsOf(1.0f), bitsOf(1.0f)});
  EXPECT_EQ(nan_imaginary.re, 0x7FC00001u);
  EXPECT_EQ(nan_imaginary.im, 0x7FC00001u);  // 1*1 + NaN*1
}

TEST(ReductionReferenceTest, Complex128AddAndMul) {
  const DataType t = DataType::kComplex128;
  const Complex128 sum = combine<Complex128>(t, kAdd, {bitsOf(0.5), bitsOf(-0.0)}, {bitsOf(-0.5), bitsOf(-0.0)});
  EXPECT_EQ(sum.re, bitsOf(0.0));
  EXPECT_EQ(sum.im, bitsOf(-0.0));
  const Complex128 product = combine<Complex128>(t, kMul, {bitsOf(3.0), bitsOf(-2.0)}, {bitsOf(0.5), bitsOf(4.0)});
  EXPECT_EQ(product.re, bitsOf(1.5 + 8.0));     // 3*0.5 - (-2)*4
  EXPECT_EQ(product.im, bitsOf(12.0 - 1.0));    // 3*4 + (-2)*0.5
  const double a = 1.0 + std::ldexp(1.0, -27);  // a*a = 1 + 2^-26 + 2^-54: a tie, to 1 + 2^-26
  EXPECT_EQ(combine<Complex128>(t, kMul, {bitsOf(a), bitsOf(1.0)}, {bitsOf(a), bitsOf(1.0)}).re,
            bitsOf(std::ldexp(1.0, -26)));
  const Complex128 nan = combine<Complex128>(t, kMul, {bitsOf(1.0), 0x7FF0000000000001u}, {bitsOf(1.0), bitsOf(2.0)});
  EXPECT_EQ(nan.re, 0x7FF8000000000001u);
  EXPECT_EQ(nan.im, 0x7FF8000000000001u);
}

TEST(ReductionReferenceTest, NoneCopiesEveryType) {
  EXPECT_EQ(combine<uint8_t>(DataType::kBool, Reduction::kNone, 0, 1), 1);
  EXPECT_EQ(combine<uint16_t>(DataType::kFloat16, Reduction::kNone, 0x3C00, 0x7C01), 0x7C01);
  EXPECT_EQ(f32(DataType::kFloat32, Reduction::kNone, 0, 0x7F800001u), 0x7F800001u);  // a sNaN, untouched
}

}  // namespace
}  // namespace vkindex::test
