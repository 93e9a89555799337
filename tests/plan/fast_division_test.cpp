// The multiply-high division the kernels use (src/plan/fast_division.hpp mirrors
// shaders/common/fast_division.glsl): exact for every divisor class and across the 32-bit range.
#include <gtest/gtest.h>

#include <random>

#include "plan/fast_division.hpp"

namespace vkindex::plan {
namespace {

void expectExact(uint32_t divisor, uint32_t n) {
  ASSERT_EQ(fastDivide(n, fastDivisor(divisor)), n / divisor) << n << " / " << divisor;
}

TEST(FastDivisionTest, SmallDivisorsAgainstEveryNumeratorUpTo2To16) {
  for (uint32_t d = 1; d <= 300; ++d) {
    for (uint32_t n = 0; n <= 65536; ++n) expectExact(d, n);
  }
}

TEST(FastDivisionTest, PowersOfTwoAndTheirNeighbours) {
  for (uint32_t k = 0; k < 32; ++k) {
    const uint32_t p = uint32_t(1) << k;
    for (uint32_t d : {p - 1, p, p + 1}) {
      if (d == 0) continue;
      for (uint32_t n : {0u, 1u, d - 1, d, d + 1, 2 * d - 1, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu}) {
        expectExact(d, n);
      }
    }
  }
}

TEST(FastDivisionTest, RandomDivisorsAndNumeratorsNearBoundaries) {
  std::mt19937 engine(5);
  auto rng = [&engine] { return static_cast<uint32_t>(engine()); };
  for (int trial = 0; trial < 200000; ++trial) {
    uint32_t d = rng() >> (rng() % 32);
    if (d == 0) d = 1;
    uint32_t q = static_cast<uint32_t>(rng() % (uint64_t(0xFFFFFFFFu) / d + 1));
    // n around multiples of d, where rounding errors would show first.
    for (int64_t delta : {-1, 0, 1}) {
      int64_t n = int64_t(q) * d + delta;
      if (n >= 0 && n <= 0xFFFFFFFFll) expectExact(d, static_cast<uint32_t>(n));
    }
    expectExact(d, rng());
  }
}

TEST(FastDivisionTest, ZeroDivisorIsTreatedAsOne) {
  EXPECT_EQ(fastDivisor(0).divisor, 1u);
  EXPECT_EQ(fastDivide(1234, fastDivisor(0)), 1234u);
}

}  // namespace
}  // namespace vkindex::plan
