// The C API's recording forms (include/vkindex/vkindex.h): each operator recorded into the application's
// command buffer, into an output the caller created, with a VkindexRecordedOp to finish once it ran.
#include <optional>
#include <string>
#include <utility>

#include "capi/c_api_support.hpp"

using vkindex::capi::fail;
using vkindex::capi::nullArgument;
using vkindex::capi::toReduction;

namespace {

// Checks what every recording form takes (`updates` only for scatters: pass `needs_updates`), runs
// `record` and wraps the recorded operation in `*op`.
template <typename Record>
VkindexStatus recordOp(const char* function, VkindexContext context, VkCommandBuffer command_buffer, VkindexTensor data,
                       VkindexTensor indices, VkindexTensor updates, bool needs_updates, VkindexTensor output,
                       VkindexRecordedOp* op, Record record) {
  if (context == nullptr) return nullArgument(function, "context");
  if (command_buffer == VK_NULL_HANDLE) return nullArgument(function, "command_buffer");
  if (data == nullptr) return nullArgument(function, "data");
  if (indices == nullptr) return nullArgument(function, "indices");
  if (needs_updates && updates == nullptr) return nullArgument(function, "updates");
  if (output == nullptr) return nullArgument(function, "output");
  if (op == nullptr) return nullArgument(function, "op");
  vkindex::StatusOr<vkindex::RecordedOp> recorded = record(*context->context, output->tensor);
  if (!recorded.ok()) return fail(recorded.status());
  *op = new VkindexRecordedOp_T{std::move(recorded).value()};
  return VKINDEX_OK;
}

// The reduction as vkindex::Reduction, or the error naming `function`.
vkindex::StatusOr<vkindex::Reduction> reductionFor(const char* function, VkindexReduction reduction) {
  std::optional<vkindex::Reduction> converted = toReduction(reduction);
  if (!converted) {
    return vkindex::invalidArgument(std::string(function) + ": unknown reduction " + std::to_string(reduction));
  }
  return *converted;
}

// A gather-family operator's C++ recording form (recordGather, recordGatherElements, recordGatherND).
using GatherRecorder = vkindex::StatusOr<vkindex::RecordedOp> (*)(vkindex::Context&, VkCommandBuffer,
                                                                  const vkindex::Tensor&, const vkindex::Tensor&,
                                                                  int64_t, vkindex::Tensor&, vkindex::IndexPolicy);

// The C form of a gather-family recording: the checks every recording form makes, then `record`.
VkindexStatus recordGatherFamily(const char* function, GatherRecorder record, VkindexContext context,
                                 VkCommandBuffer command_buffer, VkindexTensor data, VkindexTensor indices,
                                 int64_t attribute, VkindexIndexPolicy policy, VkindexTensor output,
                                 VkindexRecordedOp* op) {
  return recordOp(function, context, command_buffer, data, indices, nullptr, false, output, op,
                  [&](vkindex::Context& ctx, vkindex::Tensor& out) -> vkindex::StatusOr<vkindex::RecordedOp> {
                    VKINDEX_ASSIGN_OR_RETURN(vkindex::IndexPolicy converted,
                                             vkindex::capi::toIndexPolicy(function, policy));
                    return record(ctx, command_buffer, data->tensor, indices->tensor, attribute, out, converted);
                  });
}

// The C forms of recordScatterElements and recordScatterND, as `function`: the checks every recording
// form makes, the reduction's and the policy's conversion, then the C++ form.
VkindexStatus recordScatterElementsAs(const char* function, VkindexContext context, VkCommandBuffer command_buffer,
                                      VkindexTensor data, VkindexTensor indices, VkindexTensor updates, int64_t axis,
                                      VkindexReduction reduction, VkindexIndexPolicy policy, VkindexTensor output,
                                      VkindexRecordedOp* op) {
  return recordOp(function, context, command_buffer, data, indices, updates, true, output, op,
                  [&](vkindex::Context& ctx, vkindex::Tensor& out) -> vkindex::StatusOr<vkindex::RecordedOp> {
                    VKINDEX_ASSIGN_OR_RETURN(vkindex::Reduction how, reductionFor(function, reduction));
                    VKINDEX_ASSIGN_OR_RETURN(vkindex::IndexPolicy converted,
                                             vkindex::capi::toIndexPolicy(function, policy));
                    return vkindex::recordScatterElements(ctx, command_buffer, data->tensor, indices->tensor,
                                                          updates->tensor, axis, how, out, converted);
                  });
}

VkindexStatus recordScatterNDAs(const char* function, VkindexContext context, VkCommandBuffer command_buffer,
                                VkindexTensor data, VkindexTensor indices, VkindexTensor updates,
                                VkindexReduction reduction, VkindexIndexPolicy policy, VkindexTensor output,
                                VkindexRecordedOp* op) {
  return recordOp(function, context, command_buffer, data, indices, updates, true, output, op,
                  [&](vkindex::Context& ctx, vkindex::Tensor& out) -> vkindex::StatusOr<vkindex::RecordedOp> {
                    VKINDEX_ASSIGN_OR_RETURN(vkindex::Reduction how, reductionFor(function, reduction));
                    VKINDEX_ASSIGN_OR_RETURN(vkindex::IndexPolicy converted,
                                             vkindex::capi::toIndexPolicy(function, policy));
                    return vkindex::recordScatterND(ctx, command_buffer, data->tensor, indices->tensor, updates->tensor,
                                                    how, out, converted);
                  });
}

}  // namespace

extern "C" {

VkindexStatus vkindexRecordGather(VkindexContext context, VkCommandBuffer command_buffer, VkindexTensor data,
                                  VkindexTensor indices, int64_t axis, VkindexTensor output, VkindexRecordedOp* op) {
  return recordGatherFamily("vkindexRecordGather", vkindex::recordGather, context, command_buffer, data, indices, axis,
                            VKINDEX_INDEX_POLICY_ERROR, output, op);
}

VkindexStatus vkindexRecordGatherWithPolicy(VkindexContext context, VkCommandBuffer command_buffer, VkindexTensor data,
                                            VkindexTensor indices, int64_t axis, VkindexIndexPolicy policy,
                                            VkindexTensor output, VkindexRecordedOp* op) {
  return recordGatherFamily("vkindexRecordGatherWithPolicy", vkindex::recordGather, context, command_buffer, data,
                            indices, axis, policy, output, op);
}

VkindexStatus vkindexRecordGatherElements(VkindexContext context, VkCommandBuffer command_buffer, VkindexTensor data,
                                          VkindexTensor indices, int64_t axis, VkindexTensor output,
                                          VkindexRecordedOp* op) {
  return recordGatherFamily("vkindexRecordGatherElements", vkindex::recordGatherElements, context, command_buffer, data,
                            indices, axis, VKINDEX_INDEX_POLICY_ERROR, output, op);
}

VkindexStatus vkindexRecordGatherElementsWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                                    VkindexTensor data, VkindexTensor indices, int64_t axis,
                                                    VkindexIndexPolicy policy, VkindexTensor output,
                                                    VkindexRecordedOp* op) {
  return recordGatherFamily("vkindexRecordGatherElementsWithPolicy", vkindex::recordGatherElements, context,
                            command_buffer, data, indices, axis, policy, output, op);
}

VkindexStatus vkindexRecordGatherND(VkindexContext context, VkCommandBuffer command_buffer, VkindexTensor data,
                                    VkindexTensor indices, int64_t batch_dims, VkindexTensor output,
                                    VkindexRecordedOp* op) {
  return recordGatherFamily("vkindexRecordGatherND", vkindex::recordGatherND, context, command_buffer, data, indices,
                            batch_dims, VKINDEX_INDEX_POLICY_ERROR, output, op);
}

VkindexStatus vkindexRecordGatherNDWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                              VkindexTensor data, VkindexTensor indices, int64_t batch_dims,
                                              VkindexIndexPolicy policy, VkindexTensor output, VkindexRecordedOp* op) {
  return recordGatherFamily("vkindexRecordGatherNDWithPolicy", vkindex::recordGatherND, context, command_buffer, data,
                            indices, batch_dims, policy, output, op);
}

VkindexStatus vkindexRecordScatterElements(VkindexContext context, VkCommandBuffer command_buffer, VkindexTensor data,
                                           VkindexTensor indices, VkindexTensor updates, int64_t axis,
                                           VkindexReduction reduction, VkindexTensor output, VkindexRecordedOp* op) {
  return recordScatterElementsAs("vkindexRecordScatterElements", context, command_buffer, data, indices, updates, axis,
                                 reduction, VKINDEX_INDEX_POLICY_ERROR, output, op);
}

VkindexStatus vkindexRecordScatterND(VkindexContext context, VkCommandBuffer command_buffer, VkindexTensor data,
                                     VkindexTensor indices, VkindexTensor updates, VkindexReduction reduction,
                                     VkindexTensor output, VkindexRecordedOp* op) {
  return recordScatterNDAs("vkindexRecordScatterND", context, command_buffer, data, indices, updates, reduction,
                           VKINDEX_INDEX_POLICY_ERROR, output, op);
}

VkindexStatus vkindexRecordScatterElementsWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                                     VkindexTensor data, VkindexTensor indices, VkindexTensor updates,
                                                     int64_t axis, VkindexReduction reduction,
                                                     VkindexIndexPolicy policy, VkindexTensor output,
                                                     VkindexRecordedOp* op) {
  return recordScatterElementsAs("vkindexRecordScatterElementsWithPolicy", context, command_buffer, data, indices,
                                 updates, axis, reduction, policy, output, op);
}

VkindexStatus vkindexRecordScatterNDWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                               VkindexTensor data, VkindexTensor indices, VkindexTensor updates,
                                               VkindexReduction reduction, VkindexIndexPolicy policy,
                                               VkindexTensor output, VkindexRecordedOp* op) {
  return recordScatterNDAs("vkindexRecordScatterNDWithPolicy", context, command_buffer, data, indices, updates,
                           reduction, policy, output, op);
}

VkindexStatus vkindexRecordedOpFinish(VkindexRecordedOp op) {
  if (op == nullptr) return nullArgument("vkindexRecordedOpFinish", "op");
  vkindex::Status status = op->op.finish();
  return status.ok() ? VKINDEX_OK : fail(status);
}

void vkindexRecordedOpDestroy(VkindexRecordedOp op) { delete op; }

VkindexStatus vkindexStatusBatchBegin(VkindexContext context, VkCommandBuffer command_buffer,
                                      VkindexStatusBatch* batch) {
  constexpr const char* kFunction = "vkindexStatusBatchBegin";
  if (context == nullptr) return nullArgument(kFunction, "context");
  if (command_buffer == VK_NULL_HANDLE) return nullArgument(kFunction, "command_buffer");
  if (batch == nullptr) return nullArgument(kFunction, "batch");
  vkindex::StatusOr<vkindex::StatusBatch> begun = vkindex::StatusBatch::begin(*context->context, command_buffer);
  if (!begun.ok()) return fail(begun.status());
  *batch = new VkindexStatusBatch_T{std::move(begun).value()};
  return VKINDEX_OK;
}

VkindexStatus vkindexStatusBatchEnd(VkindexStatusBatch batch) {
  if (batch == nullptr) return nullArgument("vkindexStatusBatchEnd", "batch");
  vkindex::Status status = batch->batch.end();
  return status.ok() ? VKINDEX_OK : fail(status);
}

void vkindexStatusBatchDestroy(VkindexStatusBatch batch) { delete batch; }

}  // extern "C"
