// Values for the scatter reduction tests: random data and updates that reach every rule of the agreed
// semantics, and updates whose sums only come out right when added in index order.
#pragma once

#include "support/random_tensors.hpp"

namespace vkindex::test {

// Which values reductionValues draws for float-like types: the whole mix, or the normals only (for
// stress tests whose every update must show in the result: a NaN or inf would swallow the rest).
enum class ValueMix { kEveryKind, kNormalsOnly };

// Data or updates for a reduction on `dtype`. bool: 0 or 1, true at a density drawn per tensor.
// Integers: every bit pattern. Float-like types (complex per
// component), every bit pattern can occur, drawn from a mix: normals in [1/4, 4) (the most common:
// sums and products of a few round instead of overflowing), the smallest normals and subnormals (they
// meet often enough to sum, cancel or multiply into subnormal results, which a flushing kernel loses),
// values near the largest finite (they overflow to inf), uniformly random patterns, and the values the rules single out
// (+-0, +-inf, quiet and signalling NaNs with payloads of both signs, the extreme subnormals, +-1, the largest finite,
// the smallest normal). NaNs stay rare enough that most duplicate-heavy targets see none.
HostTensor reductionValues(Rng& rng, DataType dtype, Shape shape, ValueMix mix = ValueMix::kEveryKind);

// Updates of a float-like `dtype` whose sums, folded into each target in index order, depend on that
// order: row i (of the leading dim) takes one of a block of four, {big, s, -big, s'} with s, s' in
// 1..3 and big = 2^(m+3) or 3 x 2^(m+3) in alternate blocks (m the component's mantissa bits: big's
// ulp is 8 or 16, so the small values are rounded away or rounded up depending on what they meet).
// Later elements of a row and imaginary parts take the block reversed.
HostTensor orderSensitiveUpdates(Rng& rng, DataType dtype, Shape shape);

// A float-like tensor of small exact values (0, 0.5, -2, 4, -1, 0.25, repeated over the components):
// data for the targets of orderSensitiveUpdates.
HostTensor smallExactValues(DataType dtype, Shape shape);

}  // namespace vkindex::test
