/* GatherBlockQuantized through the C API from C code: a uint8 table of 4-bit codes with packed zero-point
 * rows, so the options struct, the optional zero points and the host-index form are exercised. */
#include "c_api/gather_block_quantized_from_c.h"

#include <string.h>

static void copyMessage(const char* text, char* message, size_t message_size) {
  if (message_size == 0) return;
  strncpy(message, text, message_size - 1);
  message[message_size - 1] = '\0';
}

int gatherBlockQuantizedFromC(const char* device, int host, VkindexIndexPolicy policy, float out[96], char* message,
                              size_t message_size) {
  uint8_t table[32];
  static const float scales[4] = {1.0f, 2.0f, 0.5f, -1.0f};
  static const uint8_t zero_points[2] = {0x21, 0x43};
  static const int64_t index_values[3] = {1, -1, 5};
  const int64_t table_shape[2] = {2, 16};
  const int64_t scale_shape[2] = {2, 2};
  const int64_t zero_point_shape[2] = {2, 1};
  const int64_t index_shape[1] = {3};
  VkindexContext context = NULL;
  VkindexTensor data = NULL, scale_tensor = NULL, zero_point_tensor = NULL, indices = NULL, output = NULL;
  VkindexGatherBlockQuantizedOptions options = vkindexGatherBlockQuantizedDefaults();
  options.block_size = 16;
  options.policy = policy;
  memset(table, 0x21, sizeof(table));
  VkindexStatus status = vkindexContextCreate(device, 1, &context);
  if (status == VKINDEX_OK) {
    status = vkindexTensorCreate(context, VKINDEX_UINT8, table_shape, 2, table, sizeof(table), &data);
  }
  if (status == VKINDEX_OK) {
    status = vkindexTensorCreate(context, VKINDEX_FLOAT32, scale_shape, 2, scales, sizeof(scales), &scale_tensor);
  }
  if (status == VKINDEX_OK) {
    status = vkindexTensorCreate(context, VKINDEX_UINT8, zero_point_shape, 2, zero_points, sizeof(zero_points),
                                 &zero_point_tensor);
  }
  if (status == VKINDEX_OK && host) {
    const VkindexHostIndices host_indices = {VKINDEX_INT64, index_shape, 1, index_values};
    status = vkindexGatherBlockQuantizedHostIndices(context, data, &host_indices, scale_tensor, zero_point_tensor,
                                                    &options, &output);
  } else if (status == VKINDEX_OK) {
    status = vkindexTensorCreate(context, VKINDEX_INT64, index_shape, 1, index_values, sizeof(index_values), &indices);
    if (status == VKINDEX_OK) {
      status = vkindexGatherBlockQuantized(context, data, indices, scale_tensor, zero_point_tensor, &options, &output);
    }
  }
  if (status != VKINDEX_OK) copyMessage(vkindexLastErrorMessage(), message, message_size);
  if (output != NULL) status = vkindexTensorDownload(output, out, 96 * sizeof(float));
  vkindexTensorDestroy(output);
  vkindexTensorDestroy(indices);
  vkindexTensorDestroy(zero_point_tensor);
  vkindexTensorDestroy(scale_tensor);
  vkindexTensorDestroy(data);
  vkindexContextDestroy(context);
  return (int)status;
}
