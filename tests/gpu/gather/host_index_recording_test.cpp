// The recorded host-index forms in the application's command buffer (the embedding fixture: adopted
// device, views at 4-byte offsets among canary bytes, core and synchronization validation): both paths
// and GatherND, sub-word outputs included, then every byte of the buffer is checked. The values are
// overwritten after recording, since the kernel path must have copied them into the command buffer.
#include <numeric>

#include "gpu/embedding/embedding_fixture.hpp"
#include "ops/host_index_gather.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

TEST_F(EmbeddingTest, HostIndexFormsRecordedIntoTheApplicationsCommandBuffer) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(43);
  // Rows of 64 bytes (copy regions, forced), rows of 3 bytes (kernel, forced), and GatherND over rows
  // (planner's choice) with batch_dims 1.
  const Placed wide = place(randomTensor(rng, DataType::kFloat32, {50, 16}));
  const Placed narrow = place(randomTensor(rng, DataType::kUInt8, {9, 3}));
  const Placed batched = place(randomTensor(rng, DataType::kInt16, {2, 5, 7}));
  HostTensor wide_ids = indexTensor(DataType::kInt64, {6}, {4, 5, 6, 7, -1, 4});
  HostTensor narrow_ids = indexTensor(DataType::kInt32, {5}, {8, -9, 3, 3, 0});  // 15 bytes out
  HostTensor tuples = indexTensor(DataType::kInt32, {2, 3, 1}, {4, 0, -1, 1, 2, 3});
  const ReferenceResult wide_expected = referenceGather(wide.host, wide_ids, 0);
  const ReferenceResult narrow_expected = referenceGather(narrow.host, narrow_ids, 0);
  const ReferenceResult batched_expected = referenceGatherND(batched.host, tuples, 1);
  const VkDeviceSize wide_out = reserve(wide_expected.output.bytes.size());
  const VkDeviceSize narrow_out = reserve(narrow_expected.output.bytes.size());
  const VkDeviceSize batched_out = reserve(batched_expected.output.bytes.size());

  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor wd, view(DataType::kFloat32, {50, 16}, wide.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor wo, view(DataType::kFloat32, wide_expected.output.shape, wide_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor nd, view(DataType::kUInt8, {9, 3}, narrow.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor no, view(DataType::kUInt8, narrow_expected.output.shape, narrow_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor bd, view(DataType::kInt16, {2, 5, 7}, batched.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor bo, view(DataType::kInt16, batched_expected.output.shape, batched_out));

  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  const auto host = [](const HostTensor& t) { return HostIndices{t.dtype, t.shape, t.bytes.data()}; };
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp wide_op,
                               internal::recordGatherWithHostIndices(*context_, cmd, wd, host(wide_ids), 0, wo,
                                                                     plan::HostIndexPath::kCopyRegions));
  VKINDEX_ASSERT_OK_AND_ASSIGN(
      RecordedOp narrow_op,
      internal::recordGatherWithHostIndices(*context_, cmd, nd, host(narrow_ids), 0, no, plan::HostIndexPath::kKernel));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp batched_op, recordGatherND(*context_, cmd, bd, host(tuples), 1, bo));
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  // Recording submits nothing, and the values are the command buffer's own now.
  EXPECT_TRUE(bufferMatchesImage());
  for (HostTensor* ids : {&wide_ids, &narrow_ids, &tuples}) std::fill(ids->bytes.begin(), ids->bytes.end(), 0xFF);
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  VKINDEX_ASSERT_OK(wide_op.finish());
  VKINDEX_ASSERT_OK(narrow_op.finish());
  VKINDEX_ASSERT_OK(batched_op.finish());
  writeBytes(wide_out, wide_expected.output.bytes);
  writeBytes(narrow_out, narrow_expected.output.bytes);
  writeBytes(batched_out, batched_expected.output.bytes);
  EXPECT_TRUE(bufferMatchesImage());
}

// A bad host index fails the record call itself: nothing is recorded, so the command buffer runs
// without touching the output.
TEST_F(EmbeddingTest, BadHostIndexRecordsNothing) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(44);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {8, 4}));
  const HostTensor ids = indexTensor(DataType::kInt64, {3}, {1, 8, 2});
  const VkDeviceSize out = reserve(3 * 4 * 4);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor d, view(DataType::kFloat32, {8, 4}, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor o, view(DataType::kFloat32, {3, 4}, out));
  VkCommandBuffer cmd = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  StatusOr<RecordedOp> op = recordGather(*context_, cmd, d, HostIndices{ids.dtype, ids.shape, ids.bytes.data()}, 0, o);
  ASSERT_FALSE(op.ok());
  EXPECT_EQ(op.status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(op.status().message(), "Gather: indices[1] = 8 is out of range for axis 0 of size 8 (allowed [-8, 7])");
  ASSERT_NO_FATAL_FAILURE(end(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  EXPECT_TRUE(bufferMatchesImage());
}

}  // namespace
}  // namespace vkindex::test
