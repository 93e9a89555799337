// The operators. Each comes in three forms:
//   op(context, inputs...)            -> a new output tensor (submits and waits)
//   op(context, inputs..., output)    -> writes a caller-provided output tensor (submits and waits)
//   recordOp(context, cmd, ..., output) records into the application's command buffer (no submission).
// Errors: kInvalidArgument for malformed calls (checked on the host before any device work),
// kOutOfRange for index values outside their axis (checked on the device before anything is written:
// on that error the output is untouched), kUnsupported for what the device cannot do, with the reason.
#pragma once

#include <memory>

#include "vkindex/api.h"
#include "vkindex/index_policy.hpp"
#include "vkindex/reduction.hpp"
#include "vkindex/tensor.hpp"

namespace vkindex {

// An operation recorded into an application command buffer. It owns the descriptor sets, the status
// slot and the scratch memory the commands refer to, so it must stay alive until that command buffer
// has completed execution (or been freed without being submitted): its scratch memory then goes back
// to the context for later operations.
//
// Synchronization contract for recorded operations: before the operation, make the inputs' writes
// visible to VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT / VK_ACCESS_SHADER_READ_BIT; after it, the output was
// written by VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT / VK_ACCESS_SHADER_WRITE_BIT, so place a barrier from
// there before reading it. vkindex's own barriers cover only its internal passes and status slot (a
// single-dispatch operation records none before its dispatch; inside a StatusBatch, none to the host
// either: vkindex/status_batch.hpp). An operation that checks nothing on the device (IndexPolicy::kSkip,
// or no indices) has no status slot and records no barrier of its own at all.
class VKINDEX_API RecordedOp {
 public:
  RecordedOp();
  ~RecordedOp();
  RecordedOp(RecordedOp&& other) noexcept;
  RecordedOp& operator=(RecordedOp&& other) noexcept;

  // Call once the command buffer has completed (e.g. after waiting on its fence). Returns Ok, or the
  // kOutOfRange error describing the first bad index (in which case the output was not written).
  // Releases the operation's resources; later calls return the same result.
  Status finish();

  struct State;

 private:
  friend struct RecordedOpAccess;
  std::unique_ptr<State> state_;
  std::optional<Status> result_;
};

// Index policy. Every form of Gather, GatherElements, GatherND (indices tensor or host indices),
// ScatterElements and ScatterND below has an overload taking an IndexPolicy last (vkindex/index_policy.hpp); the one
// without takes kError, ONNX's rule, where an index in [-s, s-1] counts from the back when negative and any other is a
// kOutOfRange error found on the device before anything is written. kSkip (vkindex's extension) accepts every index and
// wraps none: an index is used only when it lies in [0, s-1] (an index tuple only when every component
// does), and otherwise
//   - Gather, GatherND: its output slice is all zero bytes (the empty string for string data);
//   - GatherElements: its output element is zero (the empty string);
//   - ScatterElements, ScatterND: its update (its tuple's slice of updates) takes no part, whatever the
//     reduction: nothing is written or combined for it, and its target keeps what the other updates
//     make of it (data's value where none lands there).
// Nothing is checked first under kSkip, and nothing is ever an error for an index value; no skipped index
// reads or writes memory. A policy other than these two is kInvalidArgument. (TensorScatter has its own
// TensorScatterOptions::index_policy.)

// Gather (ONNX opsets 1, 11, 13): output = data.shape[:axis] + indices.shape + data.shape[axis+1:],
// output[..., i_0..i_q, ...] = data[..., indices[i_0..i_q], ...]. axis in [-r, r-1]; index values in
// [-s, s-1] (negative counts from the back) for an axis of size s; indices int32 or int64 of any rank
// (a rank-0 index drops the axis). Every data type, including string (on the host side).
// `policy` (every gather form, last): kError is ONNX's rule; kSkip makes an index outside [0, s-1]
// (negative ones included) address nothing, see "Index policy" above.
VKINDEX_API StatusOr<Tensor> gather(Context& context, const Tensor& data, const Tensor& indices, int64_t axis = 0);
VKINDEX_API StatusOr<Tensor> gather(Context& context, const Tensor& data, const Tensor& indices, int64_t axis,
                                    IndexPolicy policy);
// The same into `output`, which must already have the output's shape and data's type, and must not
// overlap data or indices.
VKINDEX_API Status gather(Context& context, const Tensor& data, const Tensor& indices, int64_t axis, Tensor& output);
VKINDEX_API Status gather(Context& context, const Tensor& data, const Tensor& indices, int64_t axis, Tensor& output,
                          IndexPolicy policy);
// The same recorded into `command_buffer` (in the recording state). Not for string tensors.
VKINDEX_API StatusOr<RecordedOp> recordGather(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                              const Tensor& indices, int64_t axis, Tensor& output);
VKINDEX_API StatusOr<RecordedOp> recordGather(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                              const Tensor& indices, int64_t axis, Tensor& output, IndexPolicy policy);

// GatherElements (ONNX opsets 11, 13): output has indices' shape, and
// output[i_0, ..., i_{r-1}] = data[i_0, ..., indices[i_0, ..., i_{r-1}], ..., i_{r-1}] with the index
// replacing coordinate `axis`. data and indices have the same rank r >= 1; every dim of indices other
// than `axis` is at most data's. axis in [-r, r-1]; index values in [-s, s-1] for data.shape[axis] = s.
// indices int32 or int64. Every data type, including string (on the host side).
VKINDEX_API StatusOr<Tensor> gatherElements(Context& context, const Tensor& data, const Tensor& indices,
                                            int64_t axis = 0);
VKINDEX_API StatusOr<Tensor> gatherElements(Context& context, const Tensor& data, const Tensor& indices, int64_t axis,
                                            IndexPolicy policy);
// The same into `output` (indices' shape, data's type, no overlap with the inputs).
VKINDEX_API Status gatherElements(Context& context, const Tensor& data, const Tensor& indices, int64_t axis,
                                  Tensor& output);
VKINDEX_API Status gatherElements(Context& context, const Tensor& data, const Tensor& indices, int64_t axis,
                                  Tensor& output, IndexPolicy policy);
// The same recorded into `command_buffer` (in the recording state). Not for string tensors.
VKINDEX_API StatusOr<RecordedOp> recordGatherElements(Context& context, VkCommandBuffer command_buffer,
                                                      const Tensor& data, const Tensor& indices, int64_t axis,
                                                      Tensor& output);
VKINDEX_API StatusOr<RecordedOp> recordGatherElements(Context& context, VkCommandBuffer command_buffer,
                                                      const Tensor& data, const Tensor& indices, int64_t axis,
                                                      Tensor& output, IndexPolicy policy);

// GatherND (ONNX opsets 11, 12, 13): data of rank r >= 1, indices of rank q >= 1 whose last dim k is
// the length of each index tuple, 1 <= k <= r - batch_dims. The first batch_dims dims of data and
// indices are equal batch dims; batch_dims in [0, min(q, r) - 1] (opset 11 has no attribute: 0).
// output shape = indices.shape[:-1] + data.shape[batch_dims + k:]; each output slice is the data slice
// the tuple addresses within its batch. Component c of a tuple lies in [-s, s-1] for
// s = data.shape[batch_dims + c]. indices int32 or int64. Every data type, including string.
VKINDEX_API StatusOr<Tensor> gatherND(Context& context, const Tensor& data, const Tensor& indices,
                                      int64_t batch_dims = 0);
VKINDEX_API StatusOr<Tensor> gatherND(Context& context, const Tensor& data, const Tensor& indices, int64_t batch_dims,
                                      IndexPolicy policy);
// The same into `output` (the output's shape, data's type, no overlap with the inputs).
VKINDEX_API Status gatherND(Context& context, const Tensor& data, const Tensor& indices, int64_t batch_dims,
                            Tensor& output);
VKINDEX_API Status gatherND(Context& context, const Tensor& data, const Tensor& indices, int64_t batch_dims,
                            Tensor& output, IndexPolicy policy);
// The same recorded into `command_buffer` (in the recording state). Not for string tensors.
VKINDEX_API StatusOr<RecordedOp> recordGatherND(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                const Tensor& indices, int64_t batch_dims, Tensor& output);
VKINDEX_API StatusOr<RecordedOp> recordGatherND(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                const Tensor& indices, int64_t batch_dims, Tensor& output,
                                                IndexPolicy policy);

// Index values in host memory, for the host-index forms of Gather and GatherND: the common case of
// token ids from a CPU sampler, with no indices tensor to create. `values` holds the elements of
// `shape` (int32 or int64, native byte order, no alignment needed) and is read during the call only.
struct HostIndices {
  DataType type = DataType::kInt64;
  Shape shape;
  const void* values = nullptr;  // may be null when `shape` has no elements
};

// Gather and GatherND with host indices: the same operators, shapes, rules and error messages as with
// an indices tensor. The indices are checked on the host before anything is recorded, so a bad one
// records nothing. Output rows (the slices after the axis, or after the indexed dims) are copied with
// vkCmdCopyBuffer regions, runs of consecutive rows merged into one region; when the regions would be
// small on average (short rows, few runs) the gather kernel runs instead, on a copy of the values
// recorded into the command buffer. The recorded forms keep the synchronization contract above: they
// place their own barriers between compute-shader and transfer accesses, and the RecordedOp owns the
// recorded copy of the values. String data is gathered on the host (not in the recorded forms). Under
// IndexPolicy::kSkip a call with a skipped index takes the kernel path, which writes the zero rows.
VKINDEX_API StatusOr<Tensor> gather(Context& context, const Tensor& data, const HostIndices& indices, int64_t axis = 0);
VKINDEX_API StatusOr<Tensor> gather(Context& context, const Tensor& data, const HostIndices& indices, int64_t axis,
                                    IndexPolicy policy);
VKINDEX_API Status gather(Context& context, const Tensor& data, const HostIndices& indices, int64_t axis,
                          Tensor& output);
VKINDEX_API Status gather(Context& context, const Tensor& data, const HostIndices& indices, int64_t axis,
                          Tensor& output, IndexPolicy policy);
VKINDEX_API StatusOr<RecordedOp> recordGather(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                              const HostIndices& indices, int64_t axis, Tensor& output);
VKINDEX_API StatusOr<RecordedOp> recordGather(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                              const HostIndices& indices, int64_t axis, Tensor& output,
                                              IndexPolicy policy);
VKINDEX_API StatusOr<Tensor> gatherND(Context& context, const Tensor& data, const HostIndices& indices,
                                      int64_t batch_dims = 0);
VKINDEX_API StatusOr<Tensor> gatherND(Context& context, const Tensor& data, const HostIndices& indices,
                                      int64_t batch_dims, IndexPolicy policy);
VKINDEX_API Status gatherND(Context& context, const Tensor& data, const HostIndices& indices, int64_t batch_dims,
                            Tensor& output);
VKINDEX_API Status gatherND(Context& context, const Tensor& data, const HostIndices& indices, int64_t batch_dims,
                            Tensor& output, IndexPolicy policy);
VKINDEX_API StatusOr<RecordedOp> recordGatherND(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                const HostIndices& indices, int64_t batch_dims, Tensor& output);
VKINDEX_API StatusOr<RecordedOp> recordGatherND(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                const HostIndices& indices, int64_t batch_dims, Tensor& output,
                                                IndexPolicy policy);

// ScatterElements (ONNX opsets 11, 13, 16, 18; Scatter 9 and 10 is the same with kNone): output = data,
// then for every position p of indices, output[p with coordinate `axis` replaced by indices[p]] is
// combined with updates[p]. data, indices and updates have the same rank r >= 1; updates has indices'
// shape; every dim of indices other than `axis` is at most data's. Index values in [-s, s-1] for
// s = data.shape[axis]. Every type with kNone (strings on the host side); kAdd and kMul on every
// numeric type, complex included; kMax and kMin on every real numeric type; on bool kAdd (OR) and kMul
// (AND); on string kAdd (the updates appended to the target's string in index order, on the host), as
// ONNX Runtime's CPU kernels define them. Other pairs are kInvalidArgument naming what the type allows.
// Every pair runs on every device with the same bits (docs/reductions.md gives the exact arithmetic).
// On a bad index nothing is written: a caller's output keeps its previous bytes, in-place data is
// unchanged. `policy` (every scatter form, last): kError is ONNX's rule; kSkip makes an update whose
// index lies outside [0, s-1] (negative ones included) take no part, see "Index policy" above.
VKINDEX_API StatusOr<Tensor> scatterElements(Context& context, const Tensor& data, const Tensor& indices,
                                             const Tensor& updates, int64_t axis = 0,
                                             Reduction reduction = Reduction::kNone);
VKINDEX_API StatusOr<Tensor> scatterElements(Context& context, const Tensor& data, const Tensor& indices,
                                             const Tensor& updates, int64_t axis, Reduction reduction,
                                             IndexPolicy policy);
// The same into `output` (data's shape and type, no overlap with the inputs).
VKINDEX_API Status scatterElements(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                                   int64_t axis, Reduction reduction, Tensor& output);
VKINDEX_API Status scatterElements(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                                   int64_t axis, Reduction reduction, Tensor& output, IndexPolicy policy);
// The same in place: `data` becomes the output; only the updated elements are written.
VKINDEX_API Status scatterElementsInPlace(Context& context, Tensor& data, const Tensor& indices, const Tensor& updates,
                                          int64_t axis, Reduction reduction);
VKINDEX_API Status scatterElementsInPlace(Context& context, Tensor& data, const Tensor& indices, const Tensor& updates,
                                          int64_t axis, Reduction reduction, IndexPolicy policy);
// The same recorded into `command_buffer`; `output` may be `data` itself (in place). Not for strings.
VKINDEX_API StatusOr<RecordedOp> recordScatterElements(Context& context, VkCommandBuffer command_buffer,
                                                       const Tensor& data, const Tensor& indices, const Tensor& updates,
                                                       int64_t axis, Reduction reduction, Tensor& output);
VKINDEX_API StatusOr<RecordedOp> recordScatterElements(Context& context, VkCommandBuffer command_buffer,
                                                       const Tensor& data, const Tensor& indices, const Tensor& updates,
                                                       int64_t axis, Reduction reduction, Tensor& output,
                                                       IndexPolicy policy);

// ScatterND (ONNX opsets 11, 13, 16, 18): output = data, then for every index tuple (indices' last dim
// k, 0 <= k <= r) the data slice it addresses is combined with the matching slice of updates, whose
// shape must be indices.shape[:-1] + data.shape[k:]. Component c of a tuple lies in [-s, s-1] for
// s = data.shape[c]; with k = 0 every tuple is empty and addresses the whole of data. Forms, error
// behaviour and `policy` as scatterElements; under kSkip a tuple with any component outside [0, s-1]
// takes no part (slot -1 of a paged KV cache: a padding row).
VKINDEX_API StatusOr<Tensor> scatterND(Context& context, const Tensor& data, const Tensor& indices,
                                       const Tensor& updates, Reduction reduction = Reduction::kNone);
VKINDEX_API StatusOr<Tensor> scatterND(Context& context, const Tensor& data, const Tensor& indices,
                                       const Tensor& updates, Reduction reduction, IndexPolicy policy);
VKINDEX_API Status scatterND(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                             Reduction reduction, Tensor& output);
VKINDEX_API Status scatterND(Context& context, const Tensor& data, const Tensor& indices, const Tensor& updates,
                             Reduction reduction, Tensor& output, IndexPolicy policy);
VKINDEX_API Status scatterNDInPlace(Context& context, Tensor& data, const Tensor& indices, const Tensor& updates,
                                    Reduction reduction);
VKINDEX_API Status scatterNDInPlace(Context& context, Tensor& data, const Tensor& indices, const Tensor& updates,
                                    Reduction reduction, IndexPolicy policy);
VKINDEX_API StatusOr<RecordedOp> recordScatterND(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                 const Tensor& indices, const Tensor& updates, Reduction reduction,
                                                 Tensor& output);
VKINDEX_API StatusOr<RecordedOp> recordScatterND(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                 const Tensor& indices, const Tensor& updates, Reduction reduction,
                                                 Tensor& output, IndexPolicy policy);

}  // namespace vkindex
