// A tuning profile: the tuning values `vkindex tune` measured on one device, with the measurements
// behind each, in a small versioned JSON file (docs/tuning.md#profiles). A Context takes it on top of
// the tuning table (ContextOverrides still win).
//
// The file is untrusted input, like the pipeline cache file: whatever it holds, reading it costs at
// most the table's defaults and one warning. So the parser is strict (one schema, one version, bounded
// sizes and nesting, every value range-checked against the device) and never aborts or throws.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "plan/tuning.hpp"
#include "vkindex/device_info.hpp"
#include "vkindex/status.hpp"

namespace vkindex::plan {

// The format's version; a file of any other version is refused (a future vkindex writes a new one).
inline constexpr uint32_t kTuningProfileVersion = 1;
// The largest profile file read: about 4 KiB per value is far more than tune writes.
inline constexpr size_t kMaxTuningProfileBytes = size_t{64} << 10;
// The most measurements kept per value (tune's sweeps have a few dozen candidates at most).
inline constexpr size_t kMaxTuningMeasurements = 64;

// The device and library a profile was measured with. A profile applies only where all of these
// match the running device exactly; the name is for people reading the file.
struct TuningProfileIdentity {
  std::string device_name;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t driver_version = 0;
  std::array<uint8_t, 16> pipeline_cache_uuid{};
  std::string vkindex_version;  // libraryVersion() of the tune run
};

// One candidate of a sweep and its median device time.
struct TuningMeasurement {
  uint64_t candidate = 0;
  double median_ms = 0;
};

// One measured value: the setting chosen, the probe that decided it, and the sweep.
struct TuningProfileEntry {
  TuningValue value = TuningValue::kCount;
  uint64_t setting = 0;
  std::string probe;  // what was timed, in words
  std::vector<TuningMeasurement> measurements;
};

struct TuningProfile {
  TuningProfileIdentity identity;
  std::vector<TuningProfileEntry> entries;  // at most one per TuningValue
};

// The identity of `device` running this vkindex.
TuningProfileIdentity tuningProfileIdentityOf(const DeviceInfo& device);

// The profile as the JSON text tune writes (UINT64_MAX written as the integer it is). A time JSON
// cannot hold or the reader refuses is written as the nearest it reads: NaN and negatives as 0, +inf
// as DBL_MAX.
std::string formatTuningProfile(const TuningProfile& profile);

// Reads a profile's text. Errors say what is wrong: not JSON, too large or deep, another format or
// version, a missing or mistyped field, an unknown value name, a value given twice.
StatusOr<TuningProfile> parseTuningProfile(const char* text, size_t size);

// Whether `profile` may tune `device`: its identity matches and every setting lies in its value's
// tuningRange on the device. The error names the first mismatch or the value out of range.
Status checkTuningProfileFits(const TuningProfile& profile, const DeviceInfo& device);

// Sets each entry's value in `choice` and marks it TuningSource::kProfile, then fits the tuning
// (fitTuning). The profile must have passed checkTuningProfileFits for the device.
void applyTuningProfile(const TuningProfile& profile, TuningChoice& choice);

}  // namespace vkindex::plan
