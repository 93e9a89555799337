// StatusBatch (include/vkindex/status_batch.hpp), with the application owning Vulkan and running
// synchronization validation (embedding_fixture.hpp): many operations recorded into one command buffer
// with no status barrier of their own and one at the batch's end. Each reports its own result, a bad
// index in one writes nothing and disturbs no other, single-dispatch and multi-pass plans mix, and the
// misuses (no end(), two batches on one command buffer, end() twice) get precise errors. Skip-policy
// operations, which check nothing on the device, share the status board's clean slot.

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/embedding/embedding_fixture.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"
#include "vkindex/status_batch.hpp"

namespace vkindex::test {
namespace {

// One recorded Gather of the batch: its indices and where its output goes.
struct BatchedGather {
  Placed indices;
  VkDeviceSize output_offset = 0;
  Tensor index_view, output_view;
  RecordedOp op;
};

TEST_F(EmbeddingTest, BatchedOpsReportEachAndWriteOnlyTheGoodOnes) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(71);
  constexpr int64_t kRows = 64, kWidth = 8;
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {kRows, kWidth}));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kFloat32, {kRows, kWidth}, data.offset));
  // 40 one-row lookups (single-dispatch plans), every fifth with int32 indices; op 17's index is bad; op 30
  // gathers 20 rows (past the single-dispatch bound: check, report and copy passes).
  constexpr int kOps = 40, kBad = 17, kLong = 30;
  std::vector<BatchedGather> gathers(kOps);
  for (int i = 0; i < kOps; ++i) {
    BatchedGather& g = gathers[static_cast<size_t>(i)];
    const DataType index_type = i % 5 == 0 ? DataType::kInt32 : DataType::kInt64;
    const int64_t count = i == kLong ? 20 : 1;
    std::vector<int64_t> values;
    for (int64_t n = 0; n < count; ++n) values.push_back((i * 7 + n * 3) % kRows - (n % 2 ? kRows : 0));
    if (i == kBad) values = {kRows};
    g.indices = place(indexTensor(index_type, {count}, values));
    g.output_offset = reserve(static_cast<size_t>(count * kWidth * 4));
    VKINDEX_ASSERT_OK_AND_ASSIGN(g.index_view, view(index_type, {count}, g.indices.offset));
    VKINDEX_ASSERT_OK_AND_ASSIGN(g.output_view, view(DataType::kFloat32, {count, kWidth}, g.output_offset));
  }

  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  VKINDEX_ASSERT_OK_AND_ASSIGN(StatusBatch batch, StatusBatch::begin(*context_, cmd));
  for (BatchedGather& g : gathers) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(g.op, recordGather(*context_, cmd, data_view, g.index_view, 0, g.output_view));
  }
  VKINDEX_ASSERT_OK(batch.end());
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  for (int i = 0; i < kOps; ++i) {
    BatchedGather& g = gathers[static_cast<size_t>(i)];
    SCOPED_TRACE("op " + std::to_string(i));
    if (i == kBad) {
      expectFinishFails(g.op, "Gather: indices[0] = 64 is out of range for axis 0 of size 64 (allowed [-64, 63])");
      continue;
    }
    VKINDEX_ASSERT_OK(g.op.finish());
    ASSERT_NO_FATAL_FAILURE(expectOutput(data, g.indices, 0, g.output_offset));
  }
  // Every output but the bad op's written, and nothing else: its region still holds the canary.
  EXPECT_TRUE(bufferMatchesImage());
}

// Operations under the skip policy check nothing on the device, so they take no status slot: their
// gates read the status board's clean slot, shared by all of them, with no reset and no barrier between
// them (plan::writesStatusSlot). 30 in one command buffer, half in a StatusBatch beside error-policy
// lookups, one-row and 20-row gathers with indices out of range (zero rows): synchronization validation
// reports no hazard on the shared slot, every op finishes ok, and each output holds its rows.
TEST_F(EmbeddingTest, SkipPolicyOpsShareTheCleanStatusSlot) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(72);
  constexpr int64_t kRows = 64, kWidth = 8;
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {kRows, kWidth}));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kFloat32, {kRows, kWidth}, data.offset));
  constexpr int kOps = 30, kLong = 7;
  std::vector<BatchedGather> gathers(kOps);
  for (int i = 0; i < kOps; ++i) {
    BatchedGather& g = gathers[static_cast<size_t>(i)];
    const int64_t count = i % kLong == 0 ? 20 : 1;
    std::vector<int64_t> values;
    // Every third op's first index is out of range ([0, 63] is; -1 and 64 + i are skipped).
    for (int64_t n = 0; n < count; ++n) values.push_back((i * 5 + n * 3) % kRows);
    if (i % 3 == 0) values[0] = i % 2 == 0 ? -1 : kRows + i;
    g.indices = place(indexTensor(DataType::kInt64, {count}, values));
    g.output_offset = reserve(static_cast<size_t>(count * kWidth * 4));
    VKINDEX_ASSERT_OK_AND_ASSIGN(g.index_view, view(DataType::kInt64, {count}, g.indices.offset));
    VKINDEX_ASSERT_OK_AND_ASSIGN(g.output_view, view(DataType::kFloat32, {count, kWidth}, g.output_offset));
  }

  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  for (int i = 0; i < kOps / 2; ++i) {
    BatchedGather& g = gathers[static_cast<size_t>(i)];
    VKINDEX_ASSERT_OK_AND_ASSIGN(
        g.op, recordGather(*context_, cmd, data_view, g.index_view, 0, g.output_view, IndexPolicy::kSkip));
  }
  VKINDEX_ASSERT_OK_AND_ASSIGN(StatusBatch batch, StatusBatch::begin(*context_, cmd));
  for (int i = kOps / 2; i < kOps; ++i) {
    BatchedGather& g = gathers[static_cast<size_t>(i)];
    const IndexPolicy policy = i % 3 == 0 ? IndexPolicy::kSkip : IndexPolicy::kError;
    VKINDEX_ASSERT_OK_AND_ASSIGN(g.op, recordGather(*context_, cmd, data_view, g.index_view, 0, g.output_view, policy));
  }
  VKINDEX_ASSERT_OK(batch.end());
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  for (int i = 0; i < kOps; ++i) {
    BatchedGather& g = gathers[static_cast<size_t>(i)];
    SCOPED_TRACE("op " + std::to_string(i));
    VKINDEX_ASSERT_OK(g.op.finish());
    const ReferenceResult expected = referenceGather(data.host, g.indices.host, 0, IndexPolicy::kSkip);
    writeBytes(g.output_offset, expected.output.bytes);
  }
  EXPECT_TRUE(bufferMatchesImage());
}

TEST_F(EmbeddingTest, OpsOfABatchClosedWithoutEndDoNotFinish) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(72);
  const Placed data = place(randomTensor(rng, DataType::kInt32, {6, 3}));
  const Placed indices = place(indexTensor(DataType::kInt64, {1}, {4}));
  const VkDeviceSize first_out = reserve(3 * 4), second_out = reserve(3 * 4);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kInt32, {6, 3}, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_view, view(DataType::kInt64, {1}, indices.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor first_output, view(DataType::kInt32, {1, 3}, first_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor second_output, view(DataType::kInt32, {1, 3}, second_out));

  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  RecordedOp in_batch, after_batch;
  {
    VKINDEX_ASSERT_OK_AND_ASSIGN(StatusBatch batch, StatusBatch::begin(*context_, cmd));
    VKINDEX_ASSERT_OK_AND_ASSIGN(in_batch, recordGather(*context_, cmd, data_view, index_view, 0, first_output));
  }  // destroyed without end()
  // The command buffer is out of the batch again: this op records its own barrier.
  VKINDEX_ASSERT_OK_AND_ASSIGN(after_batch, recordGather(*context_, cmd, data_view, index_view, 0, second_output));
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  const Status status = in_batch.finish();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "RecordedOp::finish: the operation was recorded in a StatusBatch closed without end(), so its status "
            "was never made visible to the host (call StatusBatch::end() after the batch's last operation)");
  VKINDEX_ASSERT_OK(after_batch.finish());
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, indices, 0, first_out));
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, indices, 0, second_out));
  EXPECT_TRUE(bufferMatchesImage());
}

TEST_F(EmbeddingTest, OneOpenBatchPerCommandBufferAndOneEnd) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  VkCommandBuffer cmd = VK_NULL_HANDLE, other = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  ASSERT_NO_FATAL_FAILURE(beginOps(other));
  VKINDEX_ASSERT_OK_AND_ASSIGN(StatusBatch batch, StatusBatch::begin(*context_, cmd));
  StatusOr<StatusBatch> second = StatusBatch::begin(*context_, cmd);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(second.status().message(),
            "StatusBatch::begin: a StatusBatch is already open on this command buffer (end it first)");
  VKINDEX_ASSERT_OK_AND_ASSIGN(StatusBatch on_other, StatusBatch::begin(*context_, other));
  StatusOr<StatusBatch> null_buffer = StatusBatch::begin(*context_, VK_NULL_HANDLE);
  ASSERT_FALSE(null_buffer.ok());
  EXPECT_EQ(null_buffer.status().message(), "StatusBatch::begin: command_buffer is null");
  VKINDEX_ASSERT_OK(batch.end());
  const Status again = batch.end();
  EXPECT_EQ(again.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(again.message(), "StatusBatch::end: the batch is not open (never begun, or already ended)");
  EXPECT_EQ(StatusBatch().end().message(), again.message());
  // Ended, the command buffer takes a new batch.
  VKINDEX_ASSERT_OK_AND_ASSIGN(StatusBatch next, StatusBatch::begin(*context_, cmd));
  VKINDEX_ASSERT_OK(next.end());
  VKINDEX_ASSERT_OK(on_other.end());
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(endOps(other));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(other));
}

}  // namespace
}  // namespace vkindex::test
