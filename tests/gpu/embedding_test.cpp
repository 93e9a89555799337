// "The application owns Vulkan": the test plays an application that creates its own instance (with the
// validation layer and a messenger of its own), device, queue, command buffers and one host-visible
// VkBuffer holding every tensor at 4-byte (not 16-byte) aligned offsets among canary bytes. vkindex
// adopts those objects (Context::adopt), sees the tensors through Tensor::view and records Gather into
// the application's command buffers (recordGather), following the synchronization contract of ops.hpp.
// The application's instance runs core and synchronization validation. The Context is destroyed
// before the application's device, and the application's messenger must stay silent throughout, device
// destruction included (so nothing vkindex created on the adopted device outlives the Context).
#include <volk.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/context_impl.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

constexpr VkDeviceSize kBufferSize = 8192;

// The canary byte at each position of the application's buffer (position-dependent, so a shifted or
// misdirected write cannot reproduce it).
uint8_t canaryAt(VkDeviceSize position) { return static_cast<uint8_t>((position * 37 + 11) ^ 0xA5); }

// Messages the application's own messenger saw (warnings and errors of every type).
struct MessageLog {
  uint32_t count = 0;
  std::string first;
};

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

struct GatherCase {
  HostTensor data;
  HostTensor indices;
  int64_t axis = 0;
};

// A tensor's place in the application's buffer and its host copy.
struct Placed {
  HostTensor host;
  VkDeviceSize offset = 0;
};

class EmbeddingTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();  // selects the driver (VK_DRIVER_FILES) before the application's instance exists
    if (HasFatalFailure()) return;
    ASSERT_NO_FATAL_FAILURE(createApplicationVulkan());
    ASSERT_NO_FATAL_FAILURE(createApplicationBuffer());
  }

  void TearDown() override {
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

  // --- The application's Vulkan -------------------------------------------------------------------

  void createApplicationVulkan() {
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

  // One buffer for everything, host-visible and coherent, mapped for the whole test and filled with
  // the canary pattern.
  void createApplicationBuffer() {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = kBufferSize;
    info.usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
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

  // vkindex adopting the application's objects (no on-disk pipeline cache: tests stay hermetic).
  void adopt() {
    ContextOptions options;
    options.pipeline_cache_dir = "";
    VKINDEX_ASSERT_OK_AND_ASSIGN(context_, Context::adopt(external(), options));
    ASSERT_EQ(context_->device().name, context().device().name);
  }

  ExternalVulkan external() const {
    ExternalVulkan external;
    external.api_version = api_version_;
    external.instance = instance_;
    external.physical_device = physical_;
    external.device = device_;
    external.queue = queue_;
    external.queue_family = family_;
    return external;
  }

  // --- Tensors in the application's buffer ----------------------------------------------------------

  // Writes `host` at the next free offset of the form 16k + 4 (a multiple of 4, never of 16), leaving
  // canary bytes before it, and records it in the expected image.
  Placed place(HostTensor host) {
    Placed placed{std::move(host), 0};
    placed.offset = reserve(placed.host.bytes.size());
    writeBytes(placed.offset, placed.host.bytes);
    return placed;
  }
  // Reserves a region (left holding the canary) for `bytes` bytes, e.g. for an output.
  //
  // Spread layout (the default): each region starts in a 256-byte block of its own (256 is the largest
  // minStorageBufferOffsetAlignment Vulkan allows), at a lead of 4, 36, 100 or 196 bytes into it.
  // vkindex binds a tensor from the aligned offset below it, and synchronization validation treats a
  // whole bound range as accessed, so a region sharing a block with an earlier op's output would be
  // reported as a hazard although no byte is accessed by both (see DenselyPackedEmbeddingTest).
  // Dense layout: regions only 16k + 4 aligned, a few canary bytes apart.
  VkDeviceSize reserve(size_t bytes) {
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
  // Host writes into the mapped buffer and the expected image alike.
  void writeBytes(VkDeviceSize offset, const std::vector<uint8_t>& bytes) {
    std::memcpy(mapped_ + offset, bytes.data(), bytes.size());
    std::copy(bytes.begin(), bytes.end(), image_.begin() + static_cast<std::ptrdiff_t>(offset));
  }
  // Puts the canary back over [offset, offset + size) (mapped buffer and expected image).
  void restoreCanary(VkDeviceSize offset, size_t size) {
    std::vector<uint8_t> canary(size);
    for (size_t i = 0; i < size; ++i) canary[i] = canaryAt(offset + i);
    writeBytes(offset, canary);
  }

  StatusOr<Tensor> view(DataType type, const Shape& shape, VkDeviceSize offset) {
    return Tensor::view(*context_, type, shape, buffer_, offset, kBufferSize);
  }

  // The whole buffer must equal the expected image: every byte outside the outputs still the canary.
  ::testing::AssertionResult bufferMatchesImage() const {
    for (VkDeviceSize i = 0; i < kBufferSize; ++i) {
      if (mapped_[i] != image_[i]) {
        return ::testing::AssertionFailure()
               << "byte " << i << " is " << int(mapped_[i]) << ", expected " << int(image_[i]) << " ("
               << (image_[i] == canaryAt(i) ? "canary" : "output") << ")";
      }
    }
    return ::testing::AssertionSuccess();
  }

  // --- Command buffers ----------------------------------------------------------------------------

  VkCommandBuffer newCommandBuffer() {
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool_;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    EXPECT_EQ(fn_.vkAllocateCommandBuffers(device_, &allocate, &cmd), VK_SUCCESS);
    return cmd;
  }

  void begin(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags) {
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = flags;
    ASSERT_EQ(fn_.vkBeginCommandBuffer(cmd, &info), VK_SUCCESS);
  }

  void bufferBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
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

  // The contract's "before": the inputs' writes (the host's, and compute writes of earlier submissions
  // of the same buffer) visible to compute-shader reads (and writes: outputs share words with canary).
  void barrierBeforeOps(VkCommandBuffer cmd) {
    bufferBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }
  // The contract's "after": compute-shader writes visible to the host.
  void barrierAfterOps(VkCommandBuffer cmd) {
    bufferBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                  VK_ACCESS_HOST_READ_BIT);
  }

  void end(VkCommandBuffer cmd) { ASSERT_EQ(fn_.vkEndCommandBuffer(cmd), VK_SUCCESS); }

  void submitAndWait(VkCommandBuffer cmd) {
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

  // Expects the reference output of (data, indices, axis) at `output_offset` in the image.
  void expectOutput(const Placed& data, const Placed& indices, int64_t axis, VkDeviceSize output_offset) {
    ReferenceResult expected = referenceGather(data.host, indices.host, axis);
    ASSERT_FALSE(expected.bad_index_position);
    writeBytes(output_offset, expected.output.bytes);
  }

  Shape outputShape(const Placed& data, const Placed& indices, int64_t axis) {
    return referenceGather(data.host, indices.host, axis).output.shape;
  }

  // Records every case (tensors placed in the application's buffer) into one command buffer between
  // the contract's barriers, submits, and checks every output and every canary byte.
  void gatherInOneCommandBuffer(const std::vector<GatherCase>& cases) {
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
    VkCommandBuffer cmd = newCommandBuffer();
    ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
    barrierBeforeOps(cmd);
    std::vector<RecordedOp> ops;
    for (size_t k = 0; k < cases.size(); ++k) {
      VKINDEX_ASSERT_OK_AND_ASSIGN(
          RecordedOp op, recordGather(*context_, cmd, data_views[k], index_views[k], cases[k].axis, output_views[k]));
      ops.push_back(std::move(op));
    }
    barrierAfterOps(cmd);
    ASSERT_NO_FATAL_FAILURE(end(cmd));
    ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
    for (size_t k = 0; k < cases.size(); ++k) {
      SCOPED_TRACE("case " + std::to_string(k) + ": data " + describe(cases[k].data));
      VKINDEX_ASSERT_OK(ops[k].finish());
      ASSERT_NO_FATAL_FAILURE(expectOutput(data[k], indices[k], cases[k].axis, outputs[k]));
    }
    EXPECT_TRUE(bufferMatchesImage());
  }

  // Outputs whose byte count is not a multiple of 4, so canary bytes share their last word.
  static std::vector<GatherCase> subWordCases() {
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

  // Application objects.
  MessageLog log_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  std::vector<VkQueueFamilyProperties> families_;
  uint32_t family_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  VolkDeviceTable fn_{};
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint8_t* mapped_ = nullptr;
  std::vector<uint8_t> image_;  // what the buffer must hold
  VkDeviceSize next_ = 0;
  uint32_t regions_ = 0;
  bool dense_ = false;           // see reserve()
  bool sync_validation_ = true;  // see createApplicationVulkan()
  uint32_t api_version_ = VK_API_VERSION_1_1;

  std::unique_ptr<Context> context_;
};

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

  VkCommandBuffer cmd = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  barrierBeforeOps(cmd);
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp op, recordGather(*context_, cmd, data_view, index_view, 0, output_view));
  barrierAfterOps(cmd);
  ASSERT_NO_FATAL_FAILURE(end(cmd));
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

  VkCommandBuffer cmd = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  barrierBeforeOps(cmd);
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp op, recordGather(*context_, cmd, data_view, bad_view, 0, output_view));
  barrierAfterOps(cmd);
  ASSERT_NO_FATAL_FAILURE(end(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));
  const std::string message = "Gather: indices[1] = 4294967297 is out of range for axis 0 of size 7 (allowed [-7, 6])";
  Status status = op.finish();
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), message);
  Status again = op.finish();
  EXPECT_EQ(again.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(again.message(), message);
  EXPECT_TRUE(bufferMatchesImage()) << "the output was written despite the error";

  // The next op, in its own command buffer, is not affected by the earlier failure.
  VkCommandBuffer next = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(next, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  barrierBeforeOps(next);
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp ok_op, recordGather(*context_, next, data_view, good_view, 0, output_view));
  barrierAfterOps(next);
  ASSERT_NO_FATAL_FAILURE(end(next));
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

  VkCommandBuffer cmd = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  barrierBeforeOps(cmd);
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp bad_op, recordGather(*context_, cmd, data_view, bad_view, 0, bad_output));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp good_op, recordGather(*context_, cmd, data_view, good_view, 0, good_output));
  barrierAfterOps(cmd);
  ASSERT_NO_FATAL_FAILURE(end(cmd));
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
  barrierAfterOps(cmd);
  ASSERT_NO_FATAL_FAILURE(end(cmd));

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
  VkCommandBuffer cmd = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  barrierBeforeOps(cmd);
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
  barrierAfterOps(cmd);
  ASSERT_NO_FATAL_FAILURE(end(cmd));
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
  VkCommandBuffer cmd = newCommandBuffer();
  ASSERT_NO_FATAL_FAILURE(begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT));
  barrierBeforeOps(cmd);
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
  barrierAfterOps(cmd);
  ASSERT_NO_FATAL_FAILURE(end(cmd));
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
  foreign.physical_device = context().impl().device->physical();
  ASSERT_NE(foreign.physical_device, physical_);
  expectInvalid(foreign, "Context::adopt: the VkPhysicalDevice does not belong to the VkInstance");

  // And the valid handles are accepted (so the failures above are down to the one bad field).
  ASSERT_NO_FATAL_FAILURE(adopt());
}

}  // namespace
}  // namespace vkindex::test
