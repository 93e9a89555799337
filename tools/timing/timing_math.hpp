// Small arithmetic shared by everything that reports timings (bench, onnx-test --repeat).
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace vkindex::tools {

// Milliseconds elapsed since `start` on the steady clock.
inline double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The median of `values` (the mean of the middle two for an even count); `values` must not be empty.
inline double medianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

}  // namespace vkindex::tools
