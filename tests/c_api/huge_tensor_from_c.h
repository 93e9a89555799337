/* A device tensor too large for one allocation, created through the C API from C (huge_tensor_from_c.c). */
#ifndef VKINDEX_TESTS_HUGE_TENSOR_FROM_C_H
#define VKINDEX_TESTS_HUGE_TENSOR_FROM_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Creates a context on `device` (validation on) and an uninitialised float32 tensor of `mebibytes` MiB
 * (vkindexTensorCreate with data NULL); returns the VkindexStatus and, on failure, the message. */
int hugeTensorFromC(const char* device, int64_t mebibytes, char* message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
