// The fuzz targets' own assertion: a property the code under test promised does not hold. It prints
// what broke and aborts, which libFuzzer reports as a crash and saves the input of (unlike `assert`,
// it stays on in release builds).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace vkindex::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz property violated: %s\n", what.c_str());
  std::abort();
}

inline void check(bool holds, const std::string& what) {
  if (!holds) fail(what);
}

}  // namespace vkindex::fuzz
