// Finding and reading a Context's tuning profile (plan/tuning_profile.hpp): from ContextOptions, the
// VKINDEX_TUNING_PROFILE variable, or the pipeline cache folder. A profile that cannot be used costs
// one warning (stderr, and the result's `warning`) and the tuning table's values, never an error.
#pragma once

#include <optional>
#include <string>

#include "plan/tuning_profile.hpp"
#include "vkindex/device_info.hpp"

namespace vkindex {

// The file name `vkindex tune` writes into the pipeline cache folder for `device`, and a Context
// looks for there: tuning-<vendor>-<device>-<driver version>-<pipeline cache UUID>.json.
std::string tuningProfileFileName(const DeviceInfo& device);

// The profile path `cache_dir` implies for `device` ("" when there is no cache folder).
std::string defaultTuningProfilePath(const DeviceInfo& device, const std::string& cache_dir);

struct TuningProfileLoad {
  std::string path;                            // the file looked at; "" when none was
  std::optional<plan::TuningProfile> profile;  // set when it was read and fits the device
  std::string warning;                         // why a file that was there (or was asked for) is not used
};

// `requested` is ContextOptions::tuning_profile: a path, "" for none, or nullopt for
// $VKINDEX_TUNING_PROFILE, else defaultTuningProfilePath(device, cache_dir). A missing file is a
// warning only where it was asked for by name.
TuningProfileLoad loadTuningProfile(const DeviceInfo& device, const std::optional<std::string>& requested,
                                    const std::string& cache_dir);

}  // namespace vkindex
