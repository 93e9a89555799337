/* TensorScatter through the C API, written in C (see tensor_scatter_from_c.c). */
#ifndef VKINDEX_TESTS_TENSOR_SCATTER_FROM_C_H
#define VKINDEX_TESTS_TENSOR_SCATTER_FROM_C_H

#include <stdint.h>

#include "vkindex/vkindex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TensorScatter of an int4 cache [1, 5, 1] holding elements 0 1 2 3 4 (bytes 0x10 0x32 0x04) with the
 * update [1, 2, 1] = A B (byte 0xBA) along axis -2 at `write_index`: out of place (`in_place` 0: the new
 * output is downloaded) or in place (the cache is downloaded, also after an error). Returns the VkindexStatus, the
 * cache's 3 bytes in `out_bytes`, and on failure the error message. */
int tensorScatterFromC(const char* device, int64_t write_index, VkindexTensorScatterMode mode,
                       VkindexIndexPolicy policy, int in_place, uint8_t out_bytes[3], char* message,
                       size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
