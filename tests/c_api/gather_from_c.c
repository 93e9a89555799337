/* Compiled as C: proves include/vkindex/vkindex.h is C-clean and drives the C API end to end (gathers and
 * scatters). */
#include "gather_from_c.h"

#include <string.h>

/* vkindexGather, vkindexGatherElements and vkindexGatherND share this signature. */
typedef VkindexStatus (*GatherFunction)(VkindexContext, VkindexTensor, VkindexTensor, int64_t, VkindexTensor*);

/* A float tensor or int64 index tensor of up to 3 dims, for one call. */
typedef struct FloatInput {
  const float* values;
  int64_t shape[3];
  size_t rank;
} FloatInput;

typedef struct IndexInput {
  const int64_t* values;
  int64_t shape[3];
  size_t rank;
} IndexInput;

static uint64_t elementCount(const int64_t* shape, size_t rank) {
  uint64_t count = 1;
  size_t d;
  for (d = 0; d < rank; ++d) count *= (uint64_t)shape[d];
  return count;
}

/* Copies `text` into `message`, truncated to fit. */
static void copyMessage(const char* text, char* message, size_t message_size) {
  strncpy(message, text, message_size - 1);
  message[message_size - 1] = '\0';
}

/* Uploads a float or int64 index input. */
static VkindexStatus createFloats(VkindexContext context, const FloatInput* input, VkindexTensor* tensor) {
  return vkindexTensorCreate(context, VKINDEX_FLOAT32, input->shape, input->rank, input->values,
                             (size_t)elementCount(input->shape, input->rank) * sizeof(float), tensor);
}

static VkindexStatus createIndices(VkindexContext context, const IndexInput* input, VkindexTensor* tensor) {
  return vkindexTensorCreate(context, VKINDEX_INT64, input->shape, input->rank, input->values,
                             (size_t)elementCount(input->shape, input->rank) * sizeof(int64_t), tensor);
}

/* Creates a context on `device`, runs `gather` on the inputs, checks the output's shape against
 * `expected_shape` and downloads it into `out_values`. Returns the first failing status (VKINDEX_INTERNAL
 * for a wrong shape) with its message in `message`, and releases everything it created. */
static int runFloatGather(const char* device, GatherFunction gather, const FloatInput* data, const IndexInput* ids,
                          int64_t attribute, const int64_t* expected_shape, size_t expected_rank, float* out_values,
                          char* message, size_t message_size) {
  VkindexContext context = NULL;
  VkindexTensor data_tensor = NULL, ids_tensor = NULL, output = NULL;
  const uint64_t out_count = elementCount(expected_shape, expected_rank);
  int wrong_shape = 0;
  VkindexStatus status = vkindexContextCreate(device, 1, &context);
  if (status == VKINDEX_OK) status = createFloats(context, data, &data_tensor);
  if (status == VKINDEX_OK) status = createIndices(context, ids, &ids_tensor);
  if (status == VKINDEX_OK) status = gather(context, data_tensor, ids_tensor, attribute, &output);
  if (status == VKINDEX_OK) {
    if (vkindexTensorRank(output) != expected_rank ||
        memcmp(vkindexTensorShape(output), expected_shape, expected_rank * sizeof(int64_t)) != 0 ||
        vkindexTensorByteSize(output) != out_count * sizeof(float)) {
      status = VKINDEX_INTERNAL;
      wrong_shape = 1;
      copyMessage("the output has the wrong shape or size", message, message_size);
    } else {
      status = vkindexTensorDownload(output, out_values, (size_t)out_count * sizeof(float));
    }
  }
  if (status != VKINDEX_OK && !wrong_shape) copyMessage(vkindexLastErrorMessage(), message, message_size);
  vkindexTensorDestroy(output);
  vkindexTensorDestroy(ids_tensor);
  vkindexTensorDestroy(data_tensor);
  vkindexContextDestroy(context);
  return (int)status;
}

int gatherFromC(const char* device, int64_t bad_index, float out_values[6], char* message, size_t message_size) {
  static const float table[8] = {0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f};
  const int64_t ids[3] = {3, -4, bad_index};
  const FloatInput data = {table, {4, 2, 0}, 2};
  const IndexInput indices = {ids, {3, 0, 0}, 1};
  const int64_t out_shape[2] = {3, 2};
  return runFloatGather(device, vkindexGather, &data, &indices, 0, out_shape, 2, out_values, message, message_size);
}

int gatherElementsFromC(const char* device, int64_t index, float out_values[4], char* message, size_t message_size) {
  static const float values[4] = {1.f, 2.f, 3.f, 4.f};
  const int64_t ids[4] = {0, 0, index, 0};
  const FloatInput data = {values, {2, 2, 0}, 2};
  const IndexInput indices = {ids, {2, 2, 0}, 2};
  const int64_t out_shape[2] = {2, 2};
  return runFloatGather(device, vkindexGatherElements, &data, &indices, 1, out_shape, 2, out_values, message,
                        message_size);
}

int gatherNDFromC(const char* device, int64_t index, float out_values[4], char* message, size_t message_size) {
  static const float values[8] = {0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f};
  const int64_t ids[2] = {1, index};
  const FloatInput data = {values, {2, 2, 2}, 3};
  const IndexInput indices = {ids, {2, 1, 0}, 2};
  const int64_t out_shape[2] = {2, 2};
  return runFloatGather(device, vkindexGatherND, &data, &indices, 1, out_shape, 2, out_values, message, message_size);
}

/* Creates a context on `device` and runs ScatterElements along `axis` (`element_wise` != 0) or ScatterND
 * on float data, int64 indices and float updates, out of place or in place. Downloads the result (data's
 * shape) into `out_values`; in place also after a failed call, so the caller sees that data is unchanged.
 * Returns the operator's status (or the first failing setup status) with its message in `message`. */
static int runFloatScatter(const char* device, int element_wise, const FloatInput* data, const IndexInput* ids,
                           const FloatInput* updates, int64_t axis, VkindexReduction reduction, int in_place,
                           float* out_values, char* message, size_t message_size) {
  VkindexContext context = NULL;
  VkindexTensor data_tensor = NULL, ids_tensor = NULL, updates_tensor = NULL, output = NULL;
  const uint64_t data_count = elementCount(data->shape, data->rank);
  VkindexStatus status = vkindexContextCreate(device, 1, &context);
  if (status == VKINDEX_OK) status = createFloats(context, data, &data_tensor);
  if (status == VKINDEX_OK) status = createIndices(context, ids, &ids_tensor);
  if (status == VKINDEX_OK) status = createFloats(context, updates, &updates_tensor);
  if (status != VKINDEX_OK) {
    copyMessage(vkindexLastErrorMessage(), message, message_size);
  } else {
    if (in_place) {
      status = element_wise
                   ? vkindexScatterElementsInPlace(context, data_tensor, ids_tensor, updates_tensor, axis, reduction)
                   : vkindexScatterNDInPlace(context, data_tensor, ids_tensor, updates_tensor, reduction);
    } else {
      status = element_wise
                   ? vkindexScatterElements(context, data_tensor, ids_tensor, updates_tensor, axis, reduction, &output)
                   : vkindexScatterND(context, data_tensor, ids_tensor, updates_tensor, reduction, &output);
    }
    if (status != VKINDEX_OK) copyMessage(vkindexLastErrorMessage(), message, message_size);
    {
      VkindexTensor result = in_place ? data_tensor : output;
      if (result != NULL) {
        VkindexStatus downloaded = vkindexTensorDownload(result, out_values, (size_t)data_count * sizeof(float));
        if (downloaded != VKINDEX_OK && status == VKINDEX_OK) {
          status = downloaded;
          copyMessage(vkindexLastErrorMessage(), message, message_size);
        }
      }
    }
  }
  vkindexTensorDestroy(output);
  vkindexTensorDestroy(updates_tensor);
  vkindexTensorDestroy(ids_tensor);
  vkindexTensorDestroy(data_tensor);
  vkindexContextDestroy(context);
  return (int)status;
}

int scatterElementsFromC(const char* device, int64_t index, VkindexReduction reduction, int in_place,
                         float out_values[5], char* message, size_t message_size) {
  static const float values[5] = {1.f, 2.f, 3.f, 4.f, 5.f};
  static const float update_values[2] = {1.1f, 2.1f};
  const int64_t ids[2] = {1, index};
  const FloatInput data = {values, {1, 5, 0}, 2};
  const IndexInput indices = {ids, {1, 2, 0}, 2};
  const FloatInput updates = {update_values, {1, 2, 0}, 2};
  return runFloatScatter(device, 1, &data, &indices, &updates, 1, reduction, in_place, out_values, message,
                         message_size);
}

int scatterNDFromC(const char* device, int64_t index, VkindexReduction reduction, int in_place, float out_values[8],
                   char* message, size_t message_size) {
  static const float values[8] = {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f};
  static const float update_values[4] = {9.f, 10.f, 11.f, 12.f};
  const int64_t ids[4] = {4, 3, 1, index};
  const FloatInput data = {values, {8, 0, 0}, 1};
  const IndexInput indices = {ids, {4, 1, 0}, 2};
  const FloatInput updates = {update_values, {4, 0, 0}, 1};
  return runFloatScatter(device, 0, &data, &indices, &updates, 0, reduction, in_place, out_values, message,
                         message_size);
}
