// Records vkindex's commands into a command buffer: dispatches (binds the pipeline, writes descriptors
// from a pool owned by the operation, pushes constants, dispatches directly or indirectly with group
// counts an earlier dispatch wrote), the few transfers plans use, and exact buffer barriers.
// `dispatch` checks its own contract: binding count and push size against the shader, group counts
// against the device's limits.
#pragma once

#include <vector>

#include "kernels/pipeline_library.hpp"
#include "vk/descriptor_pool.hpp"

namespace vkindex::kernels {

using vk::DescriptorPool;

struct BufferRange {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
};

class Recorder {
 public:
  Recorder(const vk::Device& device, PipelineLibrary& pipelines, DescriptorPool& descriptors,
           VkCommandBuffer command_buffer)
      : device_(device), pipelines_(pipelines), descriptors_(descriptors), cmd_(command_buffer) {}

  // Dispatches `shader` with `groups_x` x `groups_y` workgroups.
  Status dispatch(ShaderId shader, const SpecValues& spec, const std::vector<BufferRange>& bindings, const void* push,
                  size_t push_size, uint32_t groups_x, uint32_t groups_y);

  // Dispatches `shader` with the group counts an earlier dispatch wrote at `offset` of `arguments`
  // (a VkDispatchIndirectCommand; the caller's barrier makes it visible to the indirect read).
  Status dispatchIndirect(ShaderId shader, const SpecValues& spec, const std::vector<BufferRange>& bindings,
                          const void* push, size_t push_size, VkBuffer arguments, VkDeviceSize offset);

  // Makes `range`'s writes by `src_stage`/`src_access` visible to `dst_stage`/`dst_access`.
  void barrier(const BufferRange& range, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
               VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

  // Sets one 32-bit word to `value` with vkCmdFillBuffer and makes it visible to compute shaders.
  void fillWord(VkBuffer buffer, VkDeviceSize offset, uint32_t value);

  // Copies `regions` (byte offsets in each buffer) from `source` to `target` with vkCmdCopyBuffer, behind
  // barriers that extend the callers' compute-shader contract to the transfer and back: earlier compute
  // accesses of both ranges complete first, and later compute shaders see the copy.
  void copyRegions(const BufferRange& source, const BufferRange& target, const std::vector<VkBufferCopy>& regions);

  // Writes `range.size` bytes (a multiple of 4) from host memory into `range` with vkCmdUpdateBuffer,
  // recorded into the command buffer now, and makes them visible to compute shaders.
  void uploadFromHost(const BufferRange& range, const void* bytes);

  VkCommandBuffer commandBuffer() const { return cmd_; }
  const vk::Device& device() const { return device_; }

 private:
  // Checks the dispatch's contract, then binds the pipeline and descriptors and pushes constants.
  Status bind(ShaderId shader, const SpecValues& spec, const std::vector<BufferRange>& bindings, const void* push,
              size_t push_size);

  const vk::Device& device_;
  PipelineLibrary& pipelines_;
  DescriptorPool& descriptors_;
  VkCommandBuffer cmd_;
};

// Workgroup counts covering `groups` groups within the device's per-dimension limits: (x, y) with
// x * y >= groups where possible; kernels use grid-stride loops, so a capped count is still correct.
std::pair<uint32_t, uint32_t> groupGrid(uint64_t groups, const DeviceInfo& info);

}  // namespace vkindex::kernels
