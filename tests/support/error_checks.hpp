// Shared by the error tests of the indexing operators: running an operator into a caller's output
// that holds a canary pattern (ops.hpp promises that an index error writes nothing), the pieces of
// the agreed index-error messages, and the hostile index values every operator must reject.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "support/host_tensor.hpp"

namespace vkindex::test {

// Runs `op` into a new device output of `dtype` and `output_shape` whose bytes all hold a canary, and
// returns its status; when that is an error, the output must still hold only the canary (a test
// failure otherwise). Not for strings (they have no device bytes).
Status runIntoCanary(Context& context, DataType dtype, const Shape& output_shape,
                     const std::function<Status(Tensor& output)>& op);

// "1, 0" for flat position 3 of shape [2, 2], "" for shape []: coordinates as index errors print them.
std::string coordinateText(uint64_t position, const Shape& shape);

// The end of an index error for an axis of size s: " (allowed [-s, s-1])", or for s = 0
// " (an empty axis admits no index)".
std::string allowedRangeText(int64_t s);

// Values outside [-s, s-1] for an axis of size s > 0: just past both ends, the type's extremes, and for
// int64 also 2^32 + 1 and -2^32 + 1, whose low word alone would look valid (the high word must be
// checked). Each fits `index_type`.
std::vector<int64_t> hostileIndexValues(DataType index_type, int64_t s);

}  // namespace vkindex::test
