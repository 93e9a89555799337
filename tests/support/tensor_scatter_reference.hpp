// TensorScatter's CPU reference, written from ONNX's operator text (opset 24, with the circular rule of
// onnx/onnx#8353: only the sequence coordinate wraps): element by element over the update's
// coordinates, independent of the kernel's row decomposition.
#pragma once

#include "support/reference_ops.hpp"
#include "vkindex/tensor_scatter.hpp"

namespace vkindex::test {

// present_cache for `past` and `update` (valid shapes and types; `options.axis` valid), or the first bad
// batch entry under IndexPolicy::kError (output: past unchanged). `write_indices` (int64 [batch]) may
// be null: all zeros. The 4-bit types are read and written nibble by nibble; a 4-bit tensor's padding
// nibble (odd element counts) is past's.
ReferenceResult referenceTensorScatter(const HostTensor& past, const HostTensor& update,
                                       const HostTensor* write_indices, const TensorScatterOptions& options);

}  // namespace vkindex::test
