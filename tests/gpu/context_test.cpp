// Context lifetimes: contexts with and without validation coexist in one process (volk's globals are
// shared, so each instance must use its own extension entry points).
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

class ContextTest : public GpuTest {};

TEST_F(ContextTest, ContextsWithAndWithoutValidationCoexist) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> validated, makeContext({}));
  ContextOptions plain_options;
  plain_options.pipeline_cache_dir = "";
  plain_options.device = std::to_string(context().device().index);
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> plain, Context::create(plain_options));
  // Both work after each other's creation, and the validated one still hears its layer.
  Rng rng(9);
  HostTensor data = randomTensor(rng, DataType::kInt16, {6, 3});
  HostTensor indices = indexTensor(DataType::kInt32, {2}, {5, -6});
  for (Context* ctx : {validated.get(), plain.get()}) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(*ctx, data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(*ctx, indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, gather(*ctx, data_tensor, index_tensor, 0));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
    EXPECT_EQ(actual.bytes, referenceGather(data, indices, 0).output.bytes);
  }
  EXPECT_EQ(validated->validationMessageCount(), 0u) << validated->firstValidationMessage();
  // Destroying the validated context after an unvalidated one was created used to call a null
  // vkDestroyDebugUtilsMessengerEXT taken from volk's globals.
  validated.reset();
  plain.reset();
}

}  // namespace
}  // namespace vkindex::test
