// Just enough GLSL for a shader file of 32-bit integer code to compile as C++, so the host can test
// the very source the kernels include (e.g. shaders/common/soft_float.glsl). Include this, then the
// GLSL file inside namespace vkindex::glsl in one .cpp (see tests/kernels/soft_float_host.cpp); the
// GLSL functions have external linkage, so a header declares the ones the tests call.
// Only what such files use is here; each built-in follows the GLSL 4.50 definition, including the
// cases GLSL leaves defined (findMSB(0) == -1, bitfieldExtract with bits == 0).
#pragma once

#include <cassert>
#include <cstdint>

namespace vkindex::glsl {

using uint = uint32_t;

struct uvec2 {
  uint x = 0, y = 0;
  uvec2() = default;
  constexpr uvec2(uint x_value, uint y_value) : x(x_value), y(y_value) {}
  // GLSL == and != on vectors compare all components and give one bool.
  friend constexpr bool operator==(uvec2 a, uvec2 b) { return a.x == b.x && a.y == b.y; }
  friend constexpr bool operator!=(uvec2 a, uvec2 b) { return !(a == b); }
};

struct uvec4 {
  uint x = 0, y = 0, z = 0, w = 0;
  uvec4() = default;
  constexpr uvec4(uint x_value, uint y_value, uint z_value, uint w_value)
      : x(x_value), y(y_value), z(z_value), w(w_value) {}
  friend constexpr bool operator==(uvec4 a, uvec4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
  friend constexpr bool operator!=(uvec4 a, uvec4 b) { return !(a == b); }
};

// GLSL's `out` arguments become references.
inline uint uaddCarry(uint x, uint y, uint& carry) {
  uint sum = x + y;
  carry = sum < x ? 1u : 0u;
  return sum;
}

inline uint usubBorrow(uint x, uint y, uint& borrow) {
  borrow = x < y ? 1u : 0u;
  return x - y;
}

inline void umulExtended(uint x, uint y, uint& msb, uint& lsb) {
  uint64_t product = uint64_t{x} * y;
  msb = static_cast<uint>(product >> 32);
  lsb = static_cast<uint>(product);
}

inline int findMSB(uint x) { return x == 0 ? -1 : 31 - __builtin_clz(x); }

inline uint bitfieldExtract(uint value, int offset, int bits) {
  assert(offset >= 0 && bits >= 0 && offset + bits <= 32);  // GLSL: undefined otherwise
  if (bits == 0) return 0;
  return (value >> offset) & (0xFFFFFFFFu >> (32 - bits));
}

inline int max(int a, int b) { return a > b ? a : b; }
inline int min(int a, int b) { return a < b ? a : b; }
inline uint max(uint a, uint b) { return a > b ? a : b; }
inline uint min(uint a, uint b) { return a < b ? a : b; }

}  // namespace vkindex::glsl
