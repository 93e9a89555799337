// The two yardsticks every operator row is compared with, recorded over exactly the operator's output
// bytes: vkCmdCopyBuffer (what the driver's transfer path reaches) and vkindex's own compute copy
// shader (the ceiling for any compute shader that moves the same bytes).
#pragma once

#include <vector>

#include "core/context_impl.hpp"
#include "kernels/recorder.hpp"
#include "plan/tuning.hpp"

namespace vkindex::bench {

// vkCmdCopyBuffer of `bytes` bytes from the start of `source` to the start of `target`.
void recordCopyBuffer(const vk::Device& device, VkCommandBuffer cmd, VkBuffer source, VkBuffer target,
                      VkDeviceSize bytes);

// How the compute copy spreads quads over invocations (copy.comp): `lanes` invocations per segment
// of lanes x items quads, each moved as a uvec4 or, with `int64_components`, a u64vec2 (copy_int64);
// with `batched_loads`, whole segments load four quads before storing them; in groups of `workgroup`
// invocations (0: the device's Tuning::workgroup_size).
struct CopyLayout {
  uint32_t lanes = 1;
  uint32_t items = 1;
  bool int64_components = false;
  bool batched_loads = false;
  uint32_t workgroup = 0;
};

// The layouts the benchmark times, the fastest being the ceiling: the device's workgroup as one
// coalesced segment of its items per invocation (GPU style), the row gathers' own segments
// (Tuning::row_lanes x row_items), plain and with batched loads as the row gathers move whole
// segments, and 2 lanes x 128 quads (the best plain layout measured on lavapipe); where the row
// gathers move 64-bit components (Tuning::int64_units), each of them that way too.
std::vector<CopyLayout> computeCopyLayouts(const plan::Tuning& tuning);

// ShaderId::kCopy (or kCopyInt64) in `layout` over the same bytes, rounded up to whole uvec4s (vkindex buffers are
// allocated in 16-byte multiples, so the rounding stays inside both buffers). Splits the range into bindings the device
// can bind. Returns the descriptor pool the dispatches use: keep it until the commands completed. The offsets (from
// the buffers' starts) must be multiples of the device's storage-buffer offset alignment.
StatusOr<kernels::DescriptorPool> recordComputeCopy(Context::Impl& context, VkCommandBuffer cmd, VkBuffer source,
                                                    VkBuffer target, VkDeviceSize bytes, CopyLayout layout,
                                                    VkDeviceSize source_offset = 0, VkDeviceSize target_offset = 0);

// Zeroes `bytes` (rounded up to a word) of `buffer` and orders that before later copies and shaders
// writing it, so a verification run cannot pass on bytes left over from an earlier run.
void recordClear(const vk::Device& device, VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize bytes);

}  // namespace vkindex::bench
