#include "vk/pipeline_cache_file.hpp"

#include <cassert>
#include <cstring>
#include <string>

#include "vk/vulkan.hpp"

namespace vkindex::vk {
namespace {

// vkindex's header, as laid out in the file.
struct FileHeader {
  char magic[8];
  uint32_t format_version;
  uint32_t header_bytes;
  uint64_t payload_bytes;
  uint64_t payload_checksum;
};
static_assert(sizeof(FileHeader) == kPipelineCacheFileHeaderBytes, "the header is 32 bytes, without padding");

constexpr char kMagic[8] = {'v', 'k', 'i', 'n', 'd', 'e', 'x', '\0'};
// Raised whenever the layout changes: older files then read as foreign, a cold cache.
constexpr uint32_t kFormatVersion = 1;

// VkPipelineCacheHeaderVersionOne: headerSize, headerVersion, vendorID, deviceID, pipelineCacheUUID.
constexpr size_t kVulkanHeaderBytes = 32;

Status checkVulkanHeader(const PipelineCachePayload& payload, const DeviceInfo& device) {
  if (payload.size < kVulkanHeaderBytes) {
    return deviceError("the driver data (" + std::to_string(payload.size) + " bytes) is shorter than a Vulkan header");
  }
  uint32_t words[4];
  std::memcpy(words, payload.data, sizeof(words));
  // Vulkan fixes headerSize at 32 today; a longer header is accepted as long as it fits the data.
  if (words[0] < kVulkanHeaderBytes || words[0] > payload.size) {
    return deviceError("the Vulkan header claims " + std::to_string(words[0]) + " bytes");
  }
  if (words[1] != VK_PIPELINE_CACHE_HEADER_VERSION_ONE) {
    return deviceError("unknown Vulkan header version " + std::to_string(words[1]));
  }
  if (words[2] != device.vendor_id || words[3] != device.device_id) {
    return deviceError("written for another device (vendor " + std::to_string(words[2]) + ", device " +
                       std::to_string(words[3]) + ")");
  }
  if (std::memcmp(payload.data + 16, device.pipeline_cache_uuid.data(), 16) != 0) {
    return deviceError("written for another pipelineCacheUUID");
  }
  return Status::Ok();
}

}  // namespace

uint64_t pipelineCacheChecksum(const char* data, size_t size) {
  uint64_t hash = 0xCBF29CE484222325u;  // FNV-1a's 64-bit offset basis and prime
  for (size_t i = 0; i < size; ++i) {
    hash = (hash ^ static_cast<unsigned char>(data[i])) * 0x100000001B3u;
  }
  return hash;
}

StatusOr<PipelineCachePayload> openPipelineCacheFile(const std::vector<char>& file, const DeviceInfo& device) {
  if (file.size() < kPipelineCacheFileHeaderBytes) {
    return deviceError("only " + std::to_string(file.size()) + " bytes, less than a header");
  }
  FileHeader header;
  std::memcpy(&header, file.data(), sizeof(header));
  if (std::memcmp(header.magic, kMagic, sizeof(kMagic)) != 0) return deviceError("not a vkindex pipeline cache file");
  if (header.format_version != kFormatVersion || header.header_bytes != kPipelineCacheFileHeaderBytes) {
    return deviceError("format version " + std::to_string(header.format_version) + ", expected " +
                       std::to_string(kFormatVersion));
  }
  const PipelineCachePayload payload{file.data() + kPipelineCacheFileHeaderBytes,
                                     file.size() - kPipelineCacheFileHeaderBytes};
  if (header.payload_bytes != payload.size) {
    return deviceError("holds " + std::to_string(payload.size) + " bytes of driver data, its header says " +
                       std::to_string(header.payload_bytes) + " (truncated or padded)");
  }
  if (header.payload_checksum != pipelineCacheChecksum(payload.data, payload.size)) {
    return deviceError("the driver data does not match its checksum (damaged)");
  }
  VKINDEX_RETURN_IF_ERROR(checkVulkanHeader(payload, device));
  return payload;
}

void sealPipelineCacheFile(std::vector<char>* file) {
  assert(file->size() >= kPipelineCacheFileHeaderBytes);
  FileHeader header{};
  std::memcpy(header.magic, kMagic, sizeof(kMagic));
  header.format_version = kFormatVersion;
  header.header_bytes = kPipelineCacheFileHeaderBytes;
  header.payload_bytes = file->size() - kPipelineCacheFileHeaderBytes;
  header.payload_checksum =
      pipelineCacheChecksum(file->data() + kPipelineCacheFileHeaderBytes, file->size() - kPipelineCacheFileHeaderBytes);
  std::memcpy(file->data(), &header, sizeof(header));
}

}  // namespace vkindex::vk
