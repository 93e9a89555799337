// The scratch cache (src/vk/scratch_cache): which buffer a context keeps between operations, and that
// operations which reuse it still get every byte right.
#include <memory>

#include "core/context_impl.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"
#include "vk/scratch_cache.hpp"

namespace vkindex::test {
namespace {

class ScratchCacheTest : public GpuTest {};

TEST_F(ScratchCacheTest, KeepsOneBufferAndReusesItForCallsOfSimilarSize) {
  vk::ScratchCache cache(*implOf(context()).device);
  EXPECT_EQ(cache.keptBytes(), 0u);
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<vk::Buffer> first, cache.acquire(1000));
  const VkBuffer handle = first->handle();
  cache.release(std::move(first));
  EXPECT_EQ(cache.keptBytes(), 1008u) << "rounded up to 16 bytes";
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<vk::Buffer> again, cache.acquire(800));
  EXPECT_EQ(again->handle(), handle) << "large enough, and at most twice as large";
  EXPECT_EQ(cache.keptBytes(), 0u) << "handed out";
  // A larger call gets a new buffer, which then replaces the kept one.
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<vk::Buffer> larger, cache.acquire(4000));
  cache.release(std::move(again));
  cache.release(std::move(larger));
  EXPECT_EQ(cache.keptBytes(), 4000u);
  // A call of less than half the kept size does not pin it.
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<vk::Buffer> small, cache.acquire(1000));
  EXPECT_EQ(small->size(), 1008u);
  EXPECT_EQ(cache.keptBytes(), 4000u);
  // Buffers above kMaxKeptBytes are freed, not kept.
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<vk::Buffer> huge, cache.acquire(vk::ScratchCache::kMaxKeptBytes + 16));
  cache.release(std::move(huge));
  EXPECT_EQ(cache.keptBytes(), 4000u);
}

// Reductions through the fold by owner, one after another on one context: each reuses the scratch
// the one before left (whose words are garbage to it), and every result is the reference's. int32
// mul: add, max and min of int32 go through atomics, with no scratch.
TEST_F(ScratchCacheTest, CallsReusingScratchMatchTheReference) {
  ContextOptions never_walks;
  never_walks.overrides.min_walk_lines = UINT64_MAX;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> fold, makeContext(never_walks));
  Rng rng(0x5c4a);
  for (int call = 0; call < 6; ++call) {
    const int64_t targets = call % 2 ? 50 : 7, count = 300 + call * 50;
    const HostTensor data = randomTensor(rng, DataType::kInt32, {targets});
    const HostTensor indices = randomIndices(rng, DataType::kInt64, {count}, targets);
    const HostTensor updates = randomTensor(rng, DataType::kInt32, {count});
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(*fold, data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(*fold, indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor update_tensor, toDevice(*fold, updates));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output,
                                 scatterElements(*fold, data_tensor, index_tensor, update_tensor, 0, Reduction::kMul));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
    EXPECT_EQ(actual.bytes, referenceScatterElements(data, indices, updates, 0, Reduction::kMul).output.bytes)
        << "call " << call;
    EXPECT_GT(implOf(*fold).scratch->keptBytes(), 0u) << "the call's scratch is kept for the next";
  }
  EXPECT_EQ(fold->validationMessageCount(), 0u) << fold->firstValidationMessage();
}

}  // namespace
}  // namespace vkindex::test
