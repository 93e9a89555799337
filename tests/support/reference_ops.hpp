// Naive CPU references written from the ONNX operator docs, in 64-bit index math, one element at a
// time. Deliberately share nothing with the library's planner: they are the oracle.
#pragma once

#include <optional>

#include "support/host_tensor.hpp"

namespace vkindex::test {

// The reference's verdict: the output, or the flat position of the first index outside [-s, s-1].
struct ReferenceResult {
  HostTensor output;
  std::optional<uint64_t> bad_index_position;
};

// ONNX Gather (opsets 1, 11, 13). `axis` must be valid for data's rank.
ReferenceResult referenceGather(const HostTensor& data, const HostTensor& indices, int64_t axis);

}  // namespace vkindex::test
