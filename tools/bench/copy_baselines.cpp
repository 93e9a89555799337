#include "copy_baselines.hpp"

#include <algorithm>
#include <vector>

#include "kernels/shader_registry.hpp"

namespace vkindex::bench {
namespace {

constexpr VkDeviceSize kQuadBytes = 16;

// The largest binding size that is a whole number of uvec4s and keeps the next chunk's offset aligned.
VkDeviceSize chunkBytes(const DeviceInfo& info) {
  VkDeviceSize granule = std::max<VkDeviceSize>(kQuadBytes, info.min_storage_buffer_offset_alignment);
  return std::max<VkDeviceSize>(granule, info.max_storage_buffer_range / granule * granule);
}

}  // namespace

void recordCopyBuffer(const vk::Device& device, VkCommandBuffer cmd, VkBuffer source, VkBuffer target,
                      VkDeviceSize bytes) {
  VkBufferCopy region{0, 0, bytes};
  device.fn().vkCmdCopyBuffer(cmd, source, target, 1, &region);
}

std::vector<CopyLayout> computeCopyLayouts(const plan::Tuning& tuning) {
  std::vector<CopyLayout> layouts;
  for (CopyLayout layout :
       {CopyLayout{tuning.workgroup_size, tuning.items_per_invocation}, CopyLayout{tuning.row_lanes, tuning.row_items},
        CopyLayout{tuning.row_lanes, tuning.row_items, false, true}, CopyLayout{2, 128}}) {
    layout.lanes = std::clamp<uint32_t>(layout.lanes, 1, tuning.workgroup_size);
    while (tuning.workgroup_size % layout.lanes != 0) --layout.lanes;  // lanes must divide the workgroup
    layout.items = std::max<uint32_t>(layout.items, 1);
    const bool seen = std::any_of(layouts.begin(), layouts.end(), [&](const CopyLayout& other) {
      return other.lanes == layout.lanes && other.items == layout.items && other.batched_loads == layout.batched_loads;
    });
    if (!seen) layouts.push_back(layout);
  }
  if (tuning.int64_units) {
    const size_t narrow = layouts.size();
    for (size_t i = 0; i < narrow; ++i) {
      layouts.push_back({layouts[i].lanes, layouts[i].items, true, layouts[i].batched_loads});
    }
  }
  return layouts;
}

StatusOr<kernels::DescriptorPool> recordComputeCopy(Context::Impl& context, VkCommandBuffer cmd, VkBuffer source,
                                                    VkBuffer target, VkDeviceSize bytes, CopyLayout layout,
                                                    VkDeviceSize source_offset, VkDeviceSize target_offset) {
  const DeviceInfo& info = context.device->info();
  const uint32_t workgroup = layout.workgroup != 0 ? layout.workgroup : context.tuning.values.workgroup_size;
  const VkDeviceSize total = (bytes + kQuadBytes - 1) / kQuadBytes * kQuadBytes;
  const VkDeviceSize chunk = chunkBytes(info);
  const uint32_t chunk_count = static_cast<uint32_t>(std::max<VkDeviceSize>(1, (total + chunk - 1) / chunk));
  VKINDEX_ASSIGN_OR_RETURN(kernels::DescriptorPool pool,
                           kernels::DescriptorPool::create(*context.device, chunk_count, 2 * chunk_count));
  kernels::Recorder recorder(*context.device, *context.pipelines, pool, cmd);
  const kernels::SpecValues spec{workgroup, 0, 0, layout.items, layout.lanes, layout.batched_loads ? 1u : 0u};
  const uint64_t quads_per_group = uint64_t(workgroup) * layout.items;
  for (VkDeviceSize offset = 0; offset < total; offset += chunk) {
    VkDeviceSize size = std::min(chunk, total - offset);
    uint32_t quad_count = static_cast<uint32_t>(size / kQuadBytes);
    auto [groups_x, groups_y] = kernels::groupGrid((quad_count + quads_per_group - 1) / quads_per_group, info);
    VKINDEX_RETURN_IF_ERROR(
        recorder.dispatch(layout.int64_components ? kernels::ShaderId::kCopyInt64 : kernels::ShaderId::kCopy, spec,
                          {{source, source_offset + offset, size}, {target, target_offset + offset, size}}, &quad_count,
                          sizeof(quad_count), groups_x, groups_y));
  }
  return pool;
}

void recordClear(const vk::Device& device, VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize bytes) {
  const VolkDeviceTable& fn = device.fn();
  fn.vkCmdFillBuffer(cmd, buffer, 0, (bytes + 3) & ~VkDeviceSize(3), 0);
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0,
                          nullptr, 0, nullptr);
}

}  // namespace vkindex::bench
