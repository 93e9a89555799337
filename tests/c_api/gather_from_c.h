/* A whole gather through the C API, written in C (see gather_from_c.c). */
#ifndef VKINDEX_TESTS_GATHER_FROM_C_H
#define VKINDEX_TESTS_GATHER_FROM_C_H

#include "vkindex/vkindex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Gathers rows {3, -4, bad_index} of a 4x2 float table on `device`; returns the VkindexStatus, the 3x2
 * result in `out_values`, and on failure the error message. */
int gatherFromC(const char* device, int64_t bad_index, float out_values[6], char* message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
