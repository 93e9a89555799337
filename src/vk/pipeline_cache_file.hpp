// The pipeline cache file's format: vkindex's 32-byte header, then the driver's vkGetPipelineCacheData
// bytes unchanged. The header carries the driver data's size and a checksum, so a truncated, padded or
// damaged file is recognised before anything reaches the driver: drivers parse this data with varying
// care, and Vulkan requires pInitialData to be what vkGetPipelineCacheData once returned. The driver
// data's own VkPipelineCacheHeaderVersionOne must then describe the device.
//
// The header is in host byte order: a cache file describes one device on one machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vkindex/device_info.hpp"
#include "vkindex/status.hpp"

namespace vkindex::vk {

// The largest file a PipelineCache loads or writes. vkindex has a few dozen compute pipelines; they
// serialize to 32-byte headers on lavapipe and SwiftShader and to at most a few MiB on other drivers.
// Past 64 MiB a file is damage or malice, and reading it would cost every context creation memory and
// time, seconds for a file a few times the cap (docs/measurements/).
inline constexpr size_t kMaxPipelineCacheFileBytes = size_t{64} << 20;

// vkindex's header, before the driver's data.
inline constexpr size_t kPipelineCacheFileHeaderBytes = 32;

// A span of driver data inside a file's bytes.
struct PipelineCachePayload {
  const char* data = nullptr;
  size_t size = 0;
};

// Checks `file` (vkindex's header, the size, the checksum, and the driver data's Vulkan header against
// `device`) and returns the driver data in it. The error says what is wrong.
StatusOr<PipelineCachePayload> openPipelineCacheFile(const std::vector<char>& file, const DeviceInfo& device);

// Fills in the header of `file`: its first kPipelineCacheFileHeaderBytes are reserved for it and the
// rest is the driver's data.
void sealPipelineCacheFile(std::vector<char>* file);

// FNV-1a (64-bit) of `size` bytes: the file's checksum, and how a PipelineCache recognises driver data
// it has seen before. It catches damage, not forgery: whoever can write the cache directory can also
// write a file with a matching checksum.
uint64_t pipelineCacheChecksum(const char* data, size_t size);

}  // namespace vkindex::vk
