// The one place the tests read which (data type, reduction) pairs the agreed semantics define: none for
// every type; add, mul, max and min for every integer and float type; add and mul for complex (no
// order); add (OR) and mul (AND) for bool and add (concatenation) for string, as ONNX Runtime's CPU
// kernels define them; nothing else. Whether a device runs a defined pair is another matter, which the
// library answers (kUnsupported).
#pragma once

#include <vector>

#include "vkindex/data_type.hpp"
#include "vkindex/reduction.hpp"

namespace vkindex::test {

struct ReductionPair {
  DataType dtype;
  Reduction reduction;
};

// Whether the semantics define `reduction` on `dtype`.
bool reductionDefined(DataType dtype, Reduction reduction);

// Every defined pair but the kNone ones: kClassicDataTypes in order, each with add, mul, max, min as defined.
std::vector<ReductionPair> definedReductionPairs();

}  // namespace vkindex::test
