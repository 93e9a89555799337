/* Compiled as C: proves include/vkindex/vkindex.h is C-clean and drives the C API end to end. */
#include "gather_from_c.h"

#include <string.h>

int gatherFromC(const char* device, int64_t bad_index, float out_values[6], char* message, size_t message_size) {
  VkindexContext context = NULL;
  VkindexTensor data = NULL, indices = NULL, output = NULL;
  const float table[4][2] = {{0.f, 1.f}, {2.f, 3.f}, {4.f, 5.f}, {6.f, 7.f}};
  const int64_t table_shape[2] = {4, 2};
  const int64_t ids[3] = {3, -4, bad_index};
  const int64_t ids_shape[1] = {3};
  VkindexStatus status = vkindexContextCreate(device, 1, &context);
  if (status == VKINDEX_OK) {
    status = vkindexTensorCreate(context, VKINDEX_FLOAT32, table_shape, 2, table, sizeof(table), &data);
  }
  if (status == VKINDEX_OK) status = vkindexTensorCreate(context, VKINDEX_INT64, ids_shape, 1, ids, sizeof(ids), &indices);
  if (status == VKINDEX_OK) status = vkindexGather(context, data, indices, 0, &output);
  if (status == VKINDEX_OK) {
    if (vkindexTensorRank(output) != 2 || vkindexTensorShape(output)[0] != 3 || vkindexTensorShape(output)[1] != 2 ||
        vkindexTensorByteSize(output) != 6 * sizeof(float)) {
      status = VKINDEX_INTERNAL;
    } else {
      status = vkindexTensorDownload(output, out_values, 6 * sizeof(float));
    }
  }
  if (status != VKINDEX_OK) {
    strncpy(message, vkindexLastErrorMessage(), message_size - 1);
    message[message_size - 1] = '\0';
  }
  vkindexTensorDestroy(output);
  vkindexTensorDestroy(indices);
  vkindexTensorDestroy(data);
  vkindexContextDestroy(context);
  return (int)status;
}
