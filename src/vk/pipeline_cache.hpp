// A VkPipelineCache persisted to disk, so a second process start skips shader compilation. The file
// name carries the vendor, device, driver version and pipelineCacheUUID; a file whose header does not
// match the device is ignored rather than handed to the driver.
#pragma once

#include <string>

#include "vk/device.hpp"

namespace vkindex::vk {

class PipelineCache {
 public:
  // `directory` empty: an in-memory cache only. Otherwise loads `directory`/<key>.bin if present.
  static StatusOr<std::unique_ptr<PipelineCache>> create(const Device& device, const std::string& directory);
  ~PipelineCache();  // saves (best effort) and destroys
  PipelineCache(const PipelineCache&) = delete;
  PipelineCache& operator=(const PipelineCache&) = delete;

  VkPipelineCache handle() const { return cache_; }
  // Writes the cache file now (atomically: temporary file, then rename).
  Status save() const;
  // The file this cache loads from and saves to; empty when not persisted.
  const std::string& path() const { return path_; }
  // Whether usable data was loaded from disk at creation.
  bool loadedFromDisk() const { return loaded_; }

 private:
  PipelineCache() = default;

  const Device* device_ = nullptr;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  std::string path_;
  bool loaded_ = false;
};

// The default cache directory: $VKINDEX_PIPELINE_CACHE_DIR, else $XDG_CACHE_HOME/vkindex, else
// $HOME/.cache/vkindex, else none.
std::string defaultPipelineCacheDirectory();

}  // namespace vkindex::vk
