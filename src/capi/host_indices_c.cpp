// The C API's host-index forms of Gather and GatherND (include/vkindex/vkindex.h, VkindexHostIndices):
// each checks its handles, converts the indices and runs the C++ form.
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "capi/c_api_support.hpp"

using vkindex::capi::fail;
using vkindex::capi::nullArgument;

namespace {

// Checks the handles and runs `run(context, data, host_indices)`, which returns a Tensor (wrapped in
// `*tensor_out`) or a RecordedOp (wrapped in `*op_out`).
template <typename Out, typename Run>
VkindexStatus runHostIndexForm(const char* function, VkindexContext context, VkindexTensor data,
                               const VkindexHostIndices* indices, Out* out, Run run) {
  if (context == nullptr) return nullArgument(function, "context");
  if (data == nullptr) return nullArgument(function, "data");
  if (indices == nullptr) return nullArgument(function, "indices");
  if (out == nullptr) return nullArgument(function, std::is_same_v<Out, VkindexRecordedOp> ? "op" : "output");
  vkindex::StatusOr<vkindex::HostIndices> host = vkindex::capi::toHostIndices(function, *indices);
  if (!host.ok()) return fail(host.status());
  auto result = run(*context->context, data->tensor, *host);
  if (!result.ok()) return fail(result.status());
  if constexpr (std::is_same_v<Out, VkindexRecordedOp>) {
    *out = new VkindexRecordedOp_T{std::move(result).value()};
  } else {
    *out = vkindex::capi::wrap(std::move(result).value());
  }
  return VKINDEX_OK;
}

// A host-index gather's C++ recording form (recordGather, recordGatherND with HostIndices).
using HostIndexRecorder = vkindex::StatusOr<vkindex::RecordedOp> (*)(vkindex::Context&, VkCommandBuffer,
                                                                     const vkindex::Tensor&,
                                                                     const vkindex::HostIndices&, int64_t,
                                                                     vkindex::Tensor&, vkindex::IndexPolicy);

// The C form of a host-index recording: its own checks, then `record` through runHostIndexForm.
VkindexStatus recordHostIndexForm(const char* function, HostIndexRecorder record, VkindexContext context,
                                  VkCommandBuffer command_buffer, VkindexTensor data, const VkindexHostIndices* indices,
                                  int64_t attribute, VkindexIndexPolicy policy, VkindexTensor output,
                                  VkindexRecordedOp* op) {
  if (command_buffer == VK_NULL_HANDLE) return nullArgument(function, "command_buffer");
  if (output == nullptr) return nullArgument(function, "output");
  return runHostIndexForm(function, context, data, indices, op,
                          [&](vkindex::Context& ctx, const vkindex::Tensor& d,
                              const vkindex::HostIndices& i) -> vkindex::StatusOr<vkindex::RecordedOp> {
                            VKINDEX_ASSIGN_OR_RETURN(vkindex::IndexPolicy converted,
                                                     vkindex::capi::toIndexPolicy(function, policy));
                            return record(ctx, command_buffer, d, i, attribute, output->tensor, converted);
                          });
}

// The C form of a host-index gather into a new tensor: `gather_function` is vkindex::gather or gatherND.
template <typename GatherFunction>
VkindexStatus gatherHostIndexForm(const char* function, GatherFunction gather_function, VkindexContext context,
                                  VkindexTensor data, const VkindexHostIndices* indices, int64_t attribute,
                                  VkindexIndexPolicy policy, VkindexTensor* output) {
  return runHostIndexForm(function, context, data, indices, output,
                          [&](vkindex::Context& ctx, const vkindex::Tensor& d,
                              const vkindex::HostIndices& i) -> vkindex::StatusOr<vkindex::Tensor> {
                            VKINDEX_ASSIGN_OR_RETURN(vkindex::IndexPolicy converted,
                                                     vkindex::capi::toIndexPolicy(function, policy));
                            return gather_function(ctx, d, i, attribute, converted);
                          });
}

// The C++ host-index gathers into a new tensor, as plain functions for gatherHostIndexForm.
vkindex::StatusOr<vkindex::Tensor> hostGather(vkindex::Context& context, const vkindex::Tensor& data,
                                              const vkindex::HostIndices& indices, int64_t axis,
                                              vkindex::IndexPolicy policy) {
  return vkindex::gather(context, data, indices, axis, policy);
}

vkindex::StatusOr<vkindex::Tensor> hostGatherND(vkindex::Context& context, const vkindex::Tensor& data,
                                                const vkindex::HostIndices& indices, int64_t batch_dims,
                                                vkindex::IndexPolicy policy) {
  return vkindex::gatherND(context, data, indices, batch_dims, policy);
}

}  // namespace

extern "C" {

VkindexStatus vkindexGatherHostIndices(VkindexContext context, VkindexTensor data, const VkindexHostIndices* indices,
                                       int64_t axis, VkindexTensor* output) {
  return gatherHostIndexForm("vkindexGatherHostIndices", hostGather, context, data, indices, axis,
                             VKINDEX_INDEX_POLICY_ERROR, output);
}

VkindexStatus vkindexGatherNDHostIndices(VkindexContext context, VkindexTensor data, const VkindexHostIndices* indices,
                                         int64_t batch_dims, VkindexTensor* output) {
  return gatherHostIndexForm("vkindexGatherNDHostIndices", hostGatherND, context, data, indices, batch_dims,
                             VKINDEX_INDEX_POLICY_ERROR, output);
}

VkindexStatus vkindexGatherHostIndicesWithPolicy(VkindexContext context, VkindexTensor data,
                                                 const VkindexHostIndices* indices, int64_t axis,
                                                 VkindexIndexPolicy policy, VkindexTensor* output) {
  return gatherHostIndexForm("vkindexGatherHostIndicesWithPolicy", hostGather, context, data, indices, axis, policy,
                             output);
}

VkindexStatus vkindexGatherNDHostIndicesWithPolicy(VkindexContext context, VkindexTensor data,
                                                   const VkindexHostIndices* indices, int64_t batch_dims,
                                                   VkindexIndexPolicy policy, VkindexTensor* output) {
  return gatherHostIndexForm("vkindexGatherNDHostIndicesWithPolicy", hostGatherND, context, data, indices, batch_dims,
                             policy, output);
}

VkindexStatus vkindexRecordGatherHostIndices(VkindexContext context, VkCommandBuffer command_buffer, VkindexTensor data,
                                             const VkindexHostIndices* indices, int64_t axis, VkindexTensor output,
                                             VkindexRecordedOp* op) {
  return recordHostIndexForm("vkindexRecordGatherHostIndices", vkindex::recordGather, context, command_buffer, data,
                             indices, axis, VKINDEX_INDEX_POLICY_ERROR, output, op);
}

VkindexStatus vkindexRecordGatherHostIndicesWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                                       VkindexTensor data, const VkindexHostIndices* indices,
                                                       int64_t axis, VkindexIndexPolicy policy, VkindexTensor output,
                                                       VkindexRecordedOp* op) {
  return recordHostIndexForm("vkindexRecordGatherHostIndicesWithPolicy", vkindex::recordGather, context, command_buffer,
                             data, indices, axis, policy, output, op);
}

VkindexStatus vkindexRecordGatherNDHostIndices(VkindexContext context, VkCommandBuffer command_buffer,
                                               VkindexTensor data, const VkindexHostIndices* indices,
                                               int64_t batch_dims, VkindexTensor output, VkindexRecordedOp* op) {
  return recordHostIndexForm("vkindexRecordGatherNDHostIndices", vkindex::recordGatherND, context, command_buffer, data,
                             indices, batch_dims, VKINDEX_INDEX_POLICY_ERROR, output, op);
}

VkindexStatus vkindexRecordGatherNDHostIndicesWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                                         VkindexTensor data, const VkindexHostIndices* indices,
                                                         int64_t batch_dims, VkindexIndexPolicy policy,
                                                         VkindexTensor output, VkindexRecordedOp* op) {
  return recordHostIndexForm("vkindexRecordGatherNDHostIndicesWithPolicy", vkindex::recordGatherND, context,
                             command_buffer, data, indices, batch_dims, policy, output, op);
}

}  // extern "C"
