/* Compiled as C: the embedding part of the C API (embedding_from_c.h). */
#include "embedding_from_c.h"

#include <stddef.h>
#include <string.h>

#include "vkindex/version.hpp"

/* Copies the calling thread's last error into `message` and returns `status`. */
static int failWith(int status, char* message, size_t message_size) {
  strncpy(message, vkindexLastErrorMessage(), message_size - 1);
  message[message_size - 1] = '\0';
  return status;
}

static VkindexStatus viewOf(VkindexContext context, VkindexDataType type, VkBuffer buffer, VkDeviceSize buffer_size,
                            const PlacedInC* placed, VkindexTensor* tensor) {
  return vkindexTensorView(context, type, placed->shape, placed->rank, buffer, placed->offset, buffer_size, tensor);
}

static void release(RecordingInC* recording) {
  vkindexRecordedOpDestroy(recording->op);
  vkindexTensorDestroy(recording->output);
  vkindexTensorDestroy(recording->indices);
  vkindexTensorDestroy(recording->data);
  vkindexContextDestroy(recording->context);
  memset(recording, 0, sizeof(*recording));
}

int recordGatherFromC(const VkindexExternalVulkan* external, VkCommandBuffer command_buffer, VkBuffer buffer,
                      VkDeviceSize buffer_size, const PlacedInC* data, const PlacedInC* indices,
                      const PlacedInC* output, int batched, RecordingInC* recording, char* message,
                      size_t message_size) {
  VkindexContextOptions options;
  VkindexStatusBatch batch = NULL;
  VkindexStatus status;
  memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.pipeline_cache_dir = ""; /* memory only: tests stay hermetic */
  memset(recording, 0, sizeof(*recording));
  status = vkindexContextAdopt(external, &options, &recording->context);
  if (status == VKINDEX_OK)
    status = viewOf(recording->context, VKINDEX_FLOAT32, buffer, buffer_size, data, &recording->data);
  if (status == VKINDEX_OK) {
    status = viewOf(recording->context, VKINDEX_INT64, buffer, buffer_size, indices, &recording->indices);
  }
  if (status == VKINDEX_OK) {
    status = viewOf(recording->context, VKINDEX_FLOAT32, buffer, buffer_size, output, &recording->output);
  }
  if (status == VKINDEX_OK && batched) status = vkindexStatusBatchBegin(recording->context, command_buffer, &batch);
  if (status == VKINDEX_OK) {
    status = vkindexRecordGather(recording->context, command_buffer, recording->data, recording->indices, 0,
                                 recording->output, &recording->op);
  }
  if (status == VKINDEX_OK && batched) status = vkindexStatusBatchEnd(batch);
  vkindexStatusBatchDestroy(batch);
  if (status != VKINDEX_OK) {
    failWith(status, message, message_size);
    release(recording);
  }
  return status;
}

int finishFromC(RecordingInC* recording, char* message, size_t message_size) {
  VkindexStatus status = vkindexRecordedOpFinish(recording->op);
  if (status != VKINDEX_OK) failWith(status, message, message_size);
  if (vkindexRecordedOpFinish(recording->op) != status) {
    strncpy(message, "vkindexRecordedOpFinish changed its answer", message_size - 1);
    message[message_size - 1] = '\0';
    status = VKINDEX_INTERNAL;
  }
  release(recording);
  return status;
}

int gatherWithCacheFolderFromC(const char* device, const char* folder, char* message, size_t message_size) {
  const float table[] = {1.f, 2.f, 3.f, 4.f};
  const int64_t table_shape[] = {2, 2};
  const int64_t rows[] = {1};
  const int64_t rows_shape[] = {1};
  VkindexContextOptions options;
  VkindexContext context = NULL;
  VkindexTensor data = NULL, indices = NULL, output = NULL;
  VkindexStatus status;
  memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.device_selector = device;
  options.validation = 1;
  options.pipeline_cache_dir = folder;
  status = vkindexContextCreateWithOptions(&options, &context);
  if (status == VKINDEX_OK)
    status = vkindexTensorCreate(context, VKINDEX_FLOAT32, table_shape, 2, table, sizeof(table), &data);
  if (status == VKINDEX_OK)
    status = vkindexTensorCreate(context, VKINDEX_INT64, rows_shape, 1, rows, sizeof(rows), &indices);
  if (status == VKINDEX_OK) status = vkindexGather(context, data, indices, 0, &output);
  if (status != VKINDEX_OK) failWith(status, message, message_size);
  vkindexTensorDestroy(output);
  vkindexTensorDestroy(indices);
  vkindexTensorDestroy(data);
  vkindexContextDestroy(context);
  return status;
}

int createWithShortOptionsFromC(const char* device, char* message, size_t message_size) {
  VkindexContextOptions options;
  VkindexContext context = NULL;
  VkindexStatus status;
  memset(&options, 0, sizeof(options));
  /* Shorter than the first published struct, which ended with pipeline_cache_dir. */
  options.struct_size = offsetof(VkindexContextOptions, tuning_profile) - 1;
  options.device_selector = device;
  status = vkindexContextCreateWithOptions(&options, &context);
  if (status != VKINDEX_OK) failWith(status, message, message_size);
  vkindexContextDestroy(context);
  return status;
}

int versionMatchesFromC(void) {
  return vkindexVersion() == VKINDEX_VERSION && strcmp(vkindexVersionString(), VKINDEX_VERSION_STRING) == 0;
}
