// GatherElements and GatherND recorded into the application's command buffer (recordGatherElements,
// recordGatherND), on tensors the application owns: views at 4-byte (not 16-byte) aligned offsets of
// one buffer among canary bytes (see embedding_fixture.hpp), between the barriers of ops.hpp's
// contract. Checks the outputs, every canary byte, finish() on a bad index (nothing written), and
// that string tensors are refused for recording.

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

// Both operators recorded into one command buffer, with sub-word outputs (canary bytes share their
// last word) and both index types; then both outputs and every other byte of the buffer are checked.
TEST_F(EmbeddingTest, GatherElementsAndGatherNDRecordedIntoTheApplicationsCommandBuffer) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(41);
  // GatherElements along axis 1, indices wider than data there: output [3, 7] uint8 = 21 bytes.
  const Placed elements_data = place(randomTensor(rng, DataType::kUInt8, {3, 5}));
  const Placed elements_indices = place(randomIndices(rng, DataType::kInt64, {3, 7}, 5));
  const ReferenceResult elements_expected = referenceGatherElements(elements_data.host, elements_indices.host, 1);
  const VkDeviceSize elements_out = reserve(elements_expected.output.bytes.size());
  // GatherND with batch_dims 1 and 1-tuples: output [2, 3, 3] bool = 18 bytes; and a scalar-like int16
  // output (2 bytes) from a rank-1 indices tensor (one whole-element tuple).
  const Placed nd_data = place(randomTensor(rng, DataType::kBool, {2, 4, 3}));
  const Placed nd_indices = place(indexTensor(DataType::kInt32, {2, 3, 1}, {3, -4, 0, -1, 2, 1}));
  const ReferenceResult nd_expected = referenceGatherND(nd_data.host, nd_indices.host, 1);
  const VkDeviceSize nd_out = reserve(nd_expected.output.bytes.size());
  const Placed point_data = place(randomTensor(rng, DataType::kInt16, {3, 4}));
  const Placed point_indices = place(indexTensor(DataType::kInt64, {2}, {-1, 3}));
  const ReferenceResult point_expected = referenceGatherND(point_data.host, point_indices.host, 0);
  const VkDeviceSize point_out = reserve(point_expected.output.bytes.size());
  ASSERT_EQ(point_expected.output.shape, Shape{});
  for (VkDeviceSize offset : {elements_data.offset, elements_indices.offset, elements_out, nd_out, point_out}) {
    EXPECT_EQ(offset % 4, 0u);
    EXPECT_NE(offset % 16, 0u);
  }

  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor ed, view(DataType::kUInt8, {3, 5}, elements_data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor ei, view(DataType::kInt64, {3, 7}, elements_indices.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor eo, view(DataType::kUInt8, {3, 7}, elements_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor nd, view(DataType::kBool, {2, 4, 3}, nd_data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor ni, view(DataType::kInt32, {2, 3, 1}, nd_indices.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor no, view(DataType::kBool, nd_expected.output.shape, nd_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor pd, view(DataType::kInt16, {3, 4}, point_data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor pi, view(DataType::kInt64, {2}, point_indices.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor po, view(DataType::kInt16, {}, point_out));

  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp elements_op, recordGatherElements(*context_, cmd, ed, ei, 1, eo));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp nd_op, recordGatherND(*context_, cmd, nd, ni, 1, no));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp point_op, recordGatherND(*context_, cmd, pd, pi, 0, po));
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  // Recording submits nothing: the outputs still hold the canary.
  EXPECT_TRUE(bufferMatchesImage());
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  for (RecordedOp* op : {&elements_op, &nd_op, &point_op}) VKINDEX_ASSERT_OK(op->finish());
  writeBytes(elements_out, elements_expected.output.bytes);
  writeBytes(nd_out, nd_expected.output.bytes);
  writeBytes(point_out, point_expected.output.bytes);
  EXPECT_TRUE(bufferMatchesImage()) << "an output is wrong, or bytes outside the outputs changed";
}

// A bad index in a recorded op: finish() reports it exactly (twice), the output keeps its canary, and
// a good op recorded next to it in the same command buffer is unaffected.
TEST_F(EmbeddingTest, BadIndexInRecordedGatherElementsAndGatherNDWritesNothing) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(42);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {4, 3}));
  // 2^32 + 1 at [1, 2]: its low word alone (1) would be a valid index.
  const Placed bad_elements = place(indexTensor(DataType::kInt64, {2, 3}, {3, -4, 0, 1, 2, 4294967297LL}));
  const Placed bad_tuples = place(indexTensor(DataType::kInt64, {2, 2}, {3, -3, -4294967295LL, 0}));
  const Placed good_tuples = place(indexTensor(DataType::kInt32, {3, 1}, {3, -4, 1}));
  const VkDeviceSize elements_out = reserve(2 * 3 * 4);
  const VkDeviceSize nd_out = reserve(2 * 4);
  const VkDeviceSize good_out = reserve(3 * 3 * 4);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kFloat32, {4, 3}, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor elements_view, view(DataType::kInt64, {2, 3}, bad_elements.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuples_view, view(DataType::kInt64, {2, 2}, bad_tuples.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_view, view(DataType::kInt32, {3, 1}, good_tuples.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor elements_output, view(DataType::kFloat32, {2, 3}, elements_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor nd_output, view(DataType::kFloat32, {2}, nd_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_output, view(DataType::kFloat32, {3, 3}, good_out));

  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp elements_op,
                               recordGatherElements(*context_, cmd, data_view, elements_view, 0, elements_output));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp nd_op, recordGatherND(*context_, cmd, data_view, tuples_view, 0, nd_output));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp good_op,
                               recordGatherND(*context_, cmd, data_view, good_view, 0, good_output));
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));

  expectFinishFails(
      elements_op, "GatherElements: indices[1, 2] = 4294967297 is out of range for axis 0 of size 4 (allowed [-4, 3])");
  expectFinishFails(
      nd_op,
      "GatherND: indices[1] (component 0) = -4294967295 is out of range for data dim 0 of size 4 (allowed [-4, 3])");
  VKINDEX_ASSERT_OK(good_op.finish());
  const ReferenceResult good = referenceGatherND(data.host, good_tuples.host, 0);
  ASSERT_FALSE(good.bad_index_position.has_value());
  writeBytes(good_out, good.output.bytes);
  EXPECT_TRUE(bufferMatchesImage()) << "a bad op's output was written, or the good output is wrong";
}

// Strings live on the host, so they cannot be recorded into a command buffer.
TEST_F(EmbeddingTest, StringsCannotBeRecorded) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, Tensor::fromStrings(*context_, {2, 2}, {"a", "b", "c", "d"}));
  const HostTensor index_host = indexTensor(DataType::kInt64, {2, 2}, {1, 0, 0, 1});
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(*context_, index_host));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor elements_output, Tensor::fromStrings(*context_, {2, 2}, {"", "", "", ""}));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor nd_output, Tensor::fromStrings(*context_, {2}, {"", ""}));
  VkCommandBuffer cmd = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  // The wording is not agreed; the reason must name strings, as recordGather's does.
  StatusOr<RecordedOp> elements_op = recordGatherElements(*context_, cmd, data, indices, 0, elements_output);
  EXPECT_EQ(elements_op.status().code(), StatusCode::kUnsupported) << elements_op.status().toString();
  EXPECT_NE(elements_op.status().message().find("string"), std::string::npos) << elements_op.status().message();
  StatusOr<RecordedOp> nd_op = recordGatherND(*context_, cmd, data, indices, 0, nd_output);
  EXPECT_EQ(nd_op.status().code(), StatusCode::kUnsupported) << nd_op.status().toString();
  EXPECT_NE(nd_op.status().message().find("string"), std::string::npos) << nd_op.status().message();
  ASSERT_NO_FATAL_FAILURE(end(cmd));
}

}  // namespace
}  // namespace vkindex::test
