#include "plan/fast_division.hpp"

namespace vkindex::plan {

FastDivisor fastDivisor(uint32_t divisor) {
  FastDivisor d;
  d.divisor = divisor == 0 ? 1 : divisor;
  if (d.divisor == 1) return d;
  uint32_t l = 0;
  while ((uint64_t(1) << l) < d.divisor) ++l;  // ceil(log2(d)), 1..32
  d.multiplier = static_cast<uint32_t>(((uint64_t(1) << 32) * ((uint64_t(1) << l) - d.divisor)) / d.divisor + 1);
  d.shift = l - 1;
  return d;
}

}  // namespace vkindex::plan
