/* The C API's embedding surface, written in C (see embedding_from_c.c): adopting the application's
 * Vulkan, tensors viewing its buffer, recording into its command buffer, the pipeline-cache folder and
 * the version query. */
#ifndef VKINDEX_TESTS_EMBEDDING_FROM_C_H
#define VKINDEX_TESTS_EMBEDDING_FROM_C_H

#include "vkindex/vkindex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a tensor lies in the application's buffer. */
typedef struct PlacedInC {
  int64_t shape[3];
  size_t rank;
  VkDeviceSize offset;
} PlacedInC;

/* What a recorded Gather holds until the command buffer has completed. */
typedef struct RecordingInC {
  VkindexContext context;
  VkindexTensor data, indices, output;
  VkindexRecordedOp op;
} RecordingInC;

/* Adopts `external` (memory-only pipeline cache), views float32 `data`, int64 `indices` and float32
 * `output` in `buffer`, and records Gather along axis 0 into `command_buffer` (begun by the caller); with
 * `batched`, inside a status batch (vkindexStatusBatchBegin, End, Destroy around it). Returns the first
 * failing status, with its message; on failure nothing is left to release. */
int recordGatherFromC(const VkindexExternalVulkan* external, VkCommandBuffer command_buffer, VkBuffer buffer,
                      VkDeviceSize buffer_size, const PlacedInC* data, const PlacedInC* indices,
                      const PlacedInC* output, int batched, RecordingInC* recording, char* message,
                      size_t message_size);

/* After the command buffer has completed: vkindexRecordedOpFinish (twice: the second must agree), then
 * releases everything recordGatherFromC created. */
int finishFromC(RecordingInC* recording, char* message, size_t message_size);

/* Creates a context on `device` with its pipeline cache in `folder`, runs a Gather (which builds
 * pipelines) and destroys it (which writes the cache file). */
int gatherWithCacheFolderFromC(const char* device, const char* folder, char* message, size_t message_size);

/* vkindexContextCreateWithOptions with a struct_size smaller than the first published struct: must be
 * refused. */
int createWithShortOptionsFromC(const char* device, char* message, size_t message_size);

/* 1 if vkindexVersion() and vkindexVersionString() agree with the headers' VKINDEX_VERSION and
 * VKINDEX_VERSION_STRING. */
int versionMatchesFromC(void);

#ifdef __cplusplus
}
#endif

#endif
