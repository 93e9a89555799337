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
  const char* function = "vkindexRecordGatherHostIndices";
  if (command_buffer == VK_NULL_HANDLE) return nullArgument(function, "command_buffer");
  if (output == nullptr) return nullArgument(function, "output");
  return runHostIndexForm(function, context, data, indices, op,
                          [&](vkindex::Context& ctx, const vkindex::Tensor& d, const vkindex::HostIndices& i) {
                            return vkindex::recordGather(ctx, command_buffer, d, i, axis, output->tensor);
                          });
}

VkindexStatus vkindexRecordGatherNDHostIndices(VkindexContext context, VkCommandBuffer command_buffer,
                                               VkindexTensor data, const VkindexHostIndices* indices,
                                               int64_t batch_dims, VkindexTensor output, VkindexRecordedOp* op) {
  const char* function = "vkindexRecordGatherNDHostIndices";
  if (command_buffer == VK_NULL_HANDLE) return nullArgument(function, "command_buffer");
  if (output == nullptr) return nullArgument(function, "output");
  return runHostIndexForm(function, context, data, indices, op,
                          [&](vkindex::Context& ctx, const vkindex::Tensor& d, const vkindex::HostIndices& i) {
                            return vkindex::recordGatherND(ctx, command_buffer, d, i, batch_dims, output->tensor);
                          });
}

}  // extern "C"
