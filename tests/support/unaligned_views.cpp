#include "support/unaligned_views.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"

namespace vkindex::test {

void expectOutputThroughUnalignedViews(Context& context, const HostTensor& data, const HostTensor& indices,
                                       const HostTensor& expected_output, const ViewOp& op) {
  constexpr uint64_t kArenaBytes = 8192, kDataOffset = 36, kIndexOffset = 1028, kOutputOffset = 2052;
  ASSERT_LE(data.bytes.size(), kIndexOffset - kDataOffset);
  ASSERT_LE(indices.bytes.size(), kOutputOffset - kIndexOffset);
  ASSERT_LE(expected_output.bytes.size() + 4, kArenaBytes - kOutputOffset);
  Rng rng(kArenaBytes);
  HostTensor arena_host = randomTensor(rng, DataType::kUInt8, {static_cast<int64_t>(kArenaBytes)});
  std::copy(data.bytes.begin(), data.bytes.end(), arena_host.bytes.begin() + kDataOffset);
  std::copy(indices.bytes.begin(), indices.bytes.end(), arena_host.bytes.begin() + kIndexOffset);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor arena, toDevice(context, arena_host));

  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view,
                               Tensor::view(context, data.dtype, data.shape, arena.buffer(), kDataOffset, kArenaBytes));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_view, Tensor::view(context, indices.dtype, indices.shape, arena.buffer(),
                                                               kIndexOffset, kArenaBytes));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output_view, Tensor::view(context, expected_output.dtype, expected_output.shape,
                                                                arena.buffer(), kOutputOffset, kArenaBytes));
  VKINDEX_ASSERT_OK(op(data_view, index_view, output_view));

  std::copy(expected_output.bytes.begin(), expected_output.bytes.end(), arena_host.bytes.begin() + kOutputOffset);
  VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor after, toHost(arena));
  EXPECT_TRUE(after.bytes == arena_host.bytes) << "output wrong, or bytes outside the output changed";
}

}  // namespace vkindex::test
