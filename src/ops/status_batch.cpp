#include "vkindex/status_batch.hpp"

#include <utility>

#include "core/context_impl.hpp"
#include "kernels/status_batches.hpp"
#include "vk/barriers.hpp"

namespace vkindex {

StatusOr<StatusBatch> StatusBatch::begin(Context& context, VkCommandBuffer command_buffer) {
  if (command_buffer == VK_NULL_HANDLE) return invalidArgument("StatusBatch::begin: command_buffer is null");
  Context::Impl& impl = implOf(context);
  auto state = std::make_shared<State>();
  state->command_buffer = command_buffer;
  state->context = &impl;
  if (!impl.status_batches->open(state)) {
    return invalidArgument("StatusBatch::begin: a StatusBatch is already open on this command buffer (end it first)");
  }
  StatusBatch batch;
  batch.state_ = std::move(state);
  return batch;
}

StatusBatch::StatusBatch() = default;

StatusBatch::~StatusBatch() { close(); }

StatusBatch::StatusBatch(StatusBatch&& other) noexcept = default;

StatusBatch& StatusBatch::operator=(StatusBatch&& other) noexcept {
  if (this != &other) {
    close();
    state_ = std::move(other.state_);
  }
  return *this;
}

void StatusBatch::close() {
  if (state_) state_->context->status_batches->close(state_.get());
  state_.reset();
}

Status StatusBatch::end() {
  if (!state_) return invalidArgument("StatusBatch::end: the batch is not open (never begun, or already ended)");
  Context::Impl& context = *state_->context;
  // Every slot lies in the status board's one buffer: one barrier over all of it.
  const kernels::BufferRange board = context.status->boardRange();
  vk::recordBufferBarrier(context.device->fn(), state_->command_buffer, board.buffer, board.offset, board.size,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                          VK_ACCESS_HOST_READ_BIT);
  state_->ended = true;
  close();
  return Status::Ok();
}

}  // namespace vkindex
