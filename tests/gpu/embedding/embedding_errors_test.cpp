// The application owns Vulkan (see embedding_fixture.hpp): misuse is refused without side effects:
// malformed recordings record nothing, pending recorded ops are bounded (and their slots come back),
// and Context::adopt rejects missing handles, queue families without compute and foreign devices.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/context_impl.hpp"
#include "gpu/embedding/embedding_fixture.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "vk/vulkan.hpp"

namespace vkindex::test {
namespace {

TEST_F(EmbeddingTest, MalformedRecordingsRecordNothing) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(39);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {7, 5}));
  const Placed indices = place(indexTensor(DataType::kInt64, {3}, {0, 1, 2}));
  const VkDeviceSize output_offset = reserve(3 * 5 * 4);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kFloat32, {7, 5}, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_view, view(DataType::kInt64, {3}, indices.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output_view, view(DataType::kFloat32, {3, 5}, output_offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor wrong_shape, view(DataType::kFloat32, {5, 3}, output_offset));

  StatusOr<RecordedOp> no_buffer = recordGather(*context_, VK_NULL_HANDLE, data_view, index_view, 0, output_view);
  ASSERT_FALSE(no_buffer.ok());
  EXPECT_EQ(no_buffer.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(no_buffer.status().message(), "recordGather: the VkCommandBuffer is null");

  // Host-side errors leave the application's command buffer as it was: submitted, it changes nothing.
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  StatusOr<RecordedOp> bad_shape = recordGather(*context_, cmd, data_view, index_view, 0, wrong_shape);
  ASSERT_FALSE(bad_shape.ok());
  EXPECT_EQ(bad_shape.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad_shape.status().message(), "Gather: the output has shape [5, 3], expected [3, 5]");
  StatusOr<RecordedOp> bad_axis = recordGather(*context_, cmd, data_view, index_view, 2, output_view);
  ASSERT_FALSE(bad_axis.ok());
  EXPECT_EQ(bad_axis.status().code(), StatusCode::kInvalidArgument);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor strings, Tensor::fromStrings(*context_, {1}, {"a"}));
  StatusOr<RecordedOp> string_op = recordGather(*context_, cmd, strings, index_view, 0, output_view);
  ASSERT_FALSE(string_op.ok());
  EXPECT_EQ(string_op.status().code(), StatusCode::kUnsupported);
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  EXPECT_TRUE(bufferMatchesImage());

  // A RecordedOp that was never recorded has nothing to finish.
  RecordedOp never;
  Status status = never.finish();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "RecordedOp::finish: this operation was never recorded");
}

// Each pending op holds a status slot until finish() (or destruction); running out is an error with a
// way out, and slots come back.
TEST_F(EmbeddingTest, PendingRecordedOpsAreBoundedAndReleased) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(40);
  const Placed data = place(randomTensor(rng, DataType::kInt32, {4, 2}));
  const Placed indices = place(indexTensor(DataType::kInt32, {1}, {3}));
  const VkDeviceSize output_offset = reserve(2 * 4);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kInt32, {4, 2}, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_view, view(DataType::kInt32, {1}, indices.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output_view, view(DataType::kInt32, {1, 2}, output_offset));
  std::vector<RecordedOp> pending;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  Status exhausted;
  while (pending.size() < 5000) {
    // Every op writes the same output: order the writes as the contract asks.
    if (!pending.empty()) barrierBeforeOps(cmd);
    StatusOr<RecordedOp> op = recordGather(*context_, cmd, data_view, index_view, 0, output_view);
    if (!op.ok()) {
      exhausted = op.status();
      break;
    }
    pending.push_back(std::move(op).value());
  }
  EXPECT_EQ(pending.size(), 1024u);
  EXPECT_EQ(exhausted.code(), StatusCode::kUnsupported);
  EXPECT_EQ(exhausted.message(), "more than 1024 recorded operations are pending: call finish() on completed ones");
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, indices, 0, output_offset));
  EXPECT_TRUE(bufferMatchesImage());
  // finish() releases a slot: one more op can be recorded.
  VKINDEX_ASSERT_OK(pending.back().finish());
  VkCommandBuffer next = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(next, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp one_more,
                               recordGather(*context_, next, data_view, index_view, 0, output_view));
  StatusOr<RecordedOp> too_many = recordGather(*context_, next, data_view, index_view, 0, output_view);
  EXPECT_FALSE(too_many.ok());
  ASSERT_NO_FATAL_FAILURE(end(next));
  fn_.vkFreeCommandBuffers(device_, pool_, 1, &next);  // never submitted
  // Destroying finished or unsubmitted ops releases their slots too.
  for (RecordedOp& op : pending) VKINDEX_ASSERT_OK(op.finish());
  pending.clear();
  one_more = RecordedOp();
  for (int i = 0; i < 1024; ++i) {
    VkCommandBuffer again = newCommandBuffer();
    ASSERT_NO_FATAL_FAILURE(begin(again, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
    StatusOr<RecordedOp> op = recordGather(*context_, again, data_view, index_view, 0, output_view);
    ASSERT_TRUE(op.ok()) << "op " << i << ": " << op.status().toString();
    pending.push_back(std::move(op).value());
    ASSERT_NO_FATAL_FAILURE(end(again));
    fn_.vkFreeCommandBuffers(device_, pool_, 1, &again);
  }
}

TEST_F(EmbeddingTest, AdoptRejectsMissingHandlesAndQueueFamiliesWithoutCompute) {
  const auto expectInvalid = [](const ExternalVulkan& external, const std::string& message) {
    ContextOptions options;
    options.pipeline_cache_dir = "";
    StatusOr<std::unique_ptr<Context>> adopted = Context::adopt(external, options);
    ASSERT_FALSE(adopted.ok());
    EXPECT_EQ(adopted.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(adopted.status().message(), message);
  };
  const std::string null_handles = "Context::adopt: the VkPhysicalDevice, VkDevice and VkQueue must not be null";
  ExternalVulkan no_instance = external();
  no_instance.instance = VK_NULL_HANDLE;
  expectInvalid(no_instance, "Context::adopt: the VkInstance is null");
  ExternalVulkan no_device = external();
  no_device.device = VK_NULL_HANDLE;
  expectInvalid(no_device, null_handles);
  ExternalVulkan no_physical = external();
  no_physical.physical_device = VK_NULL_HANDLE;
  expectInvalid(no_physical, null_handles);
  ExternalVulkan no_queue = external();
  no_queue.queue = VK_NULL_HANDLE;
  expectInvalid(no_queue, null_handles);

  // A queue family without compute: a real one where the device has one, and always the index one past
  // the last family (which has no queues at all). SwiftShader and lavapipe have only one family.
  std::vector<uint32_t> without_compute;
  for (uint32_t i = 0; i < families_.size(); ++i) {
    if (!(families_[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) without_compute.push_back(i);
  }
  without_compute.push_back(static_cast<uint32_t>(families_.size()));
  for (uint32_t family : without_compute) {
    ExternalVulkan wrong_family = external();
    wrong_family.queue_family = family;
    expectInvalid(wrong_family, "Context::adopt: queue family " + std::to_string(family) + " does not support compute");
  }

  // A physical device of another instance (the fixture's context's).
  ExternalVulkan foreign = external();
  foreign.physical_device = implOf(context()).device->physical();
  ASSERT_NE(foreign.physical_device, physical_);
  expectInvalid(foreign, "Context::adopt: the VkPhysicalDevice does not belong to the VkInstance");

  // And the valid handles are accepted (so the failures above are down to the one bad field).
  ASSERT_NO_FATAL_FAILURE(adopt());
}

}  // namespace
}  // namespace vkindex::test
