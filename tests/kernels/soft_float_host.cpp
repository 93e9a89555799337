// The one translation unit that compiles shaders/common/soft_float.glsl as C++.
#include "soft_float_host.hpp"

namespace vkindex::glsl {
#include "common/soft_float.glsl"
}  // namespace vkindex::glsl
