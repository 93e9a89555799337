// Division by a run-time-invariant 32-bit divisor as a multiply-high, shift and add: GPU (and CPU
// JIT) integer division is slow and does not vectorize. The planner computes the constants once per
// dispatch; shaders/common/fast_division.glsl evaluates the same formula. Method: Granlund and
// Montgomery's "round-up" multiplier (Hacker's Delight 10-8), valid for every n < 2^32 and d >= 1.
#pragma once

#include <cstdint>

namespace vkindex::plan {

struct FastDivisor {
  uint32_t divisor = 1;
  uint32_t multiplier = 0;  // floor(2^32 * (2^l - d) / d) + 1, with l = ceil(log2(d))
  uint32_t shift = 0;       // l - 1 (unused when divisor == 1)
};

// Constants for dividing by `divisor` (>= 1).
FastDivisor fastDivisor(uint32_t divisor);

// n / divisor, computed exactly as the shaders do.
inline uint32_t fastDivide(uint32_t n, const FastDivisor& d) {
  if (d.divisor == 1) return n;
  const uint32_t t = static_cast<uint32_t>((uint64_t(n) * d.multiplier) >> 32);
  return (((n - t) >> 1) + t) >> d.shift;
}

}  // namespace vkindex::plan
