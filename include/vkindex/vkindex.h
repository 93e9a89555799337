/* vkindex C API: the operators for engines that cross a C ABI boundary (or are written in C).
 * Every function returns a VkindexStatus; on failure, vkindexLastErrorMessage() returns the message of
 * the calling thread's last failed call (e.g. "Gather: indices[3] = 5 is out of range for axis 0 of
 * size 5 (allowed [-5, 4])"). Thread safety follows the C++ API (include/vkindex/context.hpp). */
#ifndef VKINDEX_VKINDEX_H
#define VKINDEX_VKINDEX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VkindexContext_T* VkindexContext;
typedef struct VkindexTensor_T* VkindexTensor;

/* The same codes, in the same order, as vkindex::StatusCode. */
typedef enum VkindexStatus {
  VKINDEX_OK = 0,
  VKINDEX_INVALID_ARGUMENT = 1,
  VKINDEX_OUT_OF_RANGE = 2,
  VKINDEX_UNSUPPORTED = 3,
  VKINDEX_DEVICE_ERROR = 4,
  VKINDEX_INTERNAL = 5
} VkindexStatus;

/* The ONNX element types, in the order of vkindex::DataType. Strings are not available in the C API. */
typedef enum VkindexDataType {
  VKINDEX_BOOL = 0,
  VKINDEX_INT8,
  VKINDEX_UINT8,
  VKINDEX_INT16,
  VKINDEX_UINT16,
  VKINDEX_INT32,
  VKINDEX_UINT32,
  VKINDEX_INT64,
  VKINDEX_UINT64,
  VKINDEX_FLOAT16,
  VKINDEX_BFLOAT16,
  VKINDEX_FLOAT32,
  VKINDEX_FLOAT64,
  VKINDEX_COMPLEX64,
  VKINDEX_COMPLEX128
} VkindexDataType;

/* How a scatter combines an update with the value at its target, in the order of vkindex::Reduction.
 * NONE (the update replaces it) works for every type; ADD and MUL (ONNX opset 16+) for every numeric
 * type, complex included; MAX and MIN (opset 18+) for every real numeric type. Exact on every device
 * (the README's reductions table). Duplicate targets combine one by one in index order. */
typedef enum VkindexReduction {
  VKINDEX_REDUCTION_NONE = 0,
  VKINDEX_REDUCTION_ADD,
  VKINDEX_REDUCTION_MUL,
  VKINDEX_REDUCTION_MAX,
  VKINDEX_REDUCTION_MIN
} VkindexReduction;

/* The library's version: major * 10000 + minor * 100 + patch (compare with VKINDEX_VERSION from
 * vkindex/version.hpp, the headers' version), and as a string ("0.1.0"). */
uint32_t vkindexVersion(void);
const char* vkindexVersionString(void);

/* The message of the calling thread's last failed call ("" if none). Valid until its next call. */
const char* vkindexLastErrorMessage(void);

/* Creates a context on the device `device_selector` names (a decimal index or part of the name; NULL or
 * "" for the default, see the README). `validation` != 0 enables the Khronos validation layer. */
VkindexStatus vkindexContextCreate(const char* device_selector, int validation, VkindexContext* context);
void vkindexContextDestroy(VkindexContext context);

/* A device tensor of `rank` dims (`shape` may be NULL when rank is 0). With `data` non-NULL, `byte_count`
 * bytes are uploaded (packed little-endian elements); with `data` NULL the contents are undefined. */
VkindexStatus vkindexTensorCreate(VkindexContext context, VkindexDataType type, const int64_t* shape, size_t rank,
                                  const void* data, size_t byte_count, VkindexTensor* tensor);
void vkindexTensorDestroy(VkindexTensor tensor);
/* The tensor's rank, its dims (valid while the tensor lives), and its size in bytes. */
size_t vkindexTensorRank(VkindexTensor tensor);
const int64_t* vkindexTensorShape(VkindexTensor tensor);
uint64_t vkindexTensorByteSize(VkindexTensor tensor);
/* Copies the tensor's bytes to `data`; `byte_count` must equal vkindexTensorByteSize(). */
VkindexStatus vkindexTensorDownload(VkindexTensor tensor, void* data, size_t byte_count);

/* ONNX Gather (opsets 1, 11, 13) into a new tensor `output` (destroy it with vkindexTensorDestroy). */
VkindexStatus vkindexGather(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t axis,
                            VkindexTensor* output);
/* ONNX GatherElements (opsets 11, 13) along `axis` into a new tensor `output` of indices' shape (destroy it
 * with vkindexTensorDestroy). */
VkindexStatus vkindexGatherElements(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t axis,
                                    VkindexTensor* output);
/* ONNX GatherND (opsets 11, 12, 13) with `batch_dims` (0 for opset 11) into a new tensor `output` (destroy it
 * with vkindexTensorDestroy). */
VkindexStatus vkindexGatherND(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t batch_dims,
                              VkindexTensor* output);

/* ONNX ScatterElements (opsets 11, 13, 16, 18; Scatter 9 and 10 is the same with NONE) into a new tensor
 * `output` (destroy it with vkindexTensorDestroy): a copy of `data` in which, for every position p of
 * `indices`, the element at p with coordinate `axis` replaced by indices[p] is combined with updates[p].
 * `updates` has indices' shape. On an error nothing is created. */
VkindexStatus vkindexScatterElements(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                     VkindexTensor updates, int64_t axis, VkindexReduction reduction,
                                     VkindexTensor* output);
/* The same in place: `data` becomes the output (only the updated elements are written). On an error,
 * including a bad index, `data` is unchanged. */
VkindexStatus vkindexScatterElementsInPlace(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                            VkindexTensor updates, int64_t axis, VkindexReduction reduction);
/* ONNX ScatterND (opsets 11, 13, 16, 18) into a new tensor `output` (destroy it with
 * vkindexTensorDestroy): a copy of `data` in which the slice each index tuple (indices' last dim k)
 * addresses is combined with the matching slice of `updates`, of shape indices.shape[:-1] +
 * data.shape[k:]. On an error nothing is created. */
VkindexStatus vkindexScatterND(VkindexContext context, VkindexTensor data, VkindexTensor indices, VkindexTensor updates,
                               VkindexReduction reduction, VkindexTensor* output);
/* The same in place: `data` becomes the output; on an error it is unchanged. */
VkindexStatus vkindexScatterNDInPlace(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                      VkindexTensor updates, VkindexReduction reduction);

#ifdef __cplusplus
}
#endif

#endif /* VKINDEX_VKINDEX_H */
