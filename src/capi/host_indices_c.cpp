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

// `indices` as vkindex::HostIndices, or the error naming `function`.
vkindex::StatusOr<vkindex::HostIndices> toHostIndices(const char* function, const VkindexHostIndices& indices) {
  std::optional<vkindex::DataType> type = vkindex::capi::toDataType(indices.type);
  if (!type) {
    return vkindex::invalidArgument(std::string(function) + ": unknown index type " + std::to_string(indices.type));
  }
  if (indices.rank > 0 && indices.shape == nullptr) {
    return vkindex::invalidArgument(std::string(function) + ": 'indices->shape' is NULL for rank " +
                                    std::to_string(indices.rank));
  }
  vkindex::Shape shape;
  if (indices.rank > 0) shape.assign(indices.shape, indices.shape + indices.rank);
  return vkindex::HostIndices{*type, std::move(shape), indices.values};
}

// Checks the handles and runs `run(context, data, host_indices)`, which returns a Tensor (wrapped in
// `*tensor_out`) or a RecordedOp (wrapped in `*op_out`).
template <typename Out, typename Run>
VkindexStatus runHostIndexForm(const char* function, VkindexContext context, VkindexTensor data,
                               const VkindexHostIndices* indices, Out* out, Run run) {
  if (context == nullptr) return nullArgument(function, "context");
  if (data == nullptr) return nullArgument(function, "data");
  if (indices == nullptr) return nullArgument(function, "indices");
  if (out == nullptr) return nullArgument(function, std::is_same_v<Out, VkindexRecordedOp> ? "op" : "output");
  vkindex::StatusOr<vkindex::HostIndices> host = toHostIndices(function, *indices);
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
                                                                     vkindex::Tensor&);

// The C form of a host-index recording: its own checks, then `record` through runHostIndexForm.
VkindexStatus recordHostIndexForm(const char* function, HostIndexRecorder record, VkindexContext context,
                                  VkCommandBuffer command_buffer, VkindexTensor data, const VkindexHostIndices* indices,
                                  int64_t attribute, VkindexTensor output, VkindexRecordedOp* op) {
  if (command_buffer == VK_NULL_HANDLE) return nullArgument(function, "command_buffer");
  if (output == nullptr) return nullArgument(function, "output");
  return runHostIndexForm(function, context, data, indices, op,
                          [&](vkindex::Context& ctx, const vkindex::Tensor& d, const vkindex::HostIndices& i) {
                            return record(ctx, command_buffer, d, i, attribute, output->tensor);
                          });
}

}  // namespace

extern "C" {

VkindexStatus vkindexGatherHostIndices(VkindexContext context, VkindexTensor data, const VkindexHostIndices* indices,
                                       int64_t axis, VkindexTensor* output) {
  return runHostIndexForm("vkindexGatherHostIndices", context, data, indices, output,
                          [&](vkindex::Context& ctx, const vkindex::Tensor& d, const vkindex::HostIndices& i) {
                            return vkindex::gather(ctx, d, i, axis);
                          });
}

VkindexStatus vkindexGatherNDHostIndices(VkindexContext context, VkindexTensor data, const VkindexHostIndices* indices,
                                         int64_t batch_dims, VkindexTensor* output) {
  return runHostIndexForm("vkindexGatherNDHostIndices", context, data, indices, output,
                          [&](vkindex::Context& ctx, const vkindex::Tensor& d, const vkindex::HostIndices& i) {
                            return vkindex::gatherND(ctx, d, i, batch_dims);
                          });
}

VkindexStatus vkindexRecordGatherHostIndices(VkindexContext context, VkCommandBuffer command_buffer, VkindexTensor data,
                                             const VkindexHostIndices* indices, int64_t axis, VkindexTensor output,
                                             VkindexRecordedOp* op) {
  return recordHostIndexForm("vkindexRecordGatherHostIndices", vkindex::recordGather, context, command_buffer, data,
                             indices, axis, output, op);
}

VkindexStatus vkindexRecordGatherNDHostIndices(VkindexContext context, VkCommandBuffer command_buffer,
                                               VkindexTensor data, const VkindexHostIndices* indices,
                                               int64_t batch_dims, VkindexTensor output, VkindexRecordedOp* op) {
  return recordHostIndexForm("vkindexRecordGatherNDHostIndices", vkindex::recordGatherND, context, command_buffer, data,
                             indices, batch_dims, output, op);
}

}  // extern "C"
