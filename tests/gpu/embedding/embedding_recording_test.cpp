// The application owns Vulkan (see embedding_fixture.hpp): Gather recorded into the application's
// command buffers between the contract's barriers, on tensors viewed at unaligned offsets of one
// application buffer among canary bytes: the whole flow, bad indices reported per op, resubmission,
// sub-word rows next to canary bytes, and densely packed neighbouring tensors.

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/embedding/embedding_fixture.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"
#include "vk/vulkan.hpp"

namespace vkindex::test {
namespace {

// The whole flow: adopt, views at unaligned offsets in one application buffer, Gather recorded into the
// application's command buffer between the application's barriers, finish() after the fence.
TEST_F(EmbeddingTest, GatherRecordedIntoTheApplicationsCommandBuffer) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  EXPECT_EQ(context_->pipelineCachePath(), "");
  Rng rng(31);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {7, 5}));
  const Placed indices = place(indexTensor(DataType::kInt64, {2, 3}, {6, -7, 2, 2, -1, 0}));
  const Shape out_shape = outputShape(data, indices, 0);
  ASSERT_EQ(out_shape, (Shape{2, 3, 5}));
  const VkDeviceSize output_offset = reserve(2 * 3 * 5 * 4);
  for (VkDeviceSize offset : {data.offset, indices.offset, output_offset}) {
    EXPECT_EQ(offset % 4, 0u);
    EXPECT_NE(offset % 16, 0u);
  }
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kFloat32, data.host.shape, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_view, view(DataType::kInt64, indices.host.shape, indices.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output_view, view(DataType::kFloat32, out_shape, output_offset));
  EXPECT_TRUE(output_view.isView());
  EXPECT_EQ(output_view.buffer(), buffer_);
  EXPECT_EQ(output_view.offset(), output_offset);

  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp op, recordGather(*context_, cmd, data_view, index_view, 0, output_view));
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  // Recording submits nothing: the output still holds the canary.
  EXPECT_TRUE(bufferMatchesImage());
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  VKINDEX_ASSERT_OK(op.finish());
  VKINDEX_ASSERT_OK(op.finish());  // later calls return the same result
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, indices, 0, output_offset));
  EXPECT_TRUE(bufferMatchesImage());

  // vkindex's own submissions (gather without a command buffer, download) on the adopted queue work
  // on the same views too.
  restoreCanary(output_offset, 2 * 3 * 5 * 4);
  VKINDEX_ASSERT_OK(gather(*context_, data_view, index_view, 0, output_view));
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, indices, 0, output_offset));
  EXPECT_TRUE(bufferMatchesImage());
  VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor downloaded, toHost(output_view));
  EXPECT_TRUE(downloaded.bytes == referenceGather(data.host, indices.host, 0).output.bytes);

  // vkindex never destroys what it adopted: after the Context is gone the application's instance,
  // device, queue and buffer still work.
  context_.reset();
  uint32_t count = 0;
  EXPECT_EQ(vkEnumeratePhysicalDevices(instance_, &count, nullptr), VK_SUCCESS);
  EXPECT_GT(count, 0u);
  VkCommandBuffer fill = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(fill, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  fn_.vkCmdFillBuffer(fill, buffer_, output_offset, 8, 0x01020304u);
  bufferBarrier(fill, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
  ASSERT_NO_FATAL_FAILURE(end(fill));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(fill));
  writeBytes(output_offset, {4, 3, 2, 1, 4, 3, 2, 1});
  EXPECT_TRUE(bufferMatchesImage());
}

TEST_F(EmbeddingTest, BadIndexInARecordedOpIsReportedAndWritesNothing) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(32);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {7, 5}));
  // 2^32 + 1: its low word alone (1) would be a valid index.
  const Placed bad = place(indexTensor(DataType::kInt64, {4}, {3, 4294967297LL, 0, 7}));
  const Placed good = place(indexTensor(DataType::kInt64, {4}, {3, -7, 0, 6}));
  const VkDeviceSize output_offset = reserve(4 * 5 * 4);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kFloat32, {7, 5}, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor bad_view, view(DataType::kInt64, {4}, bad.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_view, view(DataType::kInt64, {4}, good.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output_view, view(DataType::kFloat32, {4, 5}, output_offset));

  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp op, recordGather(*context_, cmd, data_view, bad_view, 0, output_view));
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  const std::string message = "Gather: indices[1] = 4294967297 is out of range for axis 0 of size 7 (allowed [-7, 6])";
  expectFinishFails(op, message);
  EXPECT_TRUE(bufferMatchesImage()) << "the output was written despite the error";

  // The next op, in its own command buffer, is not affected by the earlier failure.
  VkCommandBuffer next = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(next));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp ok_op, recordGather(*context_, next, data_view, good_view, 0, output_view));
  ASSERT_NO_FATAL_FAILURE(endOps(next));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(next));
  VKINDEX_ASSERT_OK(ok_op.finish());
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, good, 0, output_offset));
  EXPECT_TRUE(bufferMatchesImage());
}

TEST_F(EmbeddingTest, OpsInOneCommandBufferReportIndependently) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(33);
  const Placed data = place(randomTensor(rng, DataType::kInt32, {6, 3}));
  const Placed good = place(indexTensor(DataType::kInt32, {3}, {5, -6, 1}));
  const Placed bad = place(indexTensor(DataType::kInt32, {2, 2}, {0, 1, 2, -7}));
  const VkDeviceSize good_out = reserve(3 * 3 * 4);
  const VkDeviceSize bad_out = reserve(2 * 2 * 3 * 4);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kInt32, {6, 3}, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_view, view(DataType::kInt32, {3}, good.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor bad_view, view(DataType::kInt32, {2, 2}, bad.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_output, view(DataType::kInt32, {3, 3}, good_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor bad_output, view(DataType::kInt32, {2, 2, 3}, bad_out));

  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp bad_op, recordGather(*context_, cmd, data_view, bad_view, 0, bad_output));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp good_op, recordGather(*context_, cmd, data_view, good_view, 0, good_output));
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  VKINDEX_ASSERT_OK(good_op.finish());
  Status status = bad_op.finish();
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), "Gather: indices[1, 1] = -7 is out of range for axis 0 of size 6 (allowed [-6, 5])");
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, good, 0, good_out));
  EXPECT_TRUE(bufferMatchesImage()) << "good output wrong, or the bad op's output written";
}

TEST_F(EmbeddingTest, RecordedCommandBufferCanBeSubmittedTwice) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(34);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {7, 5}));
  const Placed indices = place(indexTensor(DataType::kInt64, {5}, {1, -1, 4, 4, -7}));
  const size_t output_bytes = 5 * 5 * 4;
  const VkDeviceSize output_offset = reserve(output_bytes);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kFloat32, {7, 5}, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_view, view(DataType::kInt64, {5}, indices.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output_view, view(DataType::kFloat32, {5, 5}, output_offset));

  VkCommandBuffer cmd = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(cmd, 0));  // not one-time-submit
  barrierBeforeOps(cmd);
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp op, recordGather(*context_, cmd, data_view, index_view, 0, output_view));
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));

  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, indices, 0, output_offset));
  EXPECT_TRUE(bufferMatchesImage()) << "after the first submission";

  // Back to the canary, so the second submission must write the output again.
  restoreCanary(output_offset, output_bytes);
  ASSERT_TRUE(bufferMatchesImage());
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  VKINDEX_ASSERT_OK(op.finish());
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, indices, 0, output_offset));
  EXPECT_TRUE(bufferMatchesImage()) << "after the second submission";
}

// Sub-word rows: the output's last 32-bit word is shared with canary bytes, which must survive (the
// kernels write whole words or use atomics on the output's own bytes).
TEST_F(EmbeddingTest, SubWordRowsPreserveCanaryBytesInTheLastWord) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  ASSERT_NO_FATAL_FAILURE(gatherInOneCommandBuffer(subWordCases()));
}

// The same ops with their tensors packed densely: each op's inputs start a few bytes after the previous
// op's output, inside the same binding-alignment block, and no barrier separates the ops (none is
// needed: no op reads what another writes). Synchronization validation is off here because it treats
// every bound range as accessed: vkindex binds each tensor from the aligned offset below it, so on a
// device with 256-byte alignment (SwiftShader) it reports READ_AFTER_WRITE hazards between the
// previous op's output and this op's binding although no byte is accessed by both. Core validation
// stays on, and every canary byte between the tensors is checked.
class DenselyPackedEmbeddingTest : public EmbeddingTest {
 protected:
  DenselyPackedEmbeddingTest() {
    dense_ = true;
    sync_validation_ = false;
  }
};

TEST_F(DenselyPackedEmbeddingTest, OpsOnNeighbouringTensorsInOneCommandBuffer) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  std::vector<GatherCase> cases = subWordCases();
  Rng rng(36);
  cases.push_back({randomTensor(rng, DataType::kFloat32, {7, 5}), indexTensor(DataType::kInt64, {3}, {6, -7, 1}), 0});
  cases.push_back({randomTensor(rng, DataType::kInt16, {3, 5}), indexTensor(DataType::kInt32, {2}, {-1, 3}), 1});
  ASSERT_NO_FATAL_FAILURE(gatherInOneCommandBuffer(cases));
  // All of it within a few 256-byte blocks.
  EXPECT_LT(next_, 1024u);
}

}  // namespace
}  // namespace vkindex::test
