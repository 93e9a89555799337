/* Whole gathers and scatters through the C API, written in C (see gather_from_c.c). */
#ifndef VKINDEX_TESTS_GATHER_FROM_C_H
#define VKINDEX_TESTS_GATHER_FROM_C_H

#include "vkindex/vkindex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each runs one operator on `device` (validation on) and returns the VkindexStatus, the float result in
 * `out_values`, and on failure the error message. */

/* Gather of rows {3, -4, bad_index} of a 4x2 float table (axis 0); a 3x2 result. */
int gatherFromC(const char* device, int64_t bad_index, float out_values[6], char* message, size_t message_size);

/* GatherElements along axis 1 of data [[1, 2], [3, 4]] with indices [[0, 0], [index, 0]]; a 2x2 result.
 * index = 1 is ONNX's example: [[1, 1], [4, 3]]. */
int gatherElementsFromC(const char* device, int64_t index, float out_values[4], char* message, size_t message_size);

/* GatherND with batch_dims 1 of data [[[0, 1], [2, 3]], [[4, 5], [6, 7]]] with indices [[1], [index]]; a
 * 2x2 result. index = 0 is ONNX's example: [[2, 3], [4, 5]]. */
int gatherNDFromC(const char* device, int64_t index, float out_values[4], char* message, size_t message_size);

/* ScatterElements along axis 1 of data [[1, 2, 3, 4, 5]] with indices [[1, index]] and updates
 * [[1.1, 2.1]], out of place (`in_place` 0: the new output is downloaded) or in place (data is
 * downloaded, also after an error); a 1x5 result. index = 3 with NONE is ONNX's example:
 * [[1, 1.1, 3, 2.1, 5]]. */
int scatterElementsFromC(const char* device, int64_t index, VkindexReduction reduction, int in_place,
                         float out_values[5], char* message, size_t message_size);

/* ScatterND of data [1, ..., 8] with indices [[4], [3], [1], [index]] and updates [9, 10, 11, 12], out of
 * place or in place as above; an 8-element result. index = 7 with NONE is ONNX's example:
 * [1, 11, 3, 10, 9, 6, 7, 12]. */
int scatterNDFromC(const char* device, int64_t index, VkindexReduction reduction, int in_place, float out_values[8],
                   char* message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
