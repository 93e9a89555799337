#include "ops/op_state.hpp"

#include <cstdint>
#include <utility>

#include "common/abi.h"
#include "plan/shape.hpp"
#include "plan/windows.hpp"

namespace vkindex {

namespace {

// "TensorScatter: write_indices[1] = 3 is out of range for seq_len 2 and max_seq 4 (axis 2) in linear mode
// (allowed [0, 2]: the write index plus seq_len must not exceed max_seq)".
Status writeIndexOutOfRange(const plan::IndexReport& info, uint64_t position, int64_t value) {
  const plan::WriteIndexRule& rule = *info.write_rule;
  const std::string where = info.op + ": " + info.input + "[" + std::to_string(position) +
                            "] = " + std::to_string(value) + " is out of range for seq_len " +
                            std::to_string(rule.seq_len) + " and max_seq " + std::to_string(rule.max_seq) + " (axis " +
                            std::to_string(rule.axis) + ")";
  if (rule.circular) {
    return outOfRange(where + " in circular mode (allowed [0, " + std::to_string(INT64_MAX) +
                      "]: positions wrap, but a write index may not be negative)");
  }
  return outOfRange(where + " in linear mode (allowed [0, " + std::to_string(rule.max_seq - rule.seq_len) +
                    "]: the write index plus seq_len must not exceed max_seq)");
}

}  // namespace

Status indexOutOfRange(const plan::IndexReport& info, uint64_t position, int64_t value) {
  if (info.write_rule) return writeIndexOutOfRange(info, position, value);
  std::string where = info.op + ": " + info.input;
  size_t component = 0;
  if (info.tuples) {
    // Name the tuple by its coordinates in indices.shape[:-1], then the component inside it.
    const uint64_t k = info.extents.size();
    component = static_cast<size_t>(position % k);
    const Shape tuple_shape(info.indices_shape.begin(), info.indices_shape.end() - 1);
    where += plan::coordinatesString(tuple_shape, position / k) + " (component " + std::to_string(component) + ")";
  } else {
    where += plan::coordinatesString(info.indices_shape, position);
  }
  where += " = " + std::to_string(value) + " is out of range for " + (info.tuples ? "data dim " : "axis ") +
           std::to_string(info.data_dims[component]) + " of size " + std::to_string(info.extents[component]);
  if (info.extents[component] == 0) return outOfRange(where + " (an empty axis admits no index)");
  const int64_t size = static_cast<int64_t>(info.extents[component]);
  return outOfRange(where + " (allowed [" + std::to_string(-size) + ", " + std::to_string(size - 1) + "])");
}

RecordedOp::State::~State() {
  if (slot) context->status->release(*slot);
  if (scratch) context->scratch->release(std::move(scratch));
}

Status RecordedOp::State::result() const {
  if (!slot) return Status::Ok();  // nothing checked on the device (e.g. indices checked on the host)
  if (batch && !batch->ended) {
    return invalidArgument(
        "RecordedOp::finish: the operation was recorded in a StatusBatch closed without end(), so its status was "
        "never made visible to the host (call StatusBatch::end() after the batch's last operation)");
  }
  const kernels::StatusBoard::Report found = context->status->read(*slot);
  if (found.position == VKINDEX_NO_ERROR) return Status::Ok();
  return indexOutOfRange(report, found.position, found.value);
}

RecordedOp RecordedOpAccess::wrap(std::unique_ptr<RecordedOp::State> state) {
  RecordedOp op;
  op.state_ = std::move(state);
  return op;
}

RecordedOp::RecordedOp() = default;
RecordedOp::~RecordedOp() = default;
RecordedOp::RecordedOp(RecordedOp&& other) noexcept = default;
RecordedOp& RecordedOp::operator=(RecordedOp&& other) noexcept = default;

Status RecordedOp::finish() {
  if (!result_) {
    result_ = state_ ? state_->result() : invalidArgument("RecordedOp::finish: this operation was never recorded");
    state_.reset();
  }
  return *result_;
}

Status checkTensorContext(const Context& context, const Tensor& tensor, const char* op, const char* name) {
  if (tensor.context() != &context) {
    return invalidArgument(std::string(op) + ": input '" + name + "' belongs to another Context (or is empty)");
  }
  return Status::Ok();
}

Status checkNoOverlap(const Tensor& output, const Tensor& input, const char* op, const char* input_name,
                      const char* output_name) {
  if (output.dtype() == DataType::kString || input.dtype() == DataType::kString) return Status::Ok();
  if (output.buffer() != input.buffer() || output.byteSize() == 0 || input.byteSize() == 0) return Status::Ok();
  uint64_t out_end = output.offset() + plan::alignUp(output.byteSize(), 4);
  uint64_t in_end = input.offset() + plan::alignUp(input.byteSize(), 4);
  if (output.offset() < in_end && input.offset() < out_end) {
    return invalidArgument(std::string(op) + ": " + output_name + " overlaps input '" + input_name +
                           "' in the same VkBuffer");
  }
  return Status::Ok();
}

}  // namespace vkindex
