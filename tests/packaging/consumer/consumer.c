/* A C application embedding vkindex beside its own Vulkan (application_vulkan.h), through the C API:
 * Gather of rows {2, 0, 2} from a 3x2 int32 table, checked byte for byte. */
#include <stdio.h>
#include <string.h>
#include <vkindex/vkindex.h>

#include "application_vulkan.h"

static int fail(const char* what) {
  fprintf(stderr, "consumer_c: %s: %s\n", what, vkindexLastErrorMessage());
  return 1;
}

static int gatherRows(VkindexContext context) {
  const int32_t table[] = {10, 11, 20, 21, 30, 31};
  const int64_t table_shape[] = {3, 2};
  const int64_t rows[] = {2, 0, 2};
  const int64_t rows_shape[] = {3};
  const int32_t expected[] = {30, 31, 10, 11, 30, 31};
  VkindexTensor data = NULL, indices = NULL, output = NULL;
  int32_t result[6] = {0};
  int failed = 1;
  if (vkindexTensorCreate(context, VKINDEX_INT32, table_shape, 2, table, sizeof(table), &data) != VKINDEX_OK) {
    fail("data");
  } else if (vkindexTensorCreate(context, VKINDEX_INT64, rows_shape, 1, rows, sizeof(rows), &indices) != VKINDEX_OK) {
    fail("indices");
  } else if (vkindexGather(context, data, indices, 0, &output) != VKINDEX_OK) {
    fail("gather");
  } else if (vkindexTensorDownload(output, result, sizeof(result)) != VKINDEX_OK) {
    fail("download");
  } else if (memcmp(result, expected, sizeof(expected)) != 0) {
    fprintf(stderr, "consumer_c: wrong gather result\n");
  } else {
    failed = 0;
  }
  vkindexTensorDestroy(output);
  vkindexTensorDestroy(indices);
  vkindexTensorDestroy(data);
  return failed;
}

int main(void) {
  if (useApplicationVulkan("consumer_c before vkindex") != 0) return 1;
  VkindexContext context = NULL;
  if (vkindexContextCreate(NULL, 0, &context) != VKINDEX_OK) return fail("vkindexContextCreate");
  int failed = gatherRows(context);
  vkindexContextDestroy(context);
  if (failed) return 1;
  printf("consumer_c: vkindex %s gathered\n", vkindexVersionString());
  return useApplicationVulkan("consumer_c after vkindex");
}
