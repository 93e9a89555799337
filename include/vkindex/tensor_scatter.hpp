// TensorScatter (ONNX opset 24): the KV-cache write of LLM inference. Four forms, as the other operators
// (vkindex/ops.hpp): a new output, the caller's output, in place, and recorded into the application's
// command buffer (output may then be past_cache itself: in place).
#pragma once

#include "vkindex/api.h"
#include "vkindex/index_policy.hpp"
#include "vkindex/ops.hpp"

namespace vkindex {

// ONNX's attribute 'mode'.
enum class TensorScatterMode : uint8_t {
  kLinear,    // batch entry b writes cache positions [w_b, w_b + seq_len): 0 <= w_b <= max_seq - seq_len
  kCircular,  // update row s goes to position (w_b + s) mod max_seq; w_b >= 0, any size (it wraps)
};

struct TensorScatterOptions {
  int64_t axis = -2;  // the sequence axis, in [-r, r-1] but never the batch axis 0 (nor -r)
  TensorScatterMode mode = TensorScatterMode::kLinear;
  // kSkip: a batch entry whose write index breaks the mode's rule is skipped (writes nothing) instead of
  // failing the call.
  IndexPolicy index_policy = IndexPolicy::kError;
};

// present_cache = past_cache, with each batch entry b's update rows written along `axis` from its write
// index. past_cache has rank r >= 2 and shape [batch, ..., max_seq (at axis), ...]; update has the same
// shape except seq_len <= max_seq at axis; write_indices is an int64 tensor of shape [batch], or null
// for all zeros (ONNX's absent input). Only the sequence coordinate wraps in circular mode (the
// corrected rule of onnx/onnx#8353), and a negative write index is an error there as in ONNX Runtime.
// Every data type, the low-precision ones included (vkindex/data_type.hpp), but strings. A bad write
// index is a kOutOfRange error found on the device before anything is written; nothing is then written.
VKINDEX_API StatusOr<Tensor> tensorScatter(Context& context, const Tensor& past_cache, const Tensor& update,
                                           const Tensor* write_indices, const TensorScatterOptions& options = {});
// The same into `output` (past_cache's shape and type, no overlap with the inputs).
VKINDEX_API Status tensorScatter(Context& context, const Tensor& past_cache, const Tensor& update,
                                 const Tensor* write_indices, const TensorScatterOptions& options, Tensor& output);
// The same in place: `cache` is past_cache and becomes present_cache; only the update's rows are written
// (the cost is the update's bytes).
VKINDEX_API Status tensorScatterInPlace(Context& context, Tensor& cache, const Tensor& update,
                                        const Tensor* write_indices, const TensorScatterOptions& options = {});
// The same recorded into `command_buffer` (in the recording state); `output` may be past_cache itself.
VKINDEX_API StatusOr<RecordedOp> recordTensorScatter(Context& context, VkCommandBuffer command_buffer,
                                                     const Tensor& past_cache, const Tensor& update,
                                                     const Tensor* write_indices, const TensorScatterOptions& options,
                                                     Tensor& output);

}  // namespace vkindex
