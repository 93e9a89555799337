// TensorScatter (ONNX opset 24), the four public forms (vkindex/tensor_scatter.hpp): validation and shape
// on the host (src/plan/tensor_scatter_plan), the plan through the one runner. String caches are written
// on the host, where their strings live.
#include <cstring>
#include <vector>

#include "ops/gather_family.hpp"
#include "ops/op_runner.hpp"
#include "plan/shape.hpp"
#include "plan/tensor_scatter_plan.hpp"
#include "vkindex/tensor_scatter.hpp"

namespace vkindex {
namespace {

constexpr const char* kOp = "TensorScatter";

Status checkContexts(Context& context, const Tensor& past, const Tensor& update, const Tensor* indices,
                     const Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, past, kOp, "past_cache"));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, update, kOp, "update"));
  if (indices != nullptr) VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, *indices, kOp, "write_indices"));
  return checkTensorContext(context, output, kOp, "output");
}

StatusOr<plan::TensorScatterShape> infer(const Tensor& past, const Tensor& update, const Tensor* indices,
                                         const TensorScatterOptions& options) {
  std::optional<plan::WriteIndicesInput> indices_input;
  if (indices != nullptr) indices_input = plan::WriteIndicesInput{indices->shape(), indices->dtype()};
  return plan::inferTensorScatterShape(past.shape(), past.dtype(), update.shape(), update.dtype(), indices_input,
                                       options);
}

// The output has past_cache's shape and type and shares no bytes with what the operation reads (in
// place, it is past_cache itself).
Status validateOutput(const Tensor& output, const Tensor& past, const Tensor& update, const Tensor* indices,
                      bool in_place) {
  if (output.dtype() != past.dtype()) {
    return invalidArgument(std::string(kOp) + ": the output has type " + dataTypeName(output.dtype()) +
                           " but input 'past_cache' has type " + dataTypeName(past.dtype()));
  }
  if (output.shape() != past.shape()) {
    return invalidArgument(std::string(kOp) + ": the output has shape " + plan::shapeString(output.shape()) +
                           ", expected " + plan::shapeString(past.shape()));
  }
  if (!in_place) VKINDEX_RETURN_IF_ERROR(checkNoOverlap(output, past, kOp, "past_cache"));
  const char* output_name = in_place ? "input 'past_cache' (updated in place)" : "the output";
  if (indices != nullptr) VKINDEX_RETURN_IF_ERROR(checkNoOverlap(output, *indices, kOp, "write_indices", output_name));
  return checkNoOverlap(output, update, kOp, "update", output_name);
}

// String caches: the write indices come to the host, and rows of strings are assigned there.
Status runOnStrings(const plan::TensorScatterShape& shape, const Tensor& update, const Tensor* indices,
                    Tensor& output) {
  std::vector<int64_t> writes(shape.batch, 0);
  if (indices != nullptr) VKINDEX_RETURN_IF_ERROR(indices->download(writes.data(), writes.size() * sizeof(int64_t)));
  plan::IndexReport report;
  report.op = kOp;
  report.input = "write_indices";
  report.write_rule = plan::WriteIndexRule{shape.axis, shape.seq_len, shape.max_seq,
                                           shape.options.mode == TensorScatterMode::kCircular};
  const bool circular = shape.options.mode == TensorScatterMode::kCircular;
  std::vector<bool> skipped(shape.batch, false);
  for (uint64_t b = 0; b < shape.batch; ++b) {
    const int64_t w = writes[b];
    // Compared without forming w + seq_len, which could overflow.
    const bool valid = w >= 0 && (circular || static_cast<uint64_t>(w) <= shape.max_seq - shape.seq_len);
    if (valid) continue;
    if (shape.options.index_policy == IndexPolicy::kError) return indexOutOfRange(report, b, w);
    skipped[b] = true;
  }
  std::vector<std::string>& cache = output.mutableStrings();
  const std::vector<std::string>& rows = update.strings();
  const uint64_t length = shape.row_elements;
  for (uint64_t outer = 0; outer < shape.batch * shape.rows_per_batch; ++outer) {
    const uint64_t b = outer / shape.rows_per_batch;
    if (skipped[b] || shape.seq_len == 0) continue;
    const uint64_t start = circular ? static_cast<uint64_t>(writes[b]) % shape.max_seq : writes[b];
    for (uint64_t s = 0; s < shape.seq_len; ++s) {
      const uint64_t position = circular ? (start + s) % shape.max_seq : start + s;
      const auto source = rows.begin() + static_cast<ptrdiff_t>((outer * shape.seq_len + s) * length);
      std::copy(source, source + static_cast<ptrdiff_t>(length),
                cache.begin() + static_cast<ptrdiff_t>((outer * shape.max_seq + position) * length));
    }
  }
  return Status::Ok();
}

bool sameBytes(const Tensor& a, const Tensor& b) {
  return &a == &b || (a.buffer() != VK_NULL_HANDLE && a.buffer() == b.buffer() && a.offset() == b.offset() &&
                      a.byteSize() == b.byteSize());
}

StatusOr<plan::OpPlan> planChecked(Context& context, const plan::TensorScatterShape& shape, const Tensor& past,
                                   const Tensor& update, const Tensor* indices, const Tensor& output, bool in_place) {
  VKINDEX_RETURN_IF_ERROR(validateOutput(output, past, update, indices, in_place));
  std::optional<plan::Placement> indices_placement;
  if (indices != nullptr) indices_placement = placementOf(*indices);
  return plan::planTensorScatter(shape, placementOf(past), indices_placement, placementOf(update), placementOf(output),
                                 in_place, context.device(), tuningOf(context));
}

// Runs a call whose tensors' contexts are checked and whose shape is inferred.
Status runInferred(Context& context, const plan::TensorScatterShape& shape, const Tensor& past, const Tensor& update,
                   const Tensor* indices, Tensor& output, bool in_place) {
  if (past.dtype() == DataType::kString) {
    VKINDEX_RETURN_IF_ERROR(validateOutput(output, past, update, indices, in_place));
    if (!in_place) output.mutableStrings() = past.strings();
    return runOnStrings(shape, update, indices, output);
  }
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan, planChecked(context, shape, past, update, indices, output, in_place));
  return runPlan(context, plan, {in_place ? nullptr : &past, indices, &update, &output});
}

Status run(Context& context, const Tensor& past, const Tensor& update, const Tensor* indices,
           const TensorScatterOptions& options, Tensor& output, bool in_place) {
  VKINDEX_RETURN_IF_ERROR(checkContexts(context, past, update, indices, output));
  VKINDEX_ASSIGN_OR_RETURN(plan::TensorScatterShape shape, infer(past, update, indices, options));
  return runInferred(context, shape, past, update, indices, output, in_place);
}

}  // namespace

StatusOr<Tensor> tensorScatter(Context& context, const Tensor& past_cache, const Tensor& update,
                               const Tensor* write_indices, const TensorScatterOptions& options) {
  // The inputs are checked before the output is made, so that an error names them, not the output.
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, past_cache, kOp, "past_cache"));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, update, kOp, "update"));
  if (write_indices != nullptr) {
    VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, *write_indices, kOp, "write_indices"));
  }
  VKINDEX_ASSIGN_OR_RETURN(plan::TensorScatterShape shape, infer(past_cache, update, write_indices, options));
  Tensor output;
  if (past_cache.dtype() == DataType::kString) {
    VKINDEX_ASSIGN_OR_RETURN(output, Tensor::fromStrings(context, past_cache.shape(), past_cache.strings()));
  } else {
    VKINDEX_ASSIGN_OR_RETURN(output, createOutput(context, kOp, past_cache.dtype(), past_cache.shape()));
  }
  VKINDEX_RETURN_IF_ERROR(runInferred(context, shape, past_cache, update, write_indices, output, false));
  return output;
}

Status tensorScatter(Context& context, const Tensor& past_cache, const Tensor& update, const Tensor* write_indices,
                     const TensorScatterOptions& options, Tensor& output) {
  return run(context, past_cache, update, write_indices, options, output, false);
}

Status tensorScatterInPlace(Context& context, Tensor& cache, const Tensor& update, const Tensor* write_indices,
                            const TensorScatterOptions& options) {
  return run(context, cache, update, write_indices, options, cache, true);
}

StatusOr<RecordedOp> recordTensorScatter(Context& context, VkCommandBuffer command_buffer, const Tensor& past_cache,
                                         const Tensor& update, const Tensor* write_indices,
                                         const TensorScatterOptions& options, Tensor& output) {
  if (past_cache.dtype() == DataType::kString) {
    return unsupported("recordTensorScatter: string tensors live on the host and cannot be recorded");
  }
  if (command_buffer == VK_NULL_HANDLE) return invalidArgument("recordTensorScatter: the VkCommandBuffer is null");
  VKINDEX_RETURN_IF_ERROR(checkContexts(context, past_cache, update, write_indices, output));
  VKINDEX_ASSIGN_OR_RETURN(plan::TensorScatterShape shape, infer(past_cache, update, write_indices, options));
  const bool in_place = sameBytes(output, past_cache);
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan,
                           planChecked(context, shape, past_cache, update, write_indices, output, in_place));
  VKINDEX_ASSIGN_OR_RETURN(
      std::unique_ptr<RecordedOp::State> state,
      recordPlan(context, command_buffer, plan, {in_place ? nullptr : &past_cache, write_indices, &update, &output}));
  return RecordedOpAccess::wrap(std::move(state));
}

}  // namespace vkindex
