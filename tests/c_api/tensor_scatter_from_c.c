/* TensorScatter through the C API from C code: an int4 cache, so that the C enum of the packed types and
 * the nibble order are exercised too. */
#include "c_api/tensor_scatter_from_c.h"

#include <string.h>

static void copyMessage(const char* text, char* message, size_t message_size) {
  if (message_size == 0) return;
  strncpy(message, text, message_size - 1);
  message[message_size - 1] = '\0';
}

int tensorScatterFromC(const char* device, int64_t write_index, VkindexTensorScatterMode mode,
                       VkindexIndexPolicy policy, int in_place, uint8_t out_bytes[3], char* message,
                       size_t message_size) {
  static const uint8_t cache_bytes[3] = {0x10, 0x32, 0x04};
  static const uint8_t update_bytes[1] = {0xBA};
  const int64_t cache_shape[3] = {1, 5, 1};
  const int64_t update_shape[3] = {1, 2, 1};
  const int64_t index_shape[1] = {1};
  VkindexContext context = NULL;
  VkindexTensor cache = NULL, update = NULL, indices = NULL, output = NULL;
  VkindexStatus status = vkindexContextCreate(device, 1, &context);
  if (status == VKINDEX_OK) {
    status = vkindexTensorCreate(context, VKINDEX_INT4, cache_shape, 3, cache_bytes, sizeof(cache_bytes), &cache);
  }
  if (status == VKINDEX_OK) {
    status = vkindexTensorCreate(context, VKINDEX_INT4, update_shape, 3, update_bytes, sizeof(update_bytes), &update);
  }
  if (status == VKINDEX_OK) {
    status = vkindexTensorCreate(context, VKINDEX_INT64, index_shape, 1, &write_index, sizeof(write_index), &indices);
  }
  if (status == VKINDEX_OK) {
    if (in_place) {
      status = vkindexTensorScatterInPlace(context, cache, update, indices, -2, mode, policy);
    } else {
      status = vkindexTensorScatter(context, cache, update, indices, -2, mode, policy, &output);
    }
  }
  if (status != VKINDEX_OK) copyMessage(vkindexLastErrorMessage(), message, message_size);
  VkindexTensor result = in_place ? cache : output;
  if (result != NULL) {
    VkindexStatus downloaded = vkindexTensorDownload(result, out_bytes, 3);
    if (status == VKINDEX_OK) status = downloaded;
  }
  vkindexTensorDestroy(output);
  vkindexTensorDestroy(indices);
  vkindexTensorDestroy(update);
  vkindexTensorDestroy(cache);
  vkindexContextDestroy(context);
  return (int)status;
}
