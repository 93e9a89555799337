// String tensors stay on the host: the operators run on the device over 4-byte element ids, and the
// strings are picked on the host from the ids that come back.
#pragma once

#include <string>
#include <vector>

#include "vkindex/tensor.hpp"

namespace vkindex {

// The strings that `ids` (a uint32 tensor the operator produced) name, where id i is the i-th string of
// `sources` taken one after another. The host memory this needs is checked first: an output far larger
// than its inputs (a gather of one long string many times) is kResourceExhausted naming `purpose`.
StatusOr<std::vector<std::string>> pickStrings(const Tensor& ids,
                                               const std::vector<const std::vector<std::string>*>& sources,
                                               const std::string& purpose);

}  // namespace vkindex
