#include "vk/pipeline_cache.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace vkindex::vk {
namespace {

std::string cacheFileName(const DeviceInfo& info) {
  char name[128];
  std::snprintf(name, sizeof(name), "pipelines-%04x-%04x-%08x-", info.vendor_id, info.device_id, info.driver_version);
  std::string result = name;
  for (uint8_t byte : info.pipeline_cache_uuid) {
    std::snprintf(name, sizeof(name), "%02x", byte);
    result += name;
  }
  return result + ".bin";
}

// Checks the VkPipelineCacheHeaderVersionOne at the start of `data` against this device: drivers are
// meant to reject foreign data themselves, but not all do so gracefully.
bool headerMatches(const std::vector<char>& data, const DeviceInfo& info) {
  if (data.size() < 32) return false;
  uint32_t words[4];
  std::memcpy(words, data.data(), sizeof(words));
  return words[0] >= 32 && words[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && words[2] == info.vendor_id &&
         words[3] == info.device_id && std::memcmp(data.data() + 16, info.pipeline_cache_uuid.data(), 16) == 0;
}

void makeDirectories(const std::string& path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    ::mkdir(path.substr(0, slash).c_str(), 0755);
    if (slash == std::string::npos) break;
  }
}

}  // namespace

std::string defaultPipelineCacheDirectory() {
  if (const char* dir = std::getenv("VKINDEX_PIPELINE_CACHE_DIR")) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::string(xdg) + "/vkindex";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::string(home) + "/.cache/vkindex";
  }
  return "";
}

StatusOr<std::unique_ptr<PipelineCache>> PipelineCache::create(const Device& device, const std::string& directory) {
  std::unique_ptr<PipelineCache> cache(new PipelineCache());
  cache->device_ = &device;
  std::vector<char> data;
  if (!directory.empty()) {
    cache->path_ = directory + "/" + cacheFileName(device.info());
    std::ifstream file(cache->path_, std::ios::binary);
    if (file) data.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    if (!headerMatches(data, device.info())) data.clear();
  }
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  VKINDEX_VK_RETURN_IF_ERROR(device.fn().vkCreatePipelineCache(device.handle(), &info, nullptr, &cache->cache_));
  cache->loaded_ = !data.empty();
  return cache;
}

Status PipelineCache::save() const {
  if (path_.empty()) return Status::Ok();
  const VolkDeviceTable& fn = device_->fn();
  size_t size = 0;
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkGetPipelineCacheData(device_->handle(), cache_, &size, nullptr));
  std::vector<char> data(size);
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkGetPipelineCacheData(device_->handle(), cache_, &size, data.data()));
  makeDirectories(path_.substr(0, path_.rfind('/')));
  // Unique per process and cache object, so concurrent writers never share a temporary file.
  std::string temporary =
      path_ + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(reinterpret_cast<uintptr_t>(this));
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file.write(data.data(), static_cast<std::streamsize>(size));
    if (!file) return deviceError("could not write the pipeline cache to " + temporary);
  }
  if (std::rename(temporary.c_str(), path_.c_str()) != 0) {
    std::remove(temporary.c_str());
    return deviceError("could not replace the pipeline cache file " + path_);
  }
  return Status::Ok();
}

PipelineCache::~PipelineCache() {
  if (cache_ == VK_NULL_HANDLE) return;
  (void)save();  // best effort: a read-only cache directory must not break the application
  device_->fn().vkDestroyPipelineCache(device_->handle(), cache_, nullptr);
}

}  // namespace vkindex::vk
