/* Compiled as C: vkindexTensorCreate refuses a tensor beyond the device's allocation limit with a status. */
#include "huge_tensor_from_c.h"

#include <string.h>

#include "vkindex/vkindex.h"

int hugeTensorFromC(const char* device, int64_t mebibytes, char* message, size_t message_size) {
  /* 262144 float32 elements make one MiB. */
  const int64_t shape[2] = {mebibytes, 262144};
  VkindexContext context = NULL;
  VkindexTensor tensor = NULL;
  VkindexStatus status = vkindexContextCreate(device, 1, &context);
  if (status == VKINDEX_OK) status = vkindexTensorCreate(context, VKINDEX_FLOAT32, shape, 2, NULL, 0, &tensor);
  if (status != VKINDEX_OK) {
    strncpy(message, vkindexLastErrorMessage(), message_size - 1);
    message[message_size - 1] = '\0';
  }
  vkindexTensorDestroy(tensor);
  vkindexContextDestroy(context);
  return (int)status;
}
