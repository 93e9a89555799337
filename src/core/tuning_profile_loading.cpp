#include "core/tuning_profile_loading.hpp"

#include <cstdio>
#include <cstdlib>

#include "platform/cache_file.hpp"

namespace vkindex {
namespace {

TuningProfileLoad refuse(TuningProfileLoad load, const std::string& reason) {
  load.warning = "ignoring " + load.path + ": " + reason + "; using the tuning table";
  std::fprintf(stderr, "vkindex: tuning profile: %s\n", load.warning.c_str());
  return load;
}

}  // namespace

std::string tuningProfileFileName(const DeviceInfo& device) {
  char name[64];
  std::snprintf(name, sizeof(name), "tuning-%04x-%04x-%08x-", device.vendor_id, device.device_id,
                device.driver_version);
  std::string result = name;
  for (uint8_t byte : device.pipeline_cache_uuid) {
    std::snprintf(name, sizeof(name), "%02x", byte);
    result += name;
  }
  return result + ".json";
}

std::string defaultTuningProfilePath(const DeviceInfo& device, const std::string& cache_dir) {
  return cache_dir.empty() ? "" : cache_dir + "/" + tuningProfileFileName(device);
}

TuningProfileLoad loadTuningProfile(const DeviceInfo& device, const std::optional<std::string>& requested,
                                    const std::string& cache_dir) {
  TuningProfileLoad load;
  bool named = true;
  if (requested) {
    load.path = *requested;
  } else if (const char* variable = std::getenv("VKINDEX_TUNING_PROFILE"); variable != nullptr && *variable) {
    load.path = variable;
  } else {
    load.path = defaultTuningProfilePath(device, cache_dir);
    named = false;
  }
  if (load.path.empty()) return load;
  StatusOr<platform::CacheFileContents> file = platform::readCacheFile(load.path, plan::kMaxTuningProfileBytes);
  if (!file.ok()) return refuse(std::move(load), file.status().message());
  if (!file->exists) return named ? refuse(std::move(load), "no such file") : load;
  StatusOr<plan::TuningProfile> profile = plan::parseTuningProfile(file->bytes.data(), file->bytes.size());
  if (!profile.ok()) return refuse(std::move(load), profile.status().message());
  if (Status fits = plan::checkTuningProfileFits(*profile, device); !fits.ok()) {
    return refuse(std::move(load), fits.message());
  }
  load.profile = std::move(*profile);
  return load;
}

}  // namespace vkindex
