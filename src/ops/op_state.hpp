// What every recorded operation keeps until its command buffer completed: the descriptor sets its
// commands use, its status slot, and what is needed to turn a bad-index report into a message.
#pragma once

#include <string>

#include "core/context_impl.hpp"
#include "kernels/recorder.hpp"
#include "vkindex/ops.hpp"
#include "vkindex/tensor.hpp"

namespace vkindex {

// Describes the index check of one operation, for the message when it fails.
struct IndexCheckInfo {
  std::string op;     // "Gather"
  std::string input;  // "indices"
  Shape indices_shape;
  int64_t axis = 0;  // the data axis the indices address
  uint64_t axis_size = 0;
};

// "Gather: indices[1, 0] = 5 is out of range for axis 0 of size 5 (allowed [-5, 4])".
Status indexOutOfRange(const IndexCheckInfo& info, const kernels::StatusBoard::Report& report);

struct RecordedOp::State {
  Context::Impl* context = nullptr;
  kernels::DescriptorPool descriptors;
  std::optional<uint32_t> slot;
  IndexCheckInfo check;

  ~State();
  // Ok, or the index error the device reported. Call only after the commands completed.
  Status result() const;
};

// Creates the state for one operation: a status slot and a descriptor pool for `dispatch_count`
// dispatches of at most `bindings_per_dispatch` buffers.
StatusOr<std::unique_ptr<RecordedOp::State>> newOpState(Context::Impl& context, uint32_t dispatch_count,
                                                        uint32_t bindings_per_dispatch, IndexCheckInfo check);

struct RecordedOpAccess {
  static RecordedOp wrap(std::unique_ptr<RecordedOp::State> state);
};

// How a kernel sees one status slot: a small binding around it (aligned as bindings must be) and the
// slot's index inside that binding, which is what the kernels' `status_slot` push constant holds.
struct StatusBinding {
  kernels::BufferRange binding;  // what the dispatch binds
  kernels::BufferRange slot;     // the slot's own 16 bytes, for barriers
  uint32_t relative_slot = 0;
};
StatusBinding statusBinding(const Context::Impl& context, uint32_t slot);

// Checks that `tensor` was made with `context` and (for device tensors) has a buffer.
Status checkTensorContext(const Context& context, const Tensor& tensor, const char* op, const char* name);

// Checks that `output` does not share bytes with `input` (operators read inputs while writing outputs).
Status checkNoOverlap(const Tensor& output, const Tensor& input, const char* op, const char* input_name);

}  // namespace vkindex
