// The one scatter reduction that runs on the host: add on strings, which appends each update to the
// string at its target, in index order (ONNX Runtime's CPU kernels of ScatterElements and ScatterND:
// std::string's +=). The device has checked the indices already (scatter_family.cpp).
#pragma once

#include <string>
#include <vector>

#include "plan/scatter_plan.hpp"
#include "vkindex/tensor.hpp"

namespace vkindex {

// The output of a string add: `data`'s strings, each followed by the `updates` that land on it in
// updates' row-major order; under shape.check.policy kSkip an update whose index is skipped lands
// nowhere. `shape` is the call's validated shape and `indices` its (checked, under kError) indices.
// The host memory the result needs is checked first: kResourceExhausted naming `purpose`.
StatusOr<std::vector<std::string>> concatenateUpdates(const plan::ScatterShape& shape, const Tensor& indices,
                                                      const std::vector<std::string>& data,
                                                      const std::vector<std::string>& updates,
                                                      const std::string& purpose);

}  // namespace vkindex
