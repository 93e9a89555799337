// Naive CPU references written from the ONNX operator docs, in 64-bit index math, one element at a
// time. Deliberately share nothing with the library's planner: they are the oracle.
#pragma once

#include <optional>

#include "support/host_tensor.hpp"

namespace vkindex::test {

// The reference's verdict: the output, or the flat position of the first index outside [-s, s-1]
// (the position of one element of `indices` in row-major order, also for GatherND's tuples).
struct ReferenceResult {
  HostTensor output;
  std::optional<uint64_t> bad_index_position;
};

// ONNX Gather (opsets 1, 11, 13). `axis` must be valid for data's rank.
ReferenceResult referenceGather(const HostTensor& data, const HostTensor& indices, int64_t axis);

// ONNX GatherElements (opsets 11, 13): output has indices' shape and takes, at each position, data at
// the same coordinates with coordinate `axis` replaced by the index value. Preconditions (the host
// checks of the operator): equal ranks r >= 1, `axis` in [-r, r-1], indices' dims other than axis at
// most data's.
ReferenceResult referenceGatherElements(const HostTensor& data, const HostTensor& indices, int64_t axis);

// ONNX GatherND (opsets 11, 12, 13): output = indices.shape[:-1] + data.shape[b + k:] with k the last
// dim of indices; each tuple indexes data dims b..b+k-1 within its batch. Preconditions (the host checks
// of the operator): ranks >= 1, `batch_dims` in [0, min(r, q) - 1], equal batch dims, k in [1, r - b].
ReferenceResult referenceGatherND(const HostTensor& data, const HostTensor& indices, int64_t batch_dims);

}  // namespace vkindex::test
