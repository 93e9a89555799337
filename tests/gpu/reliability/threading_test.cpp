// The thread-safety promises of include/vkindex/context.hpp: separate Contexts on separate threads,
// one Context shared under a lock, and concurrent recording into separate command buffers.
#include <mutex>
#include <thread>

#include "core/context_impl.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

constexpr int kThreads = 3;
constexpr int kRounds = 12;

// One random gather on `ctx`, checked against the reference; returns a description of any failure.
std::string gatherOnce(Context& ctx, Rng& rng) {
  HostTensor data = randomTensor(rng, DataType::kFloat32, {17, 5});
  HostTensor indices = randomIndices(rng, DataType::kInt64, {9}, 17);
  StatusOr<Tensor> data_tensor = toDevice(ctx, data);
  StatusOr<Tensor> index_tensor = toDevice(ctx, indices);
  if (!data_tensor.ok() || !index_tensor.ok()) return "upload failed";
  StatusOr<Tensor> output = gather(ctx, *data_tensor, *index_tensor, 0);
  if (!output.ok()) return output.status().toString();
  StatusOr<HostTensor> actual = toHost(*output);
  if (!actual.ok()) return actual.status().toString();
  return actual->bytes == referenceGather(data, indices, 0).output.bytes ? "" : "wrong output bytes";
}

class ThreadingTest : public GpuTest {};

TEST_F(ThreadingTest, SeparateContextsOnSeparateThreads) {
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      StatusOr<std::unique_ptr<Context>> ctx = makeContext({});  // created concurrently, too
      if (!ctx.ok()) {
        failures[t] = ctx.status().toString();
        return;
      }
      Rng rng(100 + t);
      for (int round = 0; round < kRounds && failures[t].empty(); ++round) failures[t] = gatherOnce(**ctx, rng);
      if (failures[t].empty() && (*ctx)->validationMessageCount() != 0) failures[t] = (*ctx)->firstValidationMessage();
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

TEST_F(ThreadingTest, OneContextSharedUnderALock) {
  std::mutex lock;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Rng rng(200 + t);
      for (int round = 0; round < kRounds && failures[t].empty(); ++round) {
        std::lock_guard<std::mutex> guard(lock);
        failures[t] = gatherOnce(context(), rng);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

// Each thread records gathers into its own command buffer concurrently; only submission is locked.
TEST_F(ThreadingTest, ConcurrentRecordingIntoSeparateCommandBuffers) {
  const vk::Device& device = *implOf(context()).device;
  const VolkDeviceTable& fn = device.fn();
  std::mutex queue_lock;
  std::vector<std::string> failures(kThreads);
  // Inputs are uploaded up front (uploads submit, so they belong to one thread at a time).
  struct Work {
    HostTensor data, indices;
    Tensor data_tensor, index_tensor, output;
  };
  std::vector<std::vector<Work>> work(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    Rng rng(300 + t);
    for (int round = 0; round < kRounds; ++round) {
      Work w;
      w.data = randomTensor(rng, DataType::kUInt8, {13, 7});
      w.indices = randomIndices(rng, DataType::kInt32, {5}, 13);
      VKINDEX_ASSERT_OK_AND_ASSIGN(w.data_tensor, toDevice(context(), w.data));
      VKINDEX_ASSERT_OK_AND_ASSIGN(w.index_tensor, toDevice(context(), w.indices));
      VKINDEX_ASSERT_OK_AND_ASSIGN(w.output, Tensor::create(context(), DataType::kUInt8, {5, 7}));
      work[t].push_back(std::move(w));
    }
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      pool_info.queueFamilyIndex = device.queueFamily();
      VkCommandPool pool = VK_NULL_HANDLE;
      VkFence fence = VK_NULL_HANDLE;
      VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      if (fn.vkCreateCommandPool(device.handle(), &pool_info, nullptr, &pool) != VK_SUCCESS ||
          fn.vkCreateFence(device.handle(), &fence_info, nullptr, &fence) != VK_SUCCESS) {
        failures[t] = "could not create a command pool and fence";
        return;
      }
      VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      allocate.commandPool = pool;
      allocate.commandBufferCount = 1;
      VkCommandBuffer cmd = VK_NULL_HANDLE;
      fn.vkAllocateCommandBuffers(device.handle(), &allocate, &cmd);
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      fn.vkBeginCommandBuffer(cmd, &begin);
      // The uploads finished before the threads started; make them visible to the shaders.
      VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
      fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier,
                              0, nullptr, 0, nullptr);
      std::vector<RecordedOp> ops;
      for (Work& w : work[t]) {
        StatusOr<RecordedOp> op = recordGather(context(), cmd, w.data_tensor, w.index_tensor, 0, w.output);
        if (!op.ok()) {
          failures[t] = op.status().toString();
          break;
        }
        ops.push_back(std::move(op).value());
      }
      fn.vkEndCommandBuffer(cmd);
      if (failures[t].empty()) {
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        {
          std::lock_guard<std::mutex> guard(queue_lock);
          fn.vkQueueSubmit(device.queue(), 1, &submit, fence);
        }
        fn.vkWaitForFences(device.handle(), 1, &fence, VK_TRUE, UINT64_MAX);
        for (RecordedOp& op : ops) {
          Status status = op.finish();
          if (!status.ok() && failures[t].empty()) failures[t] = status.toString();
        }
      }
      fn.vkDestroyFence(device.handle(), fence, nullptr);
      fn.vkDestroyCommandPool(device.handle(), pool, nullptr);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(failures[t], "") << "thread " << t;
    for (const Work& w : work[t]) {
      VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(w.output));
      EXPECT_EQ(actual.bytes, referenceGather(w.data, w.indices, 0).output.bytes) << "thread " << t;
    }
  }
}

}  // namespace
}  // namespace vkindex::test
