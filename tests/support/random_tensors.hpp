// Seeded random tensors and shapes for the randomized suites: every run draws the same cases.
#pragma once

#include <random>

#include "support/host_tensor.hpp"

namespace vkindex::test {

using Rng = std::mt19937_64;

// Random bytes (every bit pattern, NaNs included: comparisons are byte-exact; bools 0 or 1, the only
// bools ONNX has) or random strings.
HostTensor randomTensor(Rng& rng, DataType dtype, Shape shape);

// A shape of `rank` dims, each drawn from small primes, odd sizes, 1 and (rarely) 0, keeping the
// element count at most `max_elements`.
Shape randomShape(Rng& rng, size_t rank, uint64_t max_elements);

// Index values outside [0, s-1] for an axis of size `s`, within `index_type`'s range: -1, s, -s, s + 7,
// the type's extremes, and for int64 also 2^32 + 1, 2^32 + s - 1 and -2^32 (whose low words look valid).
// What IndexPolicy::kSkip must skip and ONNX's rule wraps or refuses.
std::vector<int64_t> outOfRangeIndexValues(DataType index_type, int64_t s);

// Random index values in [-s, s-1] (both signs) for an axis of size s > 0.
HostTensor randomIndices(Rng& rng, DataType index_type, Shape shape, int64_t axis_size);

// A random index shape for GatherElements or ScatterElements along dim `axis` of `data_shape`: each
// other dim at most data's (often equal, sometimes smaller, rarely 0), the axis dim in
// [1, longest_axis] (none but 0 when data's is 0: an empty axis admits no index), and the largest dims
// halved until at most `max_elements` remain.
Shape randomElementsIndexShape(Rng& rng, const Shape& data_shape, size_t axis, int64_t longest_axis,
                               uint64_t max_elements);

// Random GatherND index tuples of `index_shape` (last dim k) for data of `data_shape`: component c of
// each tuple in [-s, s-1] (both signs) for s = data_shape[batch_dims + c]. Every such s must be > 0
// unless the indices are empty.
HostTensor randomTuples(Rng& rng, DataType index_type, const Shape& index_shape, const Shape& data_shape,
                        size_t batch_dims);

}  // namespace vkindex::test
