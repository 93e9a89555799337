// Host <-> device copies through a staging buffer, and the barriers that order them against kernels.
#pragma once

#include "core/context_impl.hpp"

namespace vkindex {

// Uploads and downloads go through a staging buffer of at most this many bytes, a chunk at a time, so
// copying a tensor needs O(chunk) extra memory rather than a second copy of the tensor. 64 MiB: large
// enough that per-submission overhead is noise, small beside any device's heap.
inline constexpr uint64_t kStagingChunkBytes = uint64_t(64) << 20;

// Copies `size` host bytes to `buffer` at `offset` and waits.
Status uploadBytes(Context::Impl& context, VkBuffer buffer, VkDeviceSize offset, const void* bytes, VkDeviceSize size);
// Copies `size` bytes at `offset` of `buffer` to host memory and waits.
Status downloadBytes(Context::Impl& context, VkBuffer buffer, VkDeviceSize offset, void* bytes, VkDeviceSize size);

// Stage and access masks covering every way vkindex itself writes or reads a tensor buffer: the
// transfers above and compute shaders. Prologue barriers use them to order a new submission after
// everything earlier on the queue.
inline constexpr VkPipelineStageFlags kTensorStages =
    VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
inline constexpr VkAccessFlags kTensorWrites = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;

}  // namespace vkindex
