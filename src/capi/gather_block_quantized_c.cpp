// The C API's GatherBlockQuantized (include/vkindex/vkindex.h): the three forms over
// vkindex/gather_block_quantized.hpp.
#include <string>

#include "capi/c_api_support.hpp"

using vkindex::capi::fail;
using vkindex::capi::nullArgument;
using vkindex::capi::wrap;

namespace {

// The C++ options (ONNX Runtime's defaults for NULL); an unknown policy is kInvalidArgument naming
// `function`.
vkindex::StatusOr<vkindex::GatherBlockQuantizedOptions> quantizedOptionsOf(
    const char* function, const VkindexGatherBlockQuantizedOptions* options) {
  const VkindexGatherBlockQuantizedOptions given =
      options != nullptr ? *options : vkindexGatherBlockQuantizedDefaults();
  vkindex::GatherBlockQuantizedOptions converted;
  converted.gather_axis = given.gather_axis;
  converted.quantize_axis = given.quantize_axis;
  converted.block_size = given.block_size;
  converted.bits = given.bits;
  VKINDEX_ASSIGN_OR_RETURN(converted.index_policy, vkindex::capi::toIndexPolicy(function, given.policy));
  return converted;
}

const vkindex::Tensor* zeroPointsOf(VkindexTensor zero_points) {
  return zero_points != nullptr ? &zero_points->tensor : nullptr;
}

// The handles every form needs (zero_points may be NULL: absent).
VkindexStatus checkQuantizedHandles(const char* function, VkindexContext context, VkindexTensor data,
                                    VkindexTensor scales) {
  if (context == nullptr) return nullArgument(function, "context");
  if (data == nullptr) return nullArgument(function, "data");
  if (scales == nullptr) return nullArgument(function, "scales");
  return VKINDEX_OK;
}

}  // namespace

extern "C" {

VkindexGatherBlockQuantizedOptions vkindexGatherBlockQuantizedDefaults(void) {
  const vkindex::GatherBlockQuantizedOptions defaults;
  return {defaults.gather_axis, defaults.quantize_axis, defaults.block_size, defaults.bits, VKINDEX_INDEX_POLICY_SKIP};
}

VkindexStatus vkindexGatherBlockQuantized(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                          VkindexTensor scales, VkindexTensor zero_points,
                                          const VkindexGatherBlockQuantizedOptions* options, VkindexTensor* output) {
  const char* function = "vkindexGatherBlockQuantized";
  if (VkindexStatus status = checkQuantizedHandles(function, context, data, scales); status != VKINDEX_OK)
    return status;
  if (indices == nullptr) return nullArgument(function, "indices");
  if (output == nullptr) return nullArgument(function, "output");
  vkindex::StatusOr<vkindex::GatherBlockQuantizedOptions> converted = quantizedOptionsOf(function, options);
  if (!converted.ok()) return fail(converted.status());
  vkindex::StatusOr<vkindex::Tensor> result = vkindex::gatherBlockQuantized(
      *context->context, data->tensor, indices->tensor, scales->tensor, zeroPointsOf(zero_points), converted.value());
  if (!result.ok()) return fail(result.status());
  *output = wrap(std::move(result).value());
  return VKINDEX_OK;
}

VkindexStatus vkindexGatherBlockQuantizedHostIndices(VkindexContext context, VkindexTensor data,
                                                     const VkindexHostIndices* indices, VkindexTensor scales,
                                                     VkindexTensor zero_points,
                                                     const VkindexGatherBlockQuantizedOptions* options,
                                                     VkindexTensor* output) {
  const char* function = "vkindexGatherBlockQuantizedHostIndices";
  if (VkindexStatus status = checkQuantizedHandles(function, context, data, scales); status != VKINDEX_OK)
    return status;
  if (indices == nullptr) return nullArgument(function, "indices");
  if (output == nullptr) return nullArgument(function, "output");
  vkindex::StatusOr<vkindex::HostIndices> host = vkindex::capi::toHostIndices(function, *indices);
  if (!host.ok()) return fail(host.status());
  vkindex::StatusOr<vkindex::GatherBlockQuantizedOptions> converted = quantizedOptionsOf(function, options);
  if (!converted.ok()) return fail(converted.status());
  vkindex::StatusOr<vkindex::Tensor> result = vkindex::gatherBlockQuantized(
      *context->context, data->tensor, host.value(), scales->tensor, zeroPointsOf(zero_points), converted.value());
  if (!result.ok()) return fail(result.status());
  *output = wrap(std::move(result).value());
  return VKINDEX_OK;
}

VkindexStatus vkindexRecordGatherBlockQuantized(VkindexContext context, VkCommandBuffer command_buffer,
                                                VkindexTensor data, VkindexTensor indices, VkindexTensor scales,
                                                VkindexTensor zero_points,
                                                const VkindexGatherBlockQuantizedOptions* options, VkindexTensor output,
                                                VkindexRecordedOp* op) {
  const char* function = "vkindexRecordGatherBlockQuantized";
  if (VkindexStatus status = checkQuantizedHandles(function, context, data, scales); status != VKINDEX_OK)
    return status;
  if (indices == nullptr) return nullArgument(function, "indices");
  if (output == nullptr) return nullArgument(function, "output");
  if (op == nullptr) return nullArgument(function, "op");
  vkindex::StatusOr<vkindex::GatherBlockQuantizedOptions> converted = quantizedOptionsOf(function, options);
  if (!converted.ok()) return fail(converted.status());
  vkindex::StatusOr<vkindex::RecordedOp> recorded =
      vkindex::recordGatherBlockQuantized(*context->context, command_buffer, data->tensor, indices->tensor,
                                          scales->tensor, zeroPointsOf(zero_points), converted.value(), output->tensor);
  if (!recorded.ok()) return fail(recorded.status());
  *op = new VkindexRecordedOp_T{std::move(recorded).value()};
  return VKINDEX_OK;
}

}  // extern "C"
