// Many operations in one command buffer with one status barrier (a decode step: an embedding row, a
// KV-cache write per layer and cache, ...). Every recorded operation ends with a barrier that makes its
// status slot visible to the host; on a GPU each such barrier can also drain the compute work before
// it. Inside a StatusBatch the operations recorded into its command buffer record none: end() records
// one for all of them, after the last. Between independent small operations (those planned as one
// dispatch, docs/operators.md "Small operations") nothing of vkindex's then stands: they wait only on
// the barriers the application places for its own data dependencies.
#pragma once

#include <memory>

#include "vkindex/api.h"
#include "vkindex/context.hpp"
#include "vkindex/status.hpp"

namespace vkindex {

// Like a RecordedOp, a StatusBatch must not outlive the Context it was begun on.
class VKINDEX_API StatusBatch {
 public:
  // Opens a batch on `command_buffer` (in the recording state). At most one batch is open per command
  // buffer; kInvalidArgument for a second one.
  static StatusOr<StatusBatch> begin(Context& context, VkCommandBuffer command_buffer);

  StatusBatch();
  ~StatusBatch();  // closes the batch if end() was not called: its operations then finish with an error
  StatusBatch(StatusBatch&& other) noexcept;
  StatusBatch& operator=(StatusBatch&& other) noexcept;

  // Records the one barrier (compute-shader writes to host reads) that makes the status of every
  // operation recorded in the batch visible to the host, and closes the batch. Call after the batch's
  // last operation and before vkEndCommandBuffer. RecordedOp::finish() of an operation of a batch that
  // was closed without end() returns kInvalidArgument, since its status was never made visible.
  Status end();

  struct State;

 private:
  // Takes the batch off its command buffer, if it is open (end() without the barrier).
  void close();

  std::shared_ptr<State> state_;
};

}  // namespace vkindex
