// What every recorded operation keeps until its command buffer completed: the descriptor sets its
// commands use, its status slot, its scratch memory, and what is needed to turn a bad-index report
// into a message.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/context_impl.hpp"
#include "kernels/recorder.hpp"
#include "kernels/status_batches.hpp"
#include "plan/op_plan.hpp"
#include "vk/buffer.hpp"
#include "vkindex/ops.hpp"
#include "vkindex/tensor.hpp"

namespace vkindex {

// "Gather: indices[1, 0] = 5 is out of range for axis 0 of size 5 (allowed [-5, 4])", or for tuples
// "GatherND: indices[1, 0] (component 1) = 7 is out of range for data dim 2 of size 5 (allowed [-5, 4])".
// `position` is the flat position of the bad element in the indices, `value` its value.
Status indexOutOfRange(const plan::IndexReport& info, uint64_t position, int64_t value);

struct RecordedOp::State {
  Context::Impl* context = nullptr;
  kernels::DescriptorPool descriptors;
  std::optional<uint32_t> slot;
  std::unique_ptr<vk::Buffer> scratch;
  plan::IndexReport report;
  // Host-index forms: the index values recorded into the command buffer for the kernel path.
  std::optional<Tensor> uploaded_indices;
  // Set when recorded inside a StatusBatch: its end() records the status slot's barrier to the host.
  std::shared_ptr<const StatusBatch::State> batch;

  ~State();
  // Ok, or the index error the device reported. Call only after the commands completed.
  Status result() const;
};

struct RecordedOpAccess {
  static RecordedOp wrap(std::unique_ptr<RecordedOp::State> state);
};

// Checks that `tensor` was made with `context` and (for device tensors) has a buffer.
Status checkTensorContext(const Context& context, const Tensor& tensor, const char* op, const char* name);

// Checks that `output` does not share bytes with `input` (operators read inputs while writing outputs).
// `output_name` names it in the error: "the output", or in-place data.
Status checkNoOverlap(const Tensor& output, const Tensor& input, const char* op, const char* input_name,
                      const char* output_name = "the output");

}  // namespace vkindex
