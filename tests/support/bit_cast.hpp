// std::bit_cast for C++17: the same bits as another type of the same size (float <-> integer patterns
// in the references and their tests).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace vkindex::test {

template <typename To, typename From>
To bitCast(const From& from) {
  static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<From>, "same size, plain bits");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// A float's or double's bit pattern, as the tests print and compare it.
inline uint32_t bitsOf(float value) { return bitCast<uint32_t>(value); }
inline uint64_t bitsOf(double value) { return bitCast<uint64_t>(value); }

}  // namespace vkindex::test
