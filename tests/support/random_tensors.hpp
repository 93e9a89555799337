// Seeded random tensors and shapes for the randomized suites: every run draws the same cases.
#pragma once

#include <random>

#include "support/host_tensor.hpp"

namespace vkindex::test {

using Rng = std::mt19937_64;

// Random bytes (every bit pattern, NaNs included: comparisons are byte-exact) or random strings.
HostTensor randomTensor(Rng& rng, DataType dtype, Shape shape);

// A shape of `rank` dims, each drawn from small primes, odd sizes, 1 and (rarely) 0, keeping the
// element count at most `max_elements`.
Shape randomShape(Rng& rng, size_t rank, uint64_t max_elements);

// Random index values in [-s, s-1] (both signs) for an axis of size s > 0.
HostTensor randomIndices(Rng& rng, DataType index_type, Shape shape, int64_t axis_size);

// Random GatherND index tuples of `index_shape` (last dim k) for data of `data_shape`: component c of
// each tuple in [-s, s-1] (both signs) for s = data_shape[batch_dims + c]. Every such s must be > 0
// unless the indices are empty.
HostTensor randomTuples(Rng& rng, DataType index_type, const Shape& index_shape, const Shape& data_shape,
                        size_t batch_dims);

}  // namespace vkindex::test
