// The C API's TensorScatter (include/vkindex/vkindex.h): the three forms over vkindex/tensor_scatter.hpp.
#include <string>

#include "capi/c_api_support.hpp"

using vkindex::capi::fail;
using vkindex::capi::nullArgument;
using vkindex::capi::wrap;

namespace {

// The C++ options; an unknown mode passes through for the operator to name in its error, an unknown
// policy is kInvalidArgument naming `function` (capi::toIndexPolicy).
vkindex::StatusOr<vkindex::TensorScatterOptions> optionsOf(const char* function, int64_t axis,
                                                           VkindexTensorScatterMode mode, VkindexIndexPolicy policy) {
  vkindex::TensorScatterOptions options;
  options.axis = axis;
  if (mode != VKINDEX_TENSOR_SCATTER_LINEAR && mode != VKINDEX_TENSOR_SCATTER_CIRCULAR) {
    return vkindex::invalidArgument(std::string(function) + ": unknown mode " + std::to_string(mode) +
                                    " (allowed VKINDEX_TENSOR_SCATTER_LINEAR, VKINDEX_TENSOR_SCATTER_CIRCULAR)");
  }
  options.mode = mode == VKINDEX_TENSOR_SCATTER_CIRCULAR ? vkindex::TensorScatterMode::kCircular
                                                         : vkindex::TensorScatterMode::kLinear;
  VKINDEX_ASSIGN_OR_RETURN(options.index_policy, vkindex::capi::toIndexPolicy(function, policy));
  return options;
}

const vkindex::Tensor* tensorOrNull(VkindexTensor tensor) { return tensor != nullptr ? &tensor->tensor : nullptr; }

// The handles every form needs (write_indices may be NULL: absent).
VkindexStatus checkHandles(const char* function, VkindexContext context, VkindexTensor past_cache,
                           VkindexTensor update) {
  if (context == nullptr) return nullArgument(function, "context");
  if (past_cache == nullptr) return nullArgument(function, "past_cache");
  if (update == nullptr) return nullArgument(function, "update");
  return VKINDEX_OK;
}

}  // namespace

extern "C" {

VkindexStatus vkindexTensorScatter(VkindexContext context, VkindexTensor past_cache, VkindexTensor update,
                                   VkindexTensor write_indices, int64_t axis, VkindexTensorScatterMode mode,
                                   VkindexIndexPolicy policy, VkindexTensor* output) {
  const char* function = "vkindexTensorScatter";
  if (VkindexStatus status = checkHandles(function, context, past_cache, update); status != VKINDEX_OK) return status;
  if (output == nullptr) return nullArgument(function, "output");
  vkindex::StatusOr<vkindex::TensorScatterOptions> options = optionsOf(function, axis, mode, policy);
  if (!options.ok()) return fail(options.status());
  vkindex::StatusOr<vkindex::Tensor> result = vkindex::tensorScatter(
      *context->context, past_cache->tensor, update->tensor, tensorOrNull(write_indices), options.value());
  if (!result.ok()) return fail(result.status());
  *output = wrap(std::move(result).value());
  return VKINDEX_OK;
}

VkindexStatus vkindexTensorScatterInPlace(VkindexContext context, VkindexTensor cache, VkindexTensor update,
                                          VkindexTensor write_indices, int64_t axis, VkindexTensorScatterMode mode,
                                          VkindexIndexPolicy policy) {
  const char* function = "vkindexTensorScatterInPlace";
  if (VkindexStatus status = checkHandles(function, context, cache, update); status != VKINDEX_OK) return status;
  vkindex::StatusOr<vkindex::TensorScatterOptions> options = optionsOf(function, axis, mode, policy);
  if (!options.ok()) return fail(options.status());
  const vkindex::Status status = vkindex::tensorScatterInPlace(*context->context, cache->tensor, update->tensor,
                                                               tensorOrNull(write_indices), options.value());
  return status.ok() ? VKINDEX_OK : fail(status);
}

VkindexStatus vkindexRecordTensorScatter(VkindexContext context, VkCommandBuffer command_buffer,
                                         VkindexTensor past_cache, VkindexTensor update, VkindexTensor write_indices,
                                         int64_t axis, VkindexTensorScatterMode mode, VkindexIndexPolicy policy,
                                         VkindexTensor output, VkindexRecordedOp* op) {
  const char* function = "vkindexRecordTensorScatter";
  if (VkindexStatus status = checkHandles(function, context, past_cache, update); status != VKINDEX_OK) return status;
  if (output == nullptr) return nullArgument(function, "output");
  if (op == nullptr) return nullArgument(function, "op");
  vkindex::StatusOr<vkindex::TensorScatterOptions> options = optionsOf(function, axis, mode, policy);
  if (!options.ok()) return fail(options.status());
  vkindex::StatusOr<vkindex::RecordedOp> recorded =
      vkindex::recordTensorScatter(*context->context, command_buffer, past_cache->tensor, update->tensor,
                                   tensorOrNull(write_indices), options.value(), output->tensor);
  if (!recorded.ok()) return fail(recorded.status());
  *op = new VkindexRecordedOp_T{std::move(recorded).value()};
  return VKINDEX_OK;
}

}  // extern "C"
