// A VkPipelineCache persisted to disk, so a second process start skips shader compilation. The file
// name carries the vendor, device, driver version and pipelineCacheUUID. The directory may be shared
// by processes and users, so whatever is found there costs at most a cold cache and a warning: the file
// is read with platform/cache_file's guards (no links, FIFOs or devices followed, a size cap) and its
// checksum and Vulkan header are checked (vk/pipeline_cache_file.hpp) before the driver sees a byte.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "vk/device.hpp"

namespace vkindex::vk {

class PipelineCache {
 public:
  // `directory` empty: an in-memory cache only. Otherwise loads `directory`/<key>.bin if present; a file
  // that cannot be used gives an empty cache and a warning (loadWarning(), and stderr), never an error.
  static StatusOr<std::unique_ptr<PipelineCache>> create(const Device& device, const std::string& directory);
  ~PipelineCache();  // saves (best effort: a failure is a warning on stderr) and destroys
  PipelineCache(const PipelineCache&) = delete;
  PipelineCache& operator=(const PipelineCache&) = delete;

  VkPipelineCache handle() const { return cache_; }
  // Makes sure the file holds this cache: writes it (atomically: a temporary file, then rename) unless
  // the driver's data is what this object loaded from or last wrote to the file, or is unchanged since
  // the load. Rewriting unchanged data would only churn the disk, and SwiftShader would grow the file by
  // 32 bytes per run (it returns a header of its own followed by the data it was given). Thread-safe.
  Status save() const;
  // The file this cache loads from and saves to; empty when not persisted.
  const std::string& path() const { return path_; }
  // Whether usable data was loaded from disk at creation.
  bool loadedFromDisk() const { return loaded_; }
  // Why the file was not loaded at creation; empty when it was, or when there was none.
  const std::string& loadWarning() const { return load_warning_; }

 private:
  // Driver data recognised without keeping a copy of it.
  struct DataIdentity {
    size_t size = 0;
    uint64_t checksum = 0;
    bool operator==(const DataIdentity& other) const { return size == other.size && checksum == other.checksum; }
  };

  PipelineCache() = default;
  // The driver data in the file: empty when there is none, or (with a warning) when it cannot be used.
  std::vector<char> loadFile();
  // vkGetPipelineCacheData's bytes, after `front` zero bytes left for a header.
  StatusOr<std::vector<char>> driverData(size_t front) const;
  void warnOnLoad(const std::string& message);

  const Device* device_ = nullptr;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  std::string path_;
  bool loaded_ = false;
  std::string load_warning_;
  std::optional<DataIdentity> after_load_;  // the driver's data right after loading the file

  mutable std::mutex save_mutex_;                // save() may run on several threads at once
  mutable std::optional<DataIdentity> in_file_;  // what the file holds, as far as this object knows
};

// The default cache directory: $VKINDEX_PIPELINE_CACHE_DIR, else $XDG_CACHE_HOME/vkindex, else
// $HOME/.cache/vkindex, else none (an in-memory cache: Android, for one, has no HOME).
std::string defaultPipelineCacheDirectory();

}  // namespace vkindex::vk
