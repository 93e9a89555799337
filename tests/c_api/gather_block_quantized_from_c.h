/* GatherBlockQuantized through the C API, written in C (see gather_block_quantized_from_c.c). */
#ifndef VKINDEX_TESTS_GATHER_BLOCK_QUANTIZED_FROM_C_H
#define VKINDEX_TESTS_GATHER_BLOCK_QUANTIZED_FROM_C_H

#include <stdint.h>

#include "vkindex/vkindex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GatherBlockQuantized of a uint8 table [2, 16] of 4-bit codes (32 codes per row, every byte 0x21: codes
 * 1, 2, 1, 2, ...), float32 scales [2, 2] = {1, 2, 0.5, -1}, block 16, packed zero points [2, 1] = {0x21,
 * 0x43} (row 0: 1 and 2, row 1: 3 and 4), with the int64 indices {1, -1, 5}, in an indices tensor
 * (`host` 0) or in host memory (`host` 1), under `policy`. Returns the VkindexStatus, the float32
 * output [3, 32] in `out` and on failure the error message. */
int gatherBlockQuantizedFromC(const char* device, int host, VkindexIndexPolicy policy, float out[96], char* message,
                              size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
