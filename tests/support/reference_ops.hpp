// Naive CPU references written from the ONNX operator docs, in 64-bit index math, one element at a
// time. Deliberately share nothing with the library's planner: they are the oracle.
#pragma once

#include <optional>

#include "support/host_tensor.hpp"
#include "vkindex/index_policy.hpp"

namespace vkindex::test {

// The reference's verdict: the output, or the flat position of the first index outside [-s, s-1]
// (the position of one element of `indices` in row-major order, also for GatherND's tuples).
struct ReferenceResult {
  HostTensor output;
  std::optional<uint64_t> bad_index_position;
};

// ONNX Gather (opsets 1, 11, 13). `axis` must be valid for data's rank.
// `policy` (every gather reference): kSkip makes an index outside [0, s-1] (a tuple with such a component)
// give zero bytes or empty strings where its slice or element would go, and never a bad_index_position.
ReferenceResult referenceGather(const HostTensor& data, const HostTensor& indices, int64_t axis,
                                IndexPolicy policy = IndexPolicy::kError);

// ONNX GatherElements (opsets 11, 13): output has indices' shape and takes, at each position, data at
// the same coordinates with coordinate `axis` replaced by the index value. Preconditions (the host
// checks of the operator): equal ranks r >= 1, `axis` in [-r, r-1], indices' dims other than axis at
// most data's.
ReferenceResult referenceGatherElements(const HostTensor& data, const HostTensor& indices, int64_t axis,
                                        IndexPolicy policy = IndexPolicy::kError);

// ONNX GatherND (opsets 11, 12, 13): output = indices.shape[:-1] + data.shape[b + k:] with k the last
// dim of indices; each tuple indexes data dims b..b+k-1 within its batch. Preconditions (the host checks
// of the operator): ranks >= 1, `batch_dims` in [0, min(r, q) - 1], equal batch dims, k in [1, r - b].
ReferenceResult referenceGatherND(const HostTensor& data, const HostTensor& indices, int64_t batch_dims,
                                  IndexPolicy policy = IndexPolicy::kError);

// ONNX ScatterElements (opsets 11, 13, 16, 18; Scatter 9, 10 with kNone): output = data, then for every
// position p of indices in row-major order, the element of output at p's coordinates with coordinate
// `axis` replaced by indices[p] is combined with updates[p] (kNone: replaced, so the last update to a
// target wins; otherwise folded one by one in that order, by the rules below). Preconditions (the
// host checks of the operator): equal ranks r >= 1, updates of indices' shape and data's type, `axis`
// in [-r, r-1], indices' dims other than axis at most data's, a reduction the type allows. On a bad
// index the output is empty and bad_index_position names it.
//
// Reductions: the agreed semantics, for every type and reduction they define (reduction_reference.hpp
// spells them out); none replaces, for every type.
// `policy` (both scatter references): kSkip makes an update whose index (ScatterND: any component of its
// tuple) lies outside [0, s-1] take no part, negative ones included; nothing is then an error.
ReferenceResult referenceScatterElements(const HostTensor& data, const HostTensor& indices, const HostTensor& updates,
                                         int64_t axis, Reduction reduction, IndexPolicy policy = IndexPolicy::kError);

// ONNX ScatterND (opsets 11, 13, 16, 18): output = data, then for every index tuple (indices' last dim k)
// in row-major order, the data slice it addresses (component c indexes data dim c) is combined element
// by element with the matching slice of updates (shape indices.shape[:-1] + data.shape[k:]), with the
// rules of referenceScatterElements. bad_index_position is the first bad element of indices in
// row-major order (counting tuple components). Preconditions: data rank r >= 1, indices rank >= 1,
// k in [0, r] (k = 0: every tuple is empty and addresses all of data), updates of the shape above and
// data's type, a reduction the type allows.
ReferenceResult referenceScatterND(const HostTensor& data, const HostTensor& indices, const HostTensor& updates,
                                   Reduction reduction, IndexPolicy policy = IndexPolicy::kError);

}  // namespace vkindex::test
