/* Compiled as C: VkindexContextOptions::tuning_profile as a C caller sets it (tuning_profile_from_c.h). */
#include "tuning_profile_from_c.h"

#include <stddef.h>
#include <string.h>

int createWithTuningProfileFromC(const char* device, const char* cache_dir, const char* tuning_profile,
                                 int first_struct_size, VkindexContext* context, char* message, size_t message_size) {
  const float table[] = {1.f, 2.f, 3.f, 4.f, 5.f, 6.f};
  const int64_t table_shape[] = {3, 2};
  const int64_t rows[] = {2, 0};
  const int64_t rows_shape[] = {2};
  const float expected[] = {5.f, 6.f, 1.f, 2.f};
  float actual[4] = {0.f, 0.f, 0.f, 0.f};
  VkindexContextOptions options;
  VkindexTensor data = NULL, indices = NULL, output = NULL;
  VkindexStatus status;
  memset(&options, 0, sizeof(options));
  options.struct_size = first_struct_size ? offsetof(VkindexContextOptions, tuning_profile) : sizeof(options);
  options.device_selector = device;
  options.validation = 1;
  options.pipeline_cache_dir = cache_dir;
  options.tuning_profile = tuning_profile;
  *context = NULL;
  status = vkindexContextCreateWithOptions(&options, context);
  if (status == VKINDEX_OK)
    status = vkindexTensorCreate(*context, VKINDEX_FLOAT32, table_shape, 2, table, sizeof(table), &data);
  if (status == VKINDEX_OK)
    status = vkindexTensorCreate(*context, VKINDEX_INT64, rows_shape, 1, rows, sizeof(rows), &indices);
  if (status == VKINDEX_OK) status = vkindexGather(*context, data, indices, 0, &output);
  if (status == VKINDEX_OK) status = vkindexTensorDownload(output, actual, sizeof(actual));
  if (status != VKINDEX_OK) {
    strncpy(message, vkindexLastErrorMessage(), message_size - 1);
    message[message_size - 1] = '\0';
  } else if (memcmp(actual, expected, sizeof(actual)) != 0) {
    status = VKINDEX_INTERNAL;
    strncpy(message, "Gather from C gave other values than expected", message_size - 1);
    message[message_size - 1] = '\0';
  }
  vkindexTensorDestroy(output);
  vkindexTensorDestroy(indices);
  vkindexTensorDestroy(data);
  if (status != VKINDEX_OK) {
    vkindexContextDestroy(*context);
    *context = NULL;
  }
  return status;
}
