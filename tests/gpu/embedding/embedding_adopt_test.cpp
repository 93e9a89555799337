// The application owns Vulkan (see embedding_fixture.hpp): what Context::adopt needs of the
// application's instance (its API version), and that the application's own messenger hears what
// vkindex does on the adopted device.

#include <memory>
#include <string>

#include "core/context_impl.hpp"
#include "gpu/embedding/embedding_fixture.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"
#include "vk/vulkan.hpp"

namespace vkindex::test {
namespace {

// vkindex uses Vulkan 1.1 and cannot read the instance's API version from the handles, so the
// application states it; adopting a 1.0 instance is refused instead of followed by invalid usage.
class Vulkan10EmbeddingTest : public EmbeddingTest {
 protected:
  Vulkan10EmbeddingTest() { api_version_ = VK_API_VERSION_1_0; }
};

TEST_F(Vulkan10EmbeddingTest, AdoptingAVulkan10InstanceIsRefused) {
  ContextOptions options;
  options.pipeline_cache_dir = "";
  StatusOr<std::unique_ptr<Context>> adopted = Context::adopt(external(), options);
  ASSERT_FALSE(adopted.ok());
  EXPECT_EQ(adopted.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(adopted.status().message(),
            "Context::adopt: vkindex needs an instance created for Vulkan 1.1 or later; ExternalVulkan::api_version "
            "is 1.0.0 (set it to the VkApplicationInfo::apiVersion the instance was created with)");
  EXPECT_EQ(log_.count, 0u) << log_.first;
}

TEST_F(EmbeddingTest, AdoptWithoutAnApiVersionIsRefused) {
  ExternalVulkan unversioned = external();
  unversioned.api_version = 0;
  StatusOr<std::unique_ptr<Context>> adopted = Context::adopt(unversioned, {});
  ASSERT_FALSE(adopted.ok());
  EXPECT_EQ(adopted.status().code(), StatusCode::kUnsupported);
}

// The device's float adder for float32 add (Tuning::native_float32_add) needs float controls,
// whose extension vkindex cannot see enabled on an adopted device: it takes them only where they are
// core, an instance and a device of Vulkan 1.2 or later. There the adopted context chooses as a
// created one does (lavapipe's adder, SwiftShader's soft add), and a duplicate-heavy float32 add runs
// through the module that declares the rounding mode with no message from the application's
// validation layer (TearDown); on a 1.1 instance, the soft add.
class Vulkan12EmbeddingTest : public EmbeddingTest {
 protected:
  Vulkan12EmbeddingTest() { api_version_ = VK_API_VERSION_1_2; }
};

void expectFloat32AddMatchesReference(Context& context) {
  Rng rng(0xf1a7);
  const HostTensor data = randomTensor(rng, DataType::kFloat32, {64});
  const HostTensor indices = randomIndices(rng, DataType::kInt64, {20000}, 64);
  const HostTensor updates = randomTensor(rng, DataType::kFloat32, {20000});
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(context, data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices_tensor, toDevice(context, indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates_tensor, toDevice(context, updates));
  VKINDEX_ASSERT_OK_AND_ASSIGN(
      Tensor output, scatterElements(context, data_tensor, indices_tensor, updates_tensor, 0, Reduction::kAdd));
  VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
  EXPECT_EQ(actual.bytes, referenceScatterElements(data, indices, updates, 0, Reduction::kAdd).output.bytes);
}

TEST_F(Vulkan12EmbeddingTest, AdoptedVulkan12DeviceTakesTheDevicesFloatAdderAsACreatedOneWould) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  EXPECT_EQ(tuningOf(*context_).native_float32_add, tuningOf(context()).native_float32_add);
  ASSERT_NO_FATAL_FAILURE(expectFloat32AddMatchesReference(*context_));
}

TEST_F(EmbeddingTest, AdoptedThroughAVulkan11InstanceTheFloatAddIsSoft) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  EXPECT_FALSE(tuningOf(*context_).native_float32_add);
  ASSERT_NO_FATAL_FAILURE(expectFloat32AddMatchesReference(*context_));
}

// The zero-message checks mean something only if the application's messenger hears what vkindex does
// on the adopted device: a view of a buffer created without STORAGE_BUFFER usage (which vkindex cannot
// see) makes the validation layer report vkindex's descriptor update.
TEST_F(EmbeddingTest, ApplicationMessengerHearsVkindexsCalls) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 256;
  info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;  // no STORAGE_BUFFER
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer wrong = VK_NULL_HANDLE;
  ASSERT_EQ(fn_.vkCreateBuffer(device_, &info, nullptr, &wrong), VK_SUCCESS);
  VkMemoryRequirements requirements;
  fn_.vkGetBufferMemoryRequirements(device_, wrong, &requirements);
  uint32_t type = 0;
  while (!(requirements.memoryTypeBits & (1u << type))) ++type;
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  ASSERT_EQ(fn_.vkAllocateMemory(device_, &allocate, nullptr, &memory), VK_SUCCESS);
  ASSERT_EQ(fn_.vkBindBufferMemory(device_, wrong, memory, 0), VK_SUCCESS);
  ASSERT_EQ(log_.count, 0u) << log_.first;
  {
    Rng rng(37);
    const Placed data = place(randomTensor(rng, DataType::kFloat32, {7, 5}));
    const Placed indices = place(indexTensor(DataType::kInt64, {2}, {1, 2}));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kFloat32, {7, 5}, data.offset));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_view, view(DataType::kInt64, {2}, indices.offset));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output_view,
                                 Tensor::view(*context_, DataType::kFloat32, {2, 5}, wrong, 4, 256));
    VkCommandBuffer cmd = newCommandBuffer();
    ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
    StatusOr<RecordedOp> op = recordGather(*context_, cmd, data_view, index_view, 0, output_view);
    EXPECT_TRUE(op.ok()) << op.status().toString();
    EXPECT_GT(log_.count, 0u) << "the application's validation layer did not see vkindex's descriptor update";
    EXPECT_NE(log_.first.find("STORAGE_BUFFER"), std::string::npos) << log_.first;
    ASSERT_NO_FATAL_FAILURE(end(cmd));
    // Never submitted: freeing the command buffer releases it, then the op may go.
    fn_.vkFreeCommandBuffers(device_, pool_, 1, &cmd);
  }
  fn_.vkDestroyBuffer(device_, wrong, nullptr);
  fn_.vkFreeMemory(device_, memory, nullptr);
  log_ = MessageLog{};  // provoked on purpose
}

}  // namespace
}  // namespace vkindex::test
