// TensorScatter bound to its options as a ScatterOperator (support/scatter_forms.hpp), so that its suites
// share the scatter harness: every form (a new output, the caller's output, in place, recorded out of place
// and in place) compared with the reference byte for byte, and errors that must leave outputs untouched.
// The harness's data, indices and updates are past_cache, write_indices and update.
#pragma once

#include "support/scatter_forms.hpp"
#include "support/tensor_scatter_reference.hpp"

namespace vkindex::test {

// With `with_indices` false the operator passes no write indices (ONNX's absent input: all zeros) and
// ignores the harness's indices tensor.
ScatterOperator tensorScatterOperator(Context& context, const TensorScatterOptions& options, bool with_indices = true);

// Write indices as the int64 [batch] tensor TensorScatter takes.
HostTensor writeIndices(const std::vector<int64_t>& values);

}  // namespace vkindex::test
