// How ScatterElements and ScatterND combine an update with the value already at its target (no Vulkan:
// the planner uses it too).
#pragma once

#include "vkindex/api.h"

namespace vkindex {

// ONNX opsets: none everywhere, add and mul from 16, max and min from 18 (the caller checks the opset;
// the node runner does). Duplicate targets combine one by one in index order (row-major position in
// indices), so the result is the same bits on every device and every run; with kNone the last update
// wins.
enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

// "none", "add", "mul", "max", "min".
VKINDEX_API const char* reductionName(Reduction reduction);

}  // namespace vkindex
