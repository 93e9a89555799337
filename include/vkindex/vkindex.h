/* vkindex C API: the operators for engines that cross a C ABI boundary (or are written in C).
 * Every function returns a VkindexStatus; on failure, vkindexLastErrorMessage() returns the message of
 * the calling thread's last failed call (e.g. "Gather: indices[3] = 5 is out of range for axis 0 of
 * size 5 (allowed [-5, 4])"). Thread safety follows the C++ API (include/vkindex/context.hpp). */
#ifndef VKINDEX_VKINDEX_H
#define VKINDEX_VKINDEX_H

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "vkindex/api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VkindexContext_T* VkindexContext;
typedef struct VkindexTensor_T* VkindexTensor;
typedef struct VkindexRecordedOp_T* VkindexRecordedOp;
typedef struct VkindexStatusBatch_T* VkindexStatusBatch;

/* The same codes, in the same order, as vkindex::StatusCode. */
typedef enum VkindexStatus {
  VKINDEX_OK = 0,
  VKINDEX_INVALID_ARGUMENT = 1,
  VKINDEX_OUT_OF_RANGE = 2,
  VKINDEX_UNSUPPORTED = 3,
  VKINDEX_DEVICE_ERROR = 4,
  VKINDEX_INTERNAL = 5,
  VKINDEX_RESOURCE_EXHAUSTED = 6
} VkindexStatus;

/* The ONNX element types, in the order of vkindex::DataType. Strings are not available in the C API (15 is
 * vkindex::DataType::kString's place). The low-precision types (16 on) are TensorScatter's only; the 4-bit
 * ones are packed two per byte, the first element in the low nibble. */
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
  VKINDEX_COMPLEX128,
  VKINDEX_FLOAT8E4M3FN = 16,
  VKINDEX_FLOAT8E4M3FNUZ,
  VKINDEX_FLOAT8E5M2,
  VKINDEX_FLOAT8E5M2FNUZ,
  VKINDEX_FLOAT8E8M0,
  VKINDEX_INT4,
  VKINDEX_UINT4,
  VKINDEX_FLOAT4E2M1
} VkindexDataType;

/* How a scatter combines an update with the value at its target, in the order of vkindex::Reduction.
 * NONE (the update replaces it) works for every type; ADD and MUL (ONNX opset 16+) for every numeric
 * type, complex included; MAX and MIN (opset 18+) for every real numeric type; on bool ADD (OR) and MUL
 * (AND), on string ADD (concatenation in index order), as ONNX Runtime's CPU kernels define them. Exact
 * on every device (docs/reductions.md). Duplicate targets combine one by one in index order. */
typedef enum VkindexReduction {
  VKINDEX_REDUCTION_NONE = 0,
  VKINDEX_REDUCTION_ADD,
  VKINDEX_REDUCTION_MUL,
  VKINDEX_REDUCTION_MAX,
  VKINDEX_REDUCTION_MIN
} VkindexReduction;

/* The library's version: major * 10000 + minor * 100 + patch (compare with VKINDEX_VERSION from
 * vkindex/version.hpp, the headers' version), and as a string ("0.1.0"). */
VKINDEX_API uint32_t vkindexVersion(void);
VKINDEX_API const char* vkindexVersionString(void);

/* The message of the calling thread's last failed call ("" if none). Valid until its next call. */
VKINDEX_API const char* vkindexLastErrorMessage(void);

/* Creates a context on the device `device_selector` names (a decimal index or part of the name; NULL or
 * "" for the default, see the README). `validation` != 0 enables the Khronos validation layer. */
VKINDEX_API VkindexStatus vkindexContextCreate(const char* device_selector, int validation, VkindexContext* context);
/* Destroy every tensor and recorded operation of a context before the context itself, as a VkDevice
 * outlives the objects made from it: using or destroying them afterwards is undefined behaviour. */
VKINDEX_API void vkindexContextDestroy(VkindexContext context);

/* Options for vkindexContextCreateWithOptions and vkindexContextAdopt; zero-initialise, then set
 * `struct_size` to sizeof(VkindexContextOptions) (later versions may append fields). Mirrors
 * vkindex::ContextOptions. */
typedef struct VkindexContextOptions {
  size_t struct_size;
  /* A decimal index or part of the name; NULL or "" for the default (see vkindexContextCreate). */
  const char* device_selector;
  /* != 0: the Khronos validation layer (ignored by vkindexContextAdopt: the application's instance
   * decides about layers). */
  int validation;
  /* Folder of the on-disk pipeline cache. NULL: $VKINDEX_PIPELINE_CACHE_DIR, else $XDG_CACHE_HOME/vkindex,
   * else $HOME/.cache/vkindex; "": memory only. Android apps pass their cache folder (Context.getCacheDir()),
   * since Android has no HOME. */
  const char* pipeline_cache_dir;
  /* Appended with tuning profiles (read only when struct_size covers it): a profile written by
   * `vkindex tune`. NULL: $VKINDEX_TUNING_PROFILE, else the one in the pipeline cache folder for this
   * device; "": none. A profile that cannot be used is ignored with a warning (vkindex::ContextOptions). */
  const char* tuning_profile;
} VkindexContextOptions;

/* vkindexContextCreate with every option. `options` may be NULL (the defaults). */
VKINDEX_API VkindexStatus vkindexContextCreateWithOptions(const VkindexContextOptions* options,
                                                          VkindexContext* context);

/* The application's Vulkan objects for vkindexContextAdopt (mirrors vkindex::ExternalVulkan). The device
 * needs no optional feature or extension; `queue` is a queue of `queue_family`, which supports compute. */
typedef struct VkindexExternalVulkan {
  uint32_t api_version; /* the VkApplicationInfo::apiVersion the instance was created with (>= 1.1; from
                         * 1.2, with a 1.2 device, vkindex also uses float controls, core there) */
  VkInstance instance;
  VkPhysicalDevice physical_device;
  VkDevice device;
  VkQueue queue;
  uint32_t queue_family;
  /* The application's loader entry point; NULL to open the system's Vulkan loader. */
  PFN_vkGetInstanceProcAddr get_instance_proc_addr;
} VkindexExternalVulkan;

/* A context on the application's instance, device and queue, which must outlive it. `options` may be
 * NULL; its device selector and validation are ignored. */
VKINDEX_API VkindexStatus vkindexContextAdopt(const VkindexExternalVulkan* external,
                                              const VkindexContextOptions* options, VkindexContext* context);

/* A device tensor of `rank` dims (`shape` may be NULL when rank is 0). With `data` non-NULL, `byte_count`
 * bytes are uploaded (packed little-endian elements); with `data` NULL the contents are undefined. */
VKINDEX_API VkindexStatus vkindexTensorCreate(VkindexContext context, VkindexDataType type, const int64_t* shape,
                                              size_t rank, const void* data, size_t byte_count, VkindexTensor* tensor);
/* A tensor viewing the application's `buffer` (of `buffer_size` bytes) from `offset`, a multiple of 4;
 * nothing is copied, and the buffer must outlive the tensor. The rules are Tensor::view's
 * (include/vkindex/tensor.hpp): STORAGE_BUFFER usage, and the tensor rounded up to 4 bytes must fit. */
VKINDEX_API VkindexStatus vkindexTensorView(VkindexContext context, VkindexDataType type, const int64_t* shape,
                                            size_t rank, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize buffer_size,
                                            VkindexTensor* tensor);
VKINDEX_API void vkindexTensorDestroy(VkindexTensor tensor);
/* The tensor's rank, its dims (valid while the tensor lives), and its size in bytes. */
VKINDEX_API size_t vkindexTensorRank(VkindexTensor tensor);
VKINDEX_API const int64_t* vkindexTensorShape(VkindexTensor tensor);
VKINDEX_API uint64_t vkindexTensorByteSize(VkindexTensor tensor);
/* Copies the tensor's bytes to `data`; `byte_count` must equal vkindexTensorByteSize(). */
VKINDEX_API VkindexStatus vkindexTensorDownload(VkindexTensor tensor, void* data, size_t byte_count);

/* The order of vkindex::IndexPolicy (vkindex/index_policy.hpp): ONNX's error, or "an index out of range
 * addresses nothing". The gathers' and scatters' "...WithPolicy" forms take one (TensorScatter takes it
 * directly); the forms without it use VKINDEX_INDEX_POLICY_ERROR. With VKINDEX_INDEX_POLICY_SKIP an index
 * (or a tuple component) outside [0, s-1], negative ones included, gives a zero slice or element
 * (gathers) or an update that takes no part (scatters), and is never an error (vkindex/ops.hpp, "Index
 * policy"). Another policy value is VKINDEX_INVALID_ARGUMENT naming the function. */
typedef enum VkindexIndexPolicy {
  VKINDEX_INDEX_POLICY_ERROR = 0,
  VKINDEX_INDEX_POLICY_SKIP,
  /* Not a policy: makes the enum 32 bits wide, so that any value a caller passes is one of its values
   * (refused, not undefined behaviour, also where C++ code receives it). */
  VKINDEX_INDEX_POLICY_MAX_ENUM = 0x7FFFFFFF
} VkindexIndexPolicy;

/* ONNX Gather (opsets 1, 11, 13) into a new tensor `output` (destroy it with vkindexTensorDestroy). */
VKINDEX_API VkindexStatus vkindexGather(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t axis,
                                        VkindexTensor* output);
/* ONNX GatherElements (opsets 11, 13) along `axis` into a new tensor `output` of indices' shape (destroy it
 * with vkindexTensorDestroy). */
VKINDEX_API VkindexStatus vkindexGatherElements(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                                int64_t axis, VkindexTensor* output);
/* ONNX GatherND (opsets 11, 12, 13) with `batch_dims` (0 for opset 11) into a new tensor `output` (destroy it
 * with vkindexTensorDestroy). */
VKINDEX_API VkindexStatus vkindexGatherND(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                          int64_t batch_dims, VkindexTensor* output);

/* ONNX ScatterElements (opsets 11, 13, 16, 18; Scatter 9 and 10 is the same with NONE) into a new tensor
 * `output` (destroy it with vkindexTensorDestroy): a copy of `data` in which, for every position p of
 * `indices`, the element at p with coordinate `axis` replaced by indices[p] is combined with updates[p].
 * `updates` has indices' shape. On an error nothing is created. */
VKINDEX_API VkindexStatus vkindexScatterElements(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                                 VkindexTensor updates, int64_t axis, VkindexReduction reduction,
                                                 VkindexTensor* output);
/* The same in place: `data` becomes the output (only the updated elements are written). On an error,
 * including a bad index, `data` is unchanged. */
VKINDEX_API VkindexStatus vkindexScatterElementsInPlace(VkindexContext context, VkindexTensor data,
                                                        VkindexTensor indices, VkindexTensor updates, int64_t axis,
                                                        VkindexReduction reduction);
/* ONNX ScatterND (opsets 11, 13, 16, 18) into a new tensor `output` (destroy it with
 * vkindexTensorDestroy): a copy of `data` in which the slice each index tuple (indices' last dim k)
 * addresses is combined with the matching slice of `updates`, of shape indices.shape[:-1] +
 * data.shape[k:]. On an error nothing is created. */
VKINDEX_API VkindexStatus vkindexScatterND(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                           VkindexTensor updates, VkindexReduction reduction, VkindexTensor* output);
/* The same in place: `data` becomes the output; on an error it is unchanged. */
VKINDEX_API VkindexStatus vkindexScatterNDInPlace(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                                  VkindexTensor updates, VkindexReduction reduction);

/* Recording into the application's command buffer (begun, not yet ended; no submission by vkindex), for
 * each operator: the same inputs as above, into `output`, a tensor of the right type and shape that the
 * caller created (vkindexTensorCreate with data NULL, or vkindexTensorView). Synchronization follows
 * vkindex/ops.hpp: make the inputs' writes visible to compute-shader reads before, and place a barrier
 * from compute-shader writes before reading `output`. `op` owns what the commands refer to: call
 * vkindexRecordedOpFinish once the command buffer has completed, then vkindexRecordedOpDestroy (also to
 * abandon a command buffer that was never submitted). */
VKINDEX_API VkindexStatus vkindexRecordGather(VkindexContext context, VkCommandBuffer command_buffer,
                                              VkindexTensor data, VkindexTensor indices, int64_t axis,
                                              VkindexTensor output, VkindexRecordedOp* op);
VKINDEX_API VkindexStatus vkindexRecordGatherElements(VkindexContext context, VkCommandBuffer command_buffer,
                                                      VkindexTensor data, VkindexTensor indices, int64_t axis,
                                                      VkindexTensor output, VkindexRecordedOp* op);
VKINDEX_API VkindexStatus vkindexRecordGatherND(VkindexContext context, VkCommandBuffer command_buffer,
                                                VkindexTensor data, VkindexTensor indices, int64_t batch_dims,
                                                VkindexTensor output, VkindexRecordedOp* op);
VKINDEX_API VkindexStatus vkindexRecordScatterElements(VkindexContext context, VkCommandBuffer command_buffer,
                                                       VkindexTensor data, VkindexTensor indices, VkindexTensor updates,
                                                       int64_t axis, VkindexReduction reduction, VkindexTensor output,
                                                       VkindexRecordedOp* op);
VKINDEX_API VkindexStatus vkindexRecordScatterND(VkindexContext context, VkCommandBuffer command_buffer,
                                                 VkindexTensor data, VkindexTensor indices, VkindexTensor updates,
                                                 VkindexReduction reduction, VkindexTensor output,
                                                 VkindexRecordedOp* op);
/* Gather and GatherND with index values in host memory (e.g. token ids from a CPU sampler) instead of an
 * indices tensor; mirrors vkindex::HostIndices (vkindex/ops.hpp). The values are checked on the host, so a
 * bad index fails the call itself and nothing is created or recorded. Rows are copied with vkCmdCopyBuffer
 * regions (runs of consecutive rows merged), or by the gather kernel where regions would be small. */
typedef struct VkindexHostIndices {
  VkindexDataType type; /* VKINDEX_INT32 or VKINDEX_INT64 */
  const int64_t* shape; /* `rank` dims; NULL when rank is 0 */
  size_t rank;
  const void* values; /* the packed elements, native byte order; NULL when there are none */
} VkindexHostIndices;
/* Into a new tensor `output` (destroy it with vkindexTensorDestroy). */
VKINDEX_API VkindexStatus vkindexGatherHostIndices(VkindexContext context, VkindexTensor data,
                                                   const VkindexHostIndices* indices, int64_t axis,
                                                   VkindexTensor* output);
VKINDEX_API VkindexStatus vkindexGatherNDHostIndices(VkindexContext context, VkindexTensor data,
                                                     const VkindexHostIndices* indices, int64_t batch_dims,
                                                     VkindexTensor* output);
/* Recorded as above; the values are copied into the command buffer, so they may change after the call. */
VKINDEX_API VkindexStatus vkindexRecordGatherHostIndices(VkindexContext context, VkCommandBuffer command_buffer,
                                                         VkindexTensor data, const VkindexHostIndices* indices,
                                                         int64_t axis, VkindexTensor output, VkindexRecordedOp* op);
VKINDEX_API VkindexStatus vkindexRecordGatherNDHostIndices(VkindexContext context, VkCommandBuffer command_buffer,
                                                           VkindexTensor data, const VkindexHostIndices* indices,
                                                           int64_t batch_dims, VkindexTensor output,
                                                           VkindexRecordedOp* op);
/* The gathers above with an index policy, before the output as in vkindexTensorScatter. Another policy
 * value is VKINDEX_INVALID_ARGUMENT. */
VKINDEX_API VkindexStatus vkindexGatherWithPolicy(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                                  int64_t axis, VkindexIndexPolicy policy, VkindexTensor* output);
VKINDEX_API VkindexStatus vkindexGatherElementsWithPolicy(VkindexContext context, VkindexTensor data,
                                                          VkindexTensor indices, int64_t axis,
                                                          VkindexIndexPolicy policy, VkindexTensor* output);
VKINDEX_API VkindexStatus vkindexGatherNDWithPolicy(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                                    int64_t batch_dims, VkindexIndexPolicy policy,
                                                    VkindexTensor* output);
VKINDEX_API VkindexStatus vkindexRecordGatherWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                                        VkindexTensor data, VkindexTensor indices, int64_t axis,
                                                        VkindexIndexPolicy policy, VkindexTensor output,
                                                        VkindexRecordedOp* op);
VKINDEX_API VkindexStatus vkindexRecordGatherElementsWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                                                VkindexTensor data, VkindexTensor indices, int64_t axis,
                                                                VkindexIndexPolicy policy, VkindexTensor output,
                                                                VkindexRecordedOp* op);
VKINDEX_API VkindexStatus vkindexRecordGatherNDWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                                          VkindexTensor data, VkindexTensor indices, int64_t batch_dims,
                                                          VkindexIndexPolicy policy, VkindexTensor output,
                                                          VkindexRecordedOp* op);
VKINDEX_API VkindexStatus vkindexGatherHostIndicesWithPolicy(VkindexContext context, VkindexTensor data,
                                                             const VkindexHostIndices* indices, int64_t axis,
                                                             VkindexIndexPolicy policy, VkindexTensor* output);
VKINDEX_API VkindexStatus vkindexGatherNDHostIndicesWithPolicy(VkindexContext context, VkindexTensor data,
                                                               const VkindexHostIndices* indices, int64_t batch_dims,
                                                               VkindexIndexPolicy policy, VkindexTensor* output);
VKINDEX_API VkindexStatus vkindexRecordGatherHostIndicesWithPolicy(VkindexContext context,
                                                                   VkCommandBuffer command_buffer, VkindexTensor data,
                                                                   const VkindexHostIndices* indices, int64_t axis,
                                                                   VkindexIndexPolicy policy, VkindexTensor output,
                                                                   VkindexRecordedOp* op);
VKINDEX_API VkindexStatus vkindexRecordGatherNDHostIndicesWithPolicy(VkindexContext context,
                                                                     VkCommandBuffer command_buffer, VkindexTensor data,
                                                                     const VkindexHostIndices* indices,
                                                                     int64_t batch_dims, VkindexIndexPolicy policy,
                                                                     VkindexTensor output, VkindexRecordedOp* op);
/* The scatters above with an index policy, after the reduction (before the output). Under
 * VKINDEX_INDEX_POLICY_SKIP an update whose index (ScatterND: any component of its tuple) lies outside
 * [0, s-1] takes no part, whatever the reduction: slot -1 of a paged KV cache writes nothing. */
VKINDEX_API VkindexStatus vkindexScatterElementsWithPolicy(VkindexContext context, VkindexTensor data,
                                                           VkindexTensor indices, VkindexTensor updates, int64_t axis,
                                                           VkindexReduction reduction, VkindexIndexPolicy policy,
                                                           VkindexTensor* output);
VKINDEX_API VkindexStatus vkindexScatterElementsInPlaceWithPolicy(VkindexContext context, VkindexTensor data,
                                                                  VkindexTensor indices, VkindexTensor updates,
                                                                  int64_t axis, VkindexReduction reduction,
                                                                  VkindexIndexPolicy policy);
VKINDEX_API VkindexStatus vkindexScatterNDWithPolicy(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                                     VkindexTensor updates, VkindexReduction reduction,
                                                     VkindexIndexPolicy policy, VkindexTensor* output);
VKINDEX_API VkindexStatus vkindexScatterNDInPlaceWithPolicy(VkindexContext context, VkindexTensor data,
                                                            VkindexTensor indices, VkindexTensor updates,
                                                            VkindexReduction reduction, VkindexIndexPolicy policy);
VKINDEX_API VkindexStatus vkindexRecordScatterElementsWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                                                 VkindexTensor data, VkindexTensor indices,
                                                                 VkindexTensor updates, int64_t axis,
                                                                 VkindexReduction reduction, VkindexIndexPolicy policy,
                                                                 VkindexTensor output, VkindexRecordedOp* op);
VKINDEX_API VkindexStatus vkindexRecordScatterNDWithPolicy(VkindexContext context, VkCommandBuffer command_buffer,
                                                           VkindexTensor data, VkindexTensor indices,
                                                           VkindexTensor updates, VkindexReduction reduction,
                                                           VkindexIndexPolicy policy, VkindexTensor output,
                                                           VkindexRecordedOp* op);

/* ONNX TensorScatter (opset 24), the KV-cache write: a copy of `past_cache` (shape [batch, ..., max_seq at
 * `axis`, ...]) with each batch entry b's rows of `update` (seq_len rows where the cache has max_seq)
 * written along `axis` from write_indices[b]; mirrors vkindex/tensor_scatter.hpp. `write_indices` is an
 * int64 tensor of shape [batch], or NULL for all zeros. LINEAR needs 0 <= w <= max_seq - seq_len; CIRCULAR
 * wraps positions modulo max_seq and needs w >= 0. INDEX_POLICY_SKIP skips a batch entry whose write index
 * breaks that rule instead of failing. A bad write index is VKINDEX_OUT_OF_RANGE and nothing is written. */
typedef enum VkindexTensorScatterMode {
  VKINDEX_TENSOR_SCATTER_LINEAR = 0,
  VKINDEX_TENSOR_SCATTER_CIRCULAR,
  VKINDEX_TENSOR_SCATTER_MODE_MAX_ENUM = 0x7FFFFFFF /* not a mode: the enum is 32 bits wide, as above */
} VkindexTensorScatterMode;
/* Into a new tensor `output` (destroy it with vkindexTensorDestroy). */
VKINDEX_API VkindexStatus vkindexTensorScatter(VkindexContext context, VkindexTensor past_cache, VkindexTensor update,
                                               VkindexTensor write_indices, int64_t axis, VkindexTensorScatterMode mode,
                                               VkindexIndexPolicy policy, VkindexTensor* output);
/* In place: `cache` becomes present_cache; only the update's rows are written. */
VKINDEX_API VkindexStatus vkindexTensorScatterInPlace(VkindexContext context, VkindexTensor cache, VkindexTensor update,
                                                      VkindexTensor write_indices, int64_t axis,
                                                      VkindexTensorScatterMode mode, VkindexIndexPolicy policy);
/* Recorded as the other operators; `output` may be `past_cache` itself (in place). */
VKINDEX_API VkindexStatus vkindexRecordTensorScatter(VkindexContext context, VkCommandBuffer command_buffer,
                                                     VkindexTensor past_cache, VkindexTensor update,
                                                     VkindexTensor write_indices, int64_t axis,
                                                     VkindexTensorScatterMode mode, VkindexIndexPolicy policy,
                                                     VkindexTensor output, VkindexRecordedOp* op);
/* com.microsoft GatherBlockQuantized, the quantized embedding lookup; mirrors
 * vkindex/gather_block_quantized.hpp (its comments give the types, shapes and arithmetic): Gather along
 * `gather_axis` of int4, uint4, uint8 (codes of `bits` bits), float8 or float4e2m1 `data`, dequantized
 * with `scales` (float32, float16 or bfloat16: the output's type) and optional `zero_points` (NULL:
 * absent). With VKINDEX_INDEX_POLICY_SKIP (the operator's rule) an index outside [-s, s-1] gives a zero
 * slice; with VKINDEX_INDEX_POLICY_ERROR it is VKINDEX_OUT_OF_RANGE and nothing is written. */
typedef struct VkindexGatherBlockQuantizedOptions {
  int64_t gather_axis;
  int64_t quantize_axis;
  int64_t block_size;
  int64_t bits;
  VkindexIndexPolicy policy;
} VkindexGatherBlockQuantizedOptions;
/* ONNX Runtime's defaults: gather_axis 0, quantize_axis 1, block_size 128, bits 4, and
 * VKINDEX_INDEX_POLICY_SKIP. `options` NULL in the functions below means these. */
VKINDEX_API VkindexGatherBlockQuantizedOptions vkindexGatherBlockQuantizedDefaults(void);
/* Into a new tensor `output` (destroy it with vkindexTensorDestroy). */
VKINDEX_API VkindexStatus vkindexGatherBlockQuantized(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                                      VkindexTensor scales, VkindexTensor zero_points,
                                                      const VkindexGatherBlockQuantizedOptions* options,
                                                      VkindexTensor* output);
/* With host indices (token ids from a CPU sampler), checked on the host. */
VKINDEX_API VkindexStatus vkindexGatherBlockQuantizedHostIndices(VkindexContext context, VkindexTensor data,
                                                                 const VkindexHostIndices* indices,
                                                                 VkindexTensor scales, VkindexTensor zero_points,
                                                                 const VkindexGatherBlockQuantizedOptions* options,
                                                                 VkindexTensor* output);
/* Recorded as the other operators, into `output` (the inferred shape, the scales' type). */
VKINDEX_API VkindexStatus vkindexRecordGatherBlockQuantized(VkindexContext context, VkCommandBuffer command_buffer,
                                                            VkindexTensor data, VkindexTensor indices,
                                                            VkindexTensor scales, VkindexTensor zero_points,
                                                            const VkindexGatherBlockQuantizedOptions* options,
                                                            VkindexTensor output, VkindexRecordedOp* op);

/* After the command buffer completed: VKINDEX_OK, or VKINDEX_OUT_OF_RANGE with the first bad index (the
 * output was then not written). Later calls return the same. */
VKINDEX_API VkindexStatus vkindexRecordedOpFinish(VkindexRecordedOp op);
VKINDEX_API void vkindexRecordedOpDestroy(VkindexRecordedOp op);

/* Many recorded operations with one status barrier (vkindex/status_batch.hpp): between
 * vkindexStatusBatchBegin and vkindexStatusBatchEnd, operations recorded into `command_buffer` record no
 * barrier of their own to the host; End records one for all of them, after the last (call it before
 * vkEndCommandBuffer). One open batch per command buffer. vkindexStatusBatchDestroy frees the handle; a batch
 * destroyed without End leaves its operations' vkindexRecordedOpFinish failing with VKINDEX_INVALID_ARGUMENT. */
VKINDEX_API VkindexStatus vkindexStatusBatchBegin(VkindexContext context, VkCommandBuffer command_buffer,
                                                  VkindexStatusBatch* batch);
VKINDEX_API VkindexStatus vkindexStatusBatchEnd(VkindexStatusBatch batch);
VKINDEX_API void vkindexStatusBatchDestroy(VkindexStatusBatch batch);

#ifdef __cplusplus
}
#endif

#endif /* VKINDEX_VKINDEX_H */
