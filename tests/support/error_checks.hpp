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

// The agreed device-side message of `op` ("Gather", "GatherElements", "ScatterElements") for the bad
// value at flat `position` of `indices`, along `axis` (either sign) of data of `data_shape`:
// "<op>: indices[1, 0] = 5 is out of range for axis 1 of size 3 (allowed [-3, 2])".
std::string axisIndexMessage(const std::string& op, const Shape& data_shape, const HostTensor& indices, int64_t axis,
                             uint64_t position);

// The same for an index tuple ("GatherND", "ScatterND"): the bad ELEMENT at flat `position` is
// component c of the tuple at its coordinates in indices.shape[:-1], and indexes data dim
// batch_dims + c: "<op>: indices[1, 0] (component 1) = 7 is out of range for data dim 2 of size 5 ...".
std::string tupleIndexMessage(const std::string& op, const Shape& data_shape, const HostTensor& indices,
                              int64_t batch_dims, uint64_t position);

// Values outside [-s, s-1] for an axis of size s > 0: just past both ends, the type's extremes, and for
// int64 also 2^32 + 1 and -2^32 + 1, whose low word alone would look valid (the high word must be
// checked). Each fits `index_type`.
std::vector<int64_t> hostileIndexValues(DataType index_type, int64_t s);

// hostileIndexValues of both index types for an axis of size s > 0, and 2^32 (low word 0) as int64.
struct HostileIndex {
  DataType index_type;
  int64_t value;
};
std::vector<HostileIndex> hostileIndexCases(int64_t s);

// The "first bad index wins" indices shared by the operators' error suites, whatever the values after
// it (a later, "more wrong" value must not win): 3 x 4 x 5 element indices of 1 with 7 at [1, 2, 3],
// INT32_MIN at [2, 0, 0] and -8 at [2, 3, 4] (bad for an axis of 6); and 2 x 3 tuples of 3 zeros with
// -7 in component 2 of [0, 1], INT32_MAX in component 0 of [1, 0] and 5 in component 1 of [1, 2] (bad
// for data [4, 5, 6, ...]).
std::vector<int64_t> laterBadElementIndices();
std::vector<int64_t> laterBadTupleIndices();

// 2 x 3 tuples of 2 (components in [-5, 4]) with `value` in component `component` of tuple [1, 0].
std::vector<int64_t> tuplesWithOneValue(size_t component, int64_t value);

// `count` valid index values for an axis of size s: i x 7 wrapped into [-s, s-1], for the tests that
// plant bad ones among many.
std::vector<int64_t> steppedIndexValues(size_t count, int64_t s);

}  // namespace vkindex::test
