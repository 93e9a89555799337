// n / d for a dispatch-invariant divisor d, as multiply-high + add + shift (see
// src/plan/fast_division.hpp, which computes `multiplier` and `shift` and mirrors this formula).
#ifndef VKINDEX_FAST_DIVISION_GLSL
#define VKINDEX_FAST_DIVISION_GLSL

uint fastDivide(uint n, uint d, uint multiplier, uint shift) {
  if (d == 1u) return n;  // uniform across the dispatch: no divergence
  uint high, low;
  umulExtended(n, multiplier, high, low);
  return (((n - high) >> 1) + high) >> shift;
}

#endif
