#include "gpu/embedding/embedding_fixture.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

// Room for a StatusBatch of 40 operations, each region in a 256-byte block of its own (reserve()).
constexpr VkDeviceSize kBufferSize = 32768;

// The canary byte at each position of the application's buffer (position-dependent, so a shifted or
// misdirected write cannot reproduce it).
uint8_t canaryAt(VkDeviceSize position) { return static_cast<uint8_t>((position * 37 + 11) ^ 0xA5); }

VKAPI_ATTR VkBool32 VKAPI_CALL countMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                            VkDebugUtilsMessageTypeFlagsEXT,
                                            const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* log = static_cast<MessageLog*>(user);
  const char* text = data != nullptr && data->pMessage != nullptr ? data->pMessage : "(no message)";
  std::fprintf(stderr, "application messenger: %s: %s\n",
               severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning", text);
  if (log->count++ == 0) log->first = text;
  return VK_FALSE;
}

}  // namespace

void EmbeddingTest::SetUp() {
  GpuTest::SetUp();  // selects the driver (VK_DRIVER_FILES) before the application's instance exists
  if (HasFatalFailure()) return;
  ASSERT_NO_FATAL_FAILURE(createApplicationVulkan());
  ASSERT_NO_FATAL_FAILURE(createApplicationBuffer());
}

void EmbeddingTest::TearDown() {
  // The application destroys vkindex first, then its own objects.
  context_.reset();
  if (device_ != VK_NULL_HANDLE) {
    EXPECT_EQ(fn_.vkDeviceWaitIdle(device_), VK_SUCCESS);
    if (mapped_ != nullptr) fn_.vkUnmapMemory(device_, memory_);
    if (buffer_ != VK_NULL_HANDLE) fn_.vkDestroyBuffer(device_, buffer_, nullptr);
    if (memory_ != VK_NULL_HANDLE) fn_.vkFreeMemory(device_, memory_, nullptr);
    if (pool_ != VK_NULL_HANDLE) fn_.vkDestroyCommandPool(device_, pool_, nullptr);
    fn_.vkDestroyDevice(device_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE) {
    EXPECT_EQ(log_.count, 0u) << "the application's messenger reported: " << log_.first;
    if (messenger_ != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    vkDestroyInstance(instance_, nullptr);
  }
  GpuTest::TearDown();
}

void EmbeddingTest::createApplicationVulkan() {
  ASSERT_EQ(volkInitialize(), VK_SUCCESS) << "no Vulkan loader";
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vkindex embedding test";
  app.apiVersion = api_version_;
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = &countMessage;
  messenger_info.pUserData = &log_;
  // Synchronization validation too: it checks vkindex's internal barriers and that the contract's
  // barriers (placed by the application) are enough.
  const VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  if (sync_validation_) messenger_info.pNext = &features;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pNext = &messenger_info;  // also counts messages from vkCreateInstance itself
  info.pApplicationInfo = &app;
  info.enabledLayerCount = 1;
  info.ppEnabledLayerNames = &layer;
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = &extension;
  ASSERT_EQ(vkCreateInstance(&info, nullptr, &instance_), VK_SUCCESS);
  volkLoadInstanceOnly(instance_);
  messenger_info.pNext = nullptr;
  ASSERT_EQ(vkCreateDebugUtilsMessengerEXT(instance_, &messenger_info, nullptr, &messenger_), VK_SUCCESS);

  // The same device the fixture's context uses (the only one the selected driver offers).
  uint32_t count = 0;
  ASSERT_EQ(vkEnumeratePhysicalDevices(instance_, &count, nullptr), VK_SUCCESS);
  std::vector<VkPhysicalDevice> devices(count);
  ASSERT_EQ(vkEnumeratePhysicalDevices(instance_, &count, devices.data()), VK_SUCCESS);
  for (VkPhysicalDevice candidate : devices) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(candidate, &properties);
    if (context().device().name == properties.deviceName) {
      physical_ = candidate;
      break;
    }
  }
  ASSERT_NE(physical_, VK_NULL_HANDLE) << "no physical device named " << context().device().name;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, nullptr);
  families_.resize(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, families_.data());
  family_ = count;
  for (uint32_t i = 0; i < count && family_ == count; ++i) {
    if (families_[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family_ = i;
  }
  ASSERT_LT(family_, count) << "no compute queue family";

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  ASSERT_EQ(vkCreateDevice(physical_, &device_info, nullptr, &device_), VK_SUCCESS);
  volkLoadDeviceTable(&fn_, device_);
  fn_.vkGetDeviceQueue(device_, family_, 0, &queue_);
  ASSERT_NE(queue_, VK_NULL_HANDLE);

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = family_;
  ASSERT_EQ(fn_.vkCreateCommandPool(device_, &pool_info, nullptr, &pool_), VK_SUCCESS);
}

void EmbeddingTest::createApplicationBuffer() {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = kBufferSize;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ASSERT_EQ(fn_.vkCreateBuffer(device_, &info, nullptr, &buffer_), VK_SUCCESS);
  VkMemoryRequirements requirements;
  fn_.vkGetBufferMemoryRequirements(device_, buffer_, &requirements);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory);
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = memory.memoryTypeCount;
  for (uint32_t i = 0; i < memory.memoryTypeCount && type == memory.memoryTypeCount; ++i) {
    if ((requirements.memoryTypeBits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) {
      type = i;
    }
  }
  ASSERT_LT(type, memory.memoryTypeCount) << "no host-visible coherent memory for the buffer";
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type;
  ASSERT_EQ(fn_.vkAllocateMemory(device_, &allocate, nullptr, &memory_), VK_SUCCESS);
  ASSERT_EQ(fn_.vkBindBufferMemory(device_, buffer_, memory_, 0), VK_SUCCESS);
  void* mapped = nullptr;
  ASSERT_EQ(fn_.vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
  mapped_ = static_cast<uint8_t*>(mapped);
  image_.resize(kBufferSize);
  for (VkDeviceSize i = 0; i < kBufferSize; ++i) image_[i] = canaryAt(i);
  std::memcpy(mapped_, image_.data(), image_.size());
}

void EmbeddingTest::adopt() {
  ContextOptions options;
  options.pipeline_cache_dir = "";
  VKINDEX_ASSERT_OK_AND_ASSIGN(context_, Context::adopt(external(), options));
  ASSERT_EQ(context_->device().name, context().device().name);
}

ExternalVulkan EmbeddingTest::external() const {
  ExternalVulkan external;
  external.api_version = api_version_;
  external.instance = instance_;
  external.physical_device = physical_;
  external.device = device_;
  external.queue = queue_;
  external.queue_family = family_;
  return external;
}

Placed EmbeddingTest::place(HostTensor host) {
  Placed placed{std::move(host), 0};
  placed.offset = reserve(placed.host.bytes.size());
  writeBytes(placed.offset, placed.host.bytes);
  return placed;
}

VkDeviceSize EmbeddingTest::reserve(size_t bytes) {
  static constexpr VkDeviceSize kLeads[] = {4, 36, 100, 196};
  VkDeviceSize offset;
  if (dense_) {
    offset = (next_ + 8 + 15) / 16 * 16 + 4;
  } else {
    offset = (next_ + 255) / 256 * 256 + kLeads[regions_ % 4];
  }
  ++regions_;
  next_ = offset + bytes;
  EXPECT_LE(next_ + 8, kBufferSize);
  EXPECT_EQ(offset % 4, 0u);
  EXPECT_NE(offset % 16, 0u);
  return offset;
}

void EmbeddingTest::writeBytes(VkDeviceSize offset, const std::vector<uint8_t>& bytes) {
  std::memcpy(mapped_ + offset, bytes.data(), bytes.size());
  std::copy(bytes.begin(), bytes.end(), image_.begin() + static_cast<std::ptrdiff_t>(offset));
}

void EmbeddingTest::restoreCanary(VkDeviceSize offset, size_t size) {
  std::vector<uint8_t> canary(size);
  for (size_t i = 0; i < size; ++i) canary[i] = canaryAt(offset + i);
  writeBytes(offset, canary);
}

StatusOr<Tensor> EmbeddingTest::view(DataType type, const Shape& shape, VkDeviceSize offset) {
  return Tensor::view(*context_, type, shape, buffer_, offset, kBufferSize);
}

::testing::AssertionResult EmbeddingTest::bufferMatchesImage() const {
  for (VkDeviceSize i = 0; i < kBufferSize; ++i) {
    if (mapped_[i] != image_[i]) {
      return ::testing::AssertionFailure()
             << "byte " << i << " is " << int(mapped_[i]) << ", expected " << int(image_[i]) << " ("
             << (image_[i] == canaryAt(i) ? "canary" : "output") << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

VkCommandBuffer EmbeddingTest::newCommandBuffer() {
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  EXPECT_EQ(fn_.vkAllocateCommandBuffers(device_, &allocate, &cmd), VK_SUCCESS);
  return cmd;
}

void EmbeddingTest::begin(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags) {
  VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  info.flags = flags;
  ASSERT_EQ(fn_.vkBeginCommandBuffer(cmd, &info), VK_SUCCESS);
}

void EmbeddingTest::bufferBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                                  VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkBufferMemoryBarrier barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = buffer_;
  barrier.offset = 0;
  barrier.size = VK_WHOLE_SIZE;
  fn_.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 0, nullptr, 1, &barrier, 0, nullptr);
}

void EmbeddingTest::barrierBeforeOps(VkCommandBuffer cmd) {
  bufferBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void EmbeddingTest::barrierAfterOps(VkCommandBuffer cmd) {
  bufferBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
}

void EmbeddingTest::end(VkCommandBuffer cmd) { ASSERT_EQ(fn_.vkEndCommandBuffer(cmd), VK_SUCCESS); }

void EmbeddingTest::submitAndWait(VkCommandBuffer cmd) {
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  ASSERT_EQ(fn_.vkCreateFence(device_, &fence_info, nullptr, &fence), VK_SUCCESS);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  const VkResult submitted = fn_.vkQueueSubmit(queue_, 1, &submit, fence);
  const VkResult waited =
      submitted == VK_SUCCESS ? fn_.vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX) : submitted;
  fn_.vkDestroyFence(device_, fence, nullptr);
  ASSERT_EQ(submitted, VK_SUCCESS);
  ASSERT_EQ(waited, VK_SUCCESS);
}

void EmbeddingTest::beginOps(VkCommandBuffer& cmd) {
  cmd = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  barrierBeforeOps(cmd);
}

void EmbeddingTest::expectFinishFails(RecordedOp& op, const std::string& message) {
  for (int call = 0; call < 2; ++call) {  // later calls return the same result
    Status status = op.finish();
    EXPECT_EQ(status.code(), StatusCode::kOutOfRange) << "call " << call;
    EXPECT_EQ(status.message(), message) << "call " << call;
  }
}

void EmbeddingTest::endOps(VkCommandBuffer cmd) {
  barrierAfterOps(cmd);
  ASSERT_NO_FATAL_FAILURE(end(cmd));
}

void EmbeddingTest::expectOutput(const Placed& data, const Placed& indices, int64_t axis, VkDeviceSize output_offset) {
  ReferenceResult expected = referenceGather(data.host, indices.host, axis);
  ASSERT_FALSE(expected.bad_index_position);
  writeBytes(output_offset, expected.output.bytes);
}

Shape EmbeddingTest::outputShape(const Placed& data, const Placed& indices, int64_t axis) {
  return referenceGather(data.host, indices.host, axis).output.shape;
}

void EmbeddingTest::gatherInOneCommandBuffer(const std::vector<GatherCase>& cases) {
  std::vector<Placed> data, indices;
  std::vector<VkDeviceSize> outputs;
  std::vector<Tensor> data_views, index_views, output_views;
  for (const GatherCase& c : cases) {
    data.push_back(place(c.data));
    indices.push_back(place(c.indices));
    const HostTensor expected = referenceGather(c.data, c.indices, c.axis).output;
    outputs.push_back(reserve(expected.bytes.size()));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor d, view(c.data.dtype, c.data.shape, data.back().offset));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor i, view(c.indices.dtype, c.indices.shape, indices.back().offset));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor o, view(c.data.dtype, expected.shape, outputs.back()));
    data_views.push_back(std::move(d));
    index_views.push_back(std::move(i));
    output_views.push_back(std::move(o));
  }
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  std::vector<RecordedOp> ops;
  for (size_t k = 0; k < cases.size(); ++k) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(
        RecordedOp op, recordGather(*context_, cmd, data_views[k], index_views[k], cases[k].axis, output_views[k]));
    ops.push_back(std::move(op));
  }
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  for (size_t k = 0; k < cases.size(); ++k) {
    SCOPED_TRACE("case " + std::to_string(k) + ": data " + describe(cases[k].data));
    VKINDEX_ASSERT_OK(ops[k].finish());
    ASSERT_NO_FATAL_FAILURE(expectOutput(data[k], indices[k], cases[k].axis, outputs[k]));
  }
  EXPECT_TRUE(bufferMatchesImage());
}

std::vector<GatherCase> EmbeddingTest::subWordCases() {
  Rng rng(35);
  std::vector<GatherCase> cases;
  // 35 bytes: 1 canary byte in the last word.
  cases.push_back(
      {randomTensor(rng, DataType::kUInt8, {9, 7}), indexTensor(DataType::kInt64, {5}, {8, -9, 3, 3, 0}), 0});
  // 18 bytes: 2 canary bytes.
  cases.push_back({randomTensor(rng, DataType::kUInt8, {9, 7}), indexTensor(DataType::kInt32, {2}, {6, -1}), 1});
  // 1 byte: 3 canary bytes.
  cases.push_back({randomTensor(rng, DataType::kInt8, {5, 1}), indexTensor(DataType::kInt64, {1}, {2}), 0});
  // 18 bytes of 16-bit elements: 2 canary bytes.
  cases.push_back({randomTensor(rng, DataType::kFloat16, {5, 3}), indexTensor(DataType::kInt32, {3}, {4, 0, -2}), 0});
  for (const GatherCase& c : cases) {
    EXPECT_NE(referenceGather(c.data, c.indices, c.axis).output.bytes.size() % 4, 0u);
  }
  return cases;
}

}  // namespace vkindex::test
