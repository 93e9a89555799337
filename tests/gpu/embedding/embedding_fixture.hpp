// The fixture of the embedding tests ("the application owns Vulkan"): the test plays an application
// that creates its own instance (with the validation layer and a messenger of its own), device, queue,
// command buffers and one host-visible VkBuffer holding every tensor at 4-byte (not 16-byte) aligned
// offsets among canary bytes. vkindex adopts those objects (Context::adopt), sees the tensors through
// Tensor::view and records Gather into the application's command buffers (recordGather), following
// the synchronization contract of ops.hpp. The application's instance runs core and synchronization
// validation. The Context is destroyed before the application's device, and the application's
// messenger must stay silent throughout, device destruction included (so nothing vkindex created on
// the adopted device outlives the Context).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "support/gpu_test.hpp"
#include "vk/vulkan.hpp"

namespace vkindex::test {

// Messages the application's own messenger saw (warnings and errors of every type).
struct MessageLog {
  uint32_t count = 0;
  std::string first;
};

// One Gather: data, indices and axis.
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
  void SetUp() override;
  void TearDown() override;

  // --- The application's Vulkan -------------------------------------------------------------------

  void createApplicationVulkan();
  // One buffer for everything, host-visible and coherent, mapped for the whole test and filled with
  // the canary pattern.
  void createApplicationBuffer();
  // vkindex adopting the application's objects (no on-disk pipeline cache: tests stay hermetic).
  void adopt();
  ExternalVulkan external() const;

  // --- Tensors in the application's buffer ----------------------------------------------------------

  // Writes `host` at the next free offset of the form 16k + 4 (a multiple of 4, never of 16), leaving
  // canary bytes before it, and records it in the expected image.
  Placed place(HostTensor host);
  // Reserves a region (left holding the canary) for `bytes` bytes, e.g. for an output.
  //
  // Spread layout (the default): each region starts in a 256-byte block of its own (256 is the largest
  // minStorageBufferOffsetAlignment Vulkan allows), at a lead of 4, 36, 100 or 196 bytes into it.
  // vkindex binds a tensor from the aligned offset below it, and synchronization validation treats a
  // whole bound range as accessed, so a region sharing a block with an earlier op's output would be
  // reported as a hazard although no byte is accessed by both (see DenselyPackedEmbeddingTest).
  // Dense layout: regions only 16k + 4 aligned, a few canary bytes apart.
  VkDeviceSize reserve(size_t bytes);
  // Host writes into the mapped buffer and the expected image alike.
  void writeBytes(VkDeviceSize offset, const std::vector<uint8_t>& bytes);
  // Puts the canary back over [offset, offset + size) (mapped buffer and expected image).
  void restoreCanary(VkDeviceSize offset, size_t size);
  // A view of [offset, ...) of the application's buffer.
  StatusOr<Tensor> view(DataType type, const Shape& shape, VkDeviceSize offset);
  // The whole buffer must equal the expected image: every byte outside the outputs still the canary.
  ::testing::AssertionResult bufferMatchesImage() const;

  // --- Command buffers ----------------------------------------------------------------------------

  VkCommandBuffer newCommandBuffer();
  void begin(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags);
  void bufferBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                     VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);
  // The contract's "before": the inputs' writes (the host's, and compute writes of earlier submissions
  // of the same buffer) visible to compute-shader reads (and writes: outputs share words with canary).
  void barrierBeforeOps(VkCommandBuffer cmd);
  // The contract's "after": compute-shader writes visible to the host.
  void barrierAfterOps(VkCommandBuffer cmd);
  void end(VkCommandBuffer cmd);
  void submitAndWait(VkCommandBuffer cmd);
  // A new command buffer `cmd`, begun for one submission, with the "before" barrier recorded; and the
  // "after" barrier, then the end of recording: what surrounds the ops of every recorded test.
  void beginOps(VkCommandBuffer& cmd);
  void endOps(VkCommandBuffer cmd);
  // A recorded op whose index check failed: finish() reports kOutOfRange with `message`, and a second
  // call the same.
  static void expectFinishFails(RecordedOp& op, const std::string& message);

  // --- Expected outputs ---------------------------------------------------------------------------

  // Expects the reference output of (data, indices, axis) at `output_offset` in the image.
  void expectOutput(const Placed& data, const Placed& indices, int64_t axis, VkDeviceSize output_offset);
  Shape outputShape(const Placed& data, const Placed& indices, int64_t axis);
  // Records every case (tensors placed in the application's buffer) into one command buffer between
  // the contract's barriers, submits, and checks every output and every canary byte.
  void gatherInOneCommandBuffer(const std::vector<GatherCase>& cases);
  // Outputs whose byte count is not a multiple of 4, so canary bytes share their last word.
  static std::vector<GatherCase> subWordCases();

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

}  // namespace vkindex::test
