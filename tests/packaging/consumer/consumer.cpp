// A C++ application embedding vkindex beside its own Vulkan (application_vulkan.h): Gather of rows
// {2, 0, 2} from a 3x2 int32 table, checked byte for byte.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vkindex/vkindex.hpp>

extern "C" {
#include "application_vulkan.h"
}

namespace {

int fail(const char* what, const vkindex::Status& status) {
  std::fprintf(stderr, "consumer_cpp: %s: %s\n", what, status.toString().c_str());
  return 1;
}

}  // namespace

int main() {
  if (useApplicationVulkan("consumer_cpp before vkindex") != 0) return 1;
  if (std::strcmp(vkindex::libraryVersion(), VKINDEX_VERSION_STRING) != 0) {
    std::fprintf(stderr, "consumer_cpp: headers %s, library %s\n", VKINDEX_VERSION_STRING, vkindex::libraryVersion());
    return 1;
  }
  {
    auto context = vkindex::Context::create();
    if (!context.ok()) return fail("Context::create", context.status());
    vkindex::Context& ctx = **context;
    const int32_t table[] = {10, 11, 20, 21, 30, 31};
    const int64_t rows[] = {2, 0, 2};
    auto data = vkindex::Tensor::fromHost(ctx, vkindex::DataType::kInt32, {3, 2}, table, sizeof(table));
    if (!data.ok()) return fail("data", data.status());
    auto indices = vkindex::Tensor::fromHost(ctx, vkindex::DataType::kInt64, {3}, rows, sizeof(rows));
    if (!indices.ok()) return fail("indices", indices.status());
    auto output = vkindex::gather(ctx, *data, *indices, 0);
    if (!output.ok()) return fail("gather", output.status());
    int32_t result[6] = {};
    vkindex::Status status = output->download(result, sizeof(result));
    if (!status.ok()) return fail("download", status);
    const int32_t expected[] = {30, 31, 10, 11, 30, 31};
    if (std::memcmp(result, expected, sizeof(expected)) != 0) {
      std::fprintf(stderr, "consumer_cpp: wrong gather result\n");
      return 1;
    }
    std::printf("consumer_cpp: vkindex %s gathered on %s\n", vkindex::libraryVersion(), ctx.device().name.c_str());
  }
  return useApplicationVulkan("consumer_cpp after vkindex");
}
