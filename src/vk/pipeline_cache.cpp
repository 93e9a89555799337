#include "vk/pipeline_cache.hpp"

#include <cstdio>
#include <cstdlib>

#include "platform/cache_file.hpp"
#include "vk/pipeline_cache_file.hpp"

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

// vkGetPipelineCacheData returns VK_INCOMPLETE when pipelines were added between asking for the size
// and copying; a few retries outlast any realistic burst of pipeline creation on other threads.
constexpr int kDataAttempts = 4;

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
    data = cache->loadFile();
  }
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  VkResult result = device.fn().vkCreatePipelineCache(device.handle(), &info, nullptr, &cache->cache_);
  if (result != VK_SUCCESS && !data.empty()) {
    cache->warnOnLoad("the driver refused the data in " + cache->path_ + " (" + resultName(result) +
                      "); starting with an empty cache");
    data.clear();
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    result = device.fn().vkCreatePipelineCache(device.handle(), &info, nullptr, &cache->cache_);
  }
  VKINDEX_RETURN_IF_ERROR(checkResult(result, "vkCreatePipelineCache"));
  if (!data.empty()) {
    cache->loaded_ = true;
    cache->in_file_ = DataIdentity{data.size(), pipelineCacheChecksum(data.data(), data.size())};
    // What the driver makes of the file (SwiftShader: its own header, then the file's data): while the
    // cache still holds exactly this, saving would add nothing.
    StatusOr<std::vector<char>> loaded = cache->driverData(0);
    if (loaded.ok()) {
      cache->after_load_ = DataIdentity{loaded->size(), pipelineCacheChecksum(loaded->data(), loaded->size())};
    }
  }
  return cache;
}

std::vector<char> PipelineCache::loadFile() {
  StatusOr<platform::CacheFileContents> read = platform::readCacheFile(path_, kMaxPipelineCacheFileBytes);
  if (!read.ok()) {
    warnOnLoad("ignoring the cache file: " + read.status().message() + "; starting with an empty cache");
    return {};
  }
  if (!read->exists) return {};
  std::vector<char> file = std::move(read->bytes);
  StatusOr<PipelineCachePayload> payload = openPipelineCacheFile(file, device_->info());
  if (!payload.ok()) {
    warnOnLoad("ignoring " + path_ + ": " + payload.status().message() + "; starting with an empty cache");
    return {};
  }
  file.erase(file.begin(), file.begin() + kPipelineCacheFileHeaderBytes);
  return file;
}

StatusOr<std::vector<char>> PipelineCache::driverData(size_t front) const {
  const VolkDeviceTable& fn = device_->fn();
  for (int attempt = 0; attempt < kDataAttempts; ++attempt) {
    size_t size = 0;
    VKINDEX_VK_RETURN_IF_ERROR(fn.vkGetPipelineCacheData(device_->handle(), cache_, &size, nullptr));
    if (size > kMaxPipelineCacheFileBytes - kPipelineCacheFileHeaderBytes) {
      return deviceError("the driver's pipeline cache holds " + std::to_string(size) + " bytes, more than the " +
                         std::to_string(kMaxPipelineCacheFileBytes) + " a cache file may; not written to " + path_);
    }
    std::vector<char> data(front + size);
    const VkResult result = fn.vkGetPipelineCacheData(device_->handle(), cache_, &size, data.data() + front);
    if (result == VK_INCOMPLETE) continue;
    VKINDEX_RETURN_IF_ERROR(checkResult(result, "vkGetPipelineCacheData"));
    data.resize(front + size);
    return data;
  }
  return deviceError("the pipeline cache kept growing while it was saved to " + path_);
}

Status PipelineCache::save() const {
  if (path_.empty()) return Status::Ok();
  std::lock_guard<std::mutex> lock(save_mutex_);
  VKINDEX_ASSIGN_OR_RETURN(std::vector<char> file, driverData(kPipelineCacheFileHeaderBytes));
  const char* data = file.data() + kPipelineCacheFileHeaderBytes;
  const DataIdentity now{file.size() - kPipelineCacheFileHeaderBytes,
                         pipelineCacheChecksum(data, file.size() - kPipelineCacheFileHeaderBytes)};
  if (now == in_file_ || now == after_load_) return Status::Ok();
  sealPipelineCacheFile(&file);
  VKINDEX_RETURN_IF_ERROR(platform::replaceCacheFile(path_, file.data(), file.size()));
  in_file_ = now;
  return Status::Ok();
}

void PipelineCache::warnOnLoad(const std::string& message) {
  std::fprintf(stderr, "vkindex: pipeline cache: %s\n", message.c_str());
  load_warning_ = message;
}

PipelineCache::~PipelineCache() {
  if (cache_ == VK_NULL_HANDLE) return;
  // Best effort: a read-only or damaged cache directory must not break the application.
  Status saved = save();
  if (!saved.ok()) std::fprintf(stderr, "vkindex: pipeline cache: %s\n", saved.message().c_str());
  device_->fn().vkDestroyPipelineCache(device_->handle(), cache_, nullptr);
}

}  // namespace vkindex::vk
