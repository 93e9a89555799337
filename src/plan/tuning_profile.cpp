// Tuning profiles (tuning_profile.hpp): the one JSON shape tune writes, read back strictly, and the
// checks that keep a profile to the device and library it was measured with. The file is written as
//   {
//     "format": "vkindex tuning profile",
//     "version": 1,
//     "vkindex_version": "0.1.0",
//     "device": {"name": ..., "vendor_id": ..., "device_id": ..., "driver_version": ...,
//                "pipeline_cache_uuid": "<32 lowercase hex digits>"},
//     "values": {
//       "row_items": {"value": 4, "probe": "...", "measurements": [{"candidate": 1, "ms": 0.25}, ...]},
//       ...
//     }
//   }
// one value per line, so two profiles diff value by value. Every field is required (measurements
// may be empty), no other key is allowed, and booleans are written as the integers 0 and 1.
#include "plan/tuning_profile.hpp"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "plan/profile_json.hpp"
#include "vkindex/version.hpp"

namespace vkindex::plan {
namespace {

constexpr const char* kTuningProfileFormat = "vkindex tuning profile";
// The longest name, probe or version string read (a Vulkan device name has at most 255 bytes).
constexpr size_t kMaxTuningProfileString = 256;
// Root, device or values, an entry, its measurements, one measurement: 5 deep; a little room.
constexpr uint32_t kMaxTuningProfileDepth = 16;

Status profileErrorAt(const std::string& what, const JsonValue& at) {
  return invalidArgument("tuning profile: " + what + " (at byte " + std::to_string(at.offset) + ")");
}

// `object` must be an object holding exactly the keys `required` (`where` names it in errors).
Status checkProfileKeys(const JsonValue& object, const std::string& where,
                        std::initializer_list<const char*> required) {
  if (object.kind != JsonValue::Kind::kObject) {
    return profileErrorAt(where + " is " + jsonKindName(object.kind) + ", not an object", object);
  }
  for (size_t i = 0; i < object.keys.size(); ++i) {
    bool known = false;
    for (const char* key : required) known = known || object.keys[i] == key;
    if (!known) return profileErrorAt("unknown key \"" + object.keys[i] + "\" in " + where, object.items[i]);
  }
  for (const char* key : required) {
    if (object.member(key) == nullptr) return profileErrorAt(where + " has no \"" + key + "\"", object);
  }
  return Status::Ok();
}

StatusOr<uint64_t> readProfileUnsigned(const JsonValue& value, const std::string& what, uint64_t most) {
  if (value.kind != JsonValue::Kind::kInteger) {
    return profileErrorAt(what + " is " + jsonKindName(value.kind) + ", not a non-negative integer", value);
  }
  if (value.integer > most) {
    return profileErrorAt(what + " " + std::to_string(value.integer) + " is larger than " + std::to_string(most),
                          value);
  }
  return value.integer;
}

StatusOr<uint32_t> readProfileUint32(const JsonValue& value, const std::string& what) {
  VKINDEX_ASSIGN_OR_RETURN(const uint64_t wide, readProfileUnsigned(value, what, UINT32_MAX));
  return static_cast<uint32_t>(wide);
}

StatusOr<std::string> readProfileString(const JsonValue& value, const std::string& what) {
  if (value.kind != JsonValue::Kind::kString) {
    return profileErrorAt(what + " is " + jsonKindName(value.kind) + ", not a string", value);
  }
  if (value.text.size() > kMaxTuningProfileString) {
    return profileErrorAt(what + " is longer than " + std::to_string(kMaxTuningProfileString) + " bytes", value);
  }
  return value.text;
}

// Milliseconds: any finite number from 0 up (an integral one reads as an integer).
StatusOr<double> readProfileMilliseconds(const JsonValue& value, const std::string& what) {
  if (value.kind == JsonValue::Kind::kInteger) return static_cast<double>(value.integer);
  if (value.kind != JsonValue::Kind::kNumber) {
    return profileErrorAt(what + " is " + jsonKindName(value.kind) + ", not a number", value);
  }
  if (!std::isfinite(value.number) || value.number < 0) {
    return profileErrorAt(what + " is negative", value);
  }
  return value.number;
}

std::string uuidHex(const std::array<uint8_t, 16>& uuid) {
  static const char kHex[] = "0123456789abcdef";
  std::string text;
  for (const uint8_t byte : uuid) {
    text += kHex[byte >> 4];
    text += kHex[byte & 0xF];
  }
  return text;
}

StatusOr<std::array<uint8_t, 16>> readProfileUuid(const JsonValue& value) {
  VKINDEX_ASSIGN_OR_RETURN(const std::string text, readProfileString(value, "pipeline_cache_uuid"));
  std::array<uint8_t, 16> uuid{};
  const auto nibble = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  bool hex = text.size() == 2 * uuid.size();
  for (size_t i = 0; hex && i < uuid.size(); ++i) {
    const int high = nibble(text[2 * i]), low = nibble(text[2 * i + 1]);
    hex = high >= 0 && low >= 0;
    uuid[i] = static_cast<uint8_t>(high * 16 + low);
  }
  if (!hex) return profileErrorAt("pipeline_cache_uuid \"" + text + "\" is not 32 hex digits", value);
  return uuid;
}

Status readProfileDevice(const JsonValue& device, TuningProfileIdentity& identity) {
  VKINDEX_RETURN_IF_ERROR(
      checkProfileKeys(device, "device", {"name", "vendor_id", "device_id", "driver_version", "pipeline_cache_uuid"}));
  VKINDEX_ASSIGN_OR_RETURN(identity.device_name, readProfileString(*device.member("name"), "device name"));
  VKINDEX_ASSIGN_OR_RETURN(identity.vendor_id, readProfileUint32(*device.member("vendor_id"), "vendor_id"));
  VKINDEX_ASSIGN_OR_RETURN(identity.device_id, readProfileUint32(*device.member("device_id"), "device_id"));
  VKINDEX_ASSIGN_OR_RETURN(identity.driver_version,
                           readProfileUint32(*device.member("driver_version"), "driver_version"));
  VKINDEX_ASSIGN_OR_RETURN(identity.pipeline_cache_uuid, readProfileUuid(*device.member("pipeline_cache_uuid")));
  return Status::Ok();
}

// One member of "values": `name` must be a tuning value's.
StatusOr<TuningProfileEntry> readProfileEntry(const std::string& name, const JsonValue& object) {
  TuningProfileEntry entry;
  entry.value = tuningValueNamed(name);
  if (entry.value == TuningValue::kCount) return profileErrorAt("unknown tuning value \"" + name + "\"", object);
  VKINDEX_RETURN_IF_ERROR(checkProfileKeys(object, "value " + name, {"value", "probe", "measurements"}));
  VKINDEX_ASSIGN_OR_RETURN(entry.setting, readProfileUnsigned(*object.member("value"), name, UINT64_MAX));
  VKINDEX_ASSIGN_OR_RETURN(entry.probe, readProfileString(*object.member("probe"), name + " probe"));
  const JsonValue& sweep = *object.member("measurements");
  if (sweep.kind != JsonValue::Kind::kArray) {
    return profileErrorAt(name + " measurements is " + jsonKindName(sweep.kind) + ", not an array", sweep);
  }
  if (sweep.items.size() > kMaxTuningMeasurements) {
    return profileErrorAt(name + " has " + std::to_string(sweep.items.size()) + " measurements, more than " +
                              std::to_string(kMaxTuningMeasurements),
                          sweep);
  }
  for (const JsonValue& point : sweep.items) {
    VKINDEX_RETURN_IF_ERROR(checkProfileKeys(point, name + " measurement", {"candidate", "ms"}));
    TuningMeasurement measurement;
    VKINDEX_ASSIGN_OR_RETURN(measurement.candidate,
                             readProfileUnsigned(*point.member("candidate"), name + " candidate", UINT64_MAX));
    VKINDEX_ASSIGN_OR_RETURN(measurement.median_ms, readProfileMilliseconds(*point.member("ms"), name + " ms"));
    entry.measurements.push_back(measurement);
  }
  return entry;
}

// "10de:2335 driver 0x02350000 (NVIDIA H200)"
std::string describeProfileDevice(uint32_t vendor_id, uint32_t device_id, uint32_t driver_version,
                                  const std::string& name) {
  char ids[64];
  std::snprintf(ids, sizeof(ids), "%04x:%04x driver 0x%08x", vendor_id, device_id, driver_version);
  return std::string(ids) + " (" + name + ")";
}

// Milliseconds as formatTuningProfile writes them: JSON has no inf or nan, and the reader refuses a
// negative time, so those become the nearest time it reads (NaN: 0).
double writableMilliseconds(double ms) {
  if (std::isnan(ms) || ms <= 0) return 0;
  return std::isinf(ms) ? DBL_MAX : ms;
}

}  // namespace

TuningProfileIdentity tuningProfileIdentityOf(const DeviceInfo& device) {
  TuningProfileIdentity identity;
  identity.device_name = device.name;
  identity.vendor_id = device.vendor_id;
  identity.device_id = device.device_id;
  identity.driver_version = device.driver_version;
  identity.pipeline_cache_uuid = device.pipeline_cache_uuid;
  identity.vkindex_version = libraryVersion();
  return identity;
}

std::string formatTuningProfile(const TuningProfile& profile) {
  const TuningProfileIdentity& identity = profile.identity;
  std::string out = "{\n  \"format\": ";
  appendJsonString(out, kTuningProfileFormat);
  out += ",\n  \"version\": " + std::to_string(kTuningProfileVersion) + ",\n  \"vkindex_version\": ";
  appendJsonString(out, identity.vkindex_version);
  out += ",\n  \"device\": {\"name\": ";
  appendJsonString(out, identity.device_name);
  out += ", \"vendor_id\": " + std::to_string(identity.vendor_id);
  out += ", \"device_id\": " + std::to_string(identity.device_id);
  out += ", \"driver_version\": " + std::to_string(identity.driver_version);
  out += ", \"pipeline_cache_uuid\": \"" + uuidHex(identity.pipeline_cache_uuid) + "\"},\n  \"values\": {";
  bool first = true;
  for (const TuningProfileEntry& entry : profile.entries) {
    if (entry.value >= TuningValue::kCount) continue;  // no name to write it under
    out += first ? "\n    " : ",\n    ";
    first = false;
    appendJsonString(out, tuningValueName(entry.value));
    out += ": {\"value\": " + std::to_string(entry.setting) + ", \"probe\": ";
    appendJsonString(out, entry.probe);
    out += ", \"measurements\": [";
    for (size_t i = 0; i < entry.measurements.size(); ++i) {
      out += i == 0 ? "{\"candidate\": " : ", {\"candidate\": ";
      out += std::to_string(entry.measurements[i].candidate) + ", \"ms\": ";
      appendJsonNumber(out, writableMilliseconds(entry.measurements[i].median_ms));
      out += '}';
    }
    out += "]}";
  }
  out += first ? "}\n}\n" : "\n  }\n}\n";
  return out;
}

StatusOr<TuningProfile> parseTuningProfile(const char* text, size_t size) {
  if (size > kMaxTuningProfileBytes) {
    return invalidArgument("tuning profile: " + std::to_string(size) + " bytes, more than the " +
                           std::to_string(kMaxTuningProfileBytes) + " a profile may have");
  }
  JsonLimits limits;
  limits.max_depth = kMaxTuningProfileDepth;
  limits.max_string_bytes = kMaxTuningProfileString;
  StatusOr<JsonValue> json = parseJson(text, size, limits);
  if (!json.ok()) return invalidArgument("tuning profile: not valid JSON: " + json.status().message());
  const JsonValue& root = *json;
  if (root.kind != JsonValue::Kind::kObject) {
    return profileErrorAt(std::string("the file holds ") + jsonKindName(root.kind) + ", not an object", root);
  }

  // Format and version before the other keys: another version may have other keys.
  const JsonValue* format = root.member("format");
  if (format == nullptr) return profileErrorAt("no \"format\": not a vkindex tuning profile", root);
  VKINDEX_ASSIGN_OR_RETURN(const std::string format_name, readProfileString(*format, "format"));
  if (format_name != kTuningProfileFormat) {
    return profileErrorAt("format \"" + format_name + "\" is not \"" + kTuningProfileFormat + "\"", *format);
  }
  const JsonValue* version = root.member("version");
  if (version == nullptr) return profileErrorAt("no \"version\"", root);
  VKINDEX_ASSIGN_OR_RETURN(const uint64_t version_number, readProfileUnsigned(*version, "version", UINT64_MAX));
  if (version_number != kTuningProfileVersion) {
    return invalidArgument("tuning profile version " + std::to_string(version_number) + " is not " +
                           std::to_string(kTuningProfileVersion) + ", the version this vkindex reads");
  }
  VKINDEX_RETURN_IF_ERROR(
      checkProfileKeys(root, "the profile", {"format", "version", "vkindex_version", "device", "values"}));

  TuningProfile profile;
  VKINDEX_ASSIGN_OR_RETURN(profile.identity.vkindex_version,
                           readProfileString(*root.member("vkindex_version"), "vkindex_version"));
  VKINDEX_RETURN_IF_ERROR(readProfileDevice(*root.member("device"), profile.identity));
  const JsonValue& values = *root.member("values");
  if (values.kind != JsonValue::Kind::kObject) {
    return profileErrorAt(std::string("values is ") + jsonKindName(values.kind) + ", not an object", values);
  }
  std::array<bool, kTuningValueCount> seen{};
  for (size_t i = 0; i < values.keys.size(); ++i) {
    VKINDEX_ASSIGN_OR_RETURN(TuningProfileEntry entry, readProfileEntry(values.keys[i], values.items[i]));
    bool& given = seen[static_cast<size_t>(entry.value)];
    // Unreachable through JSON, whose duplicate keys are refused; kept for the contract's sake.
    if (given) return profileErrorAt("value " + values.keys[i] + " given twice", values.items[i]);
    given = true;
    profile.entries.push_back(std::move(entry));
  }
  return profile;
}

Status checkTuningProfileFits(const TuningProfile& profile, const DeviceInfo& device) {
  const TuningProfileIdentity& identity = profile.identity;
  if (identity.vendor_id != device.vendor_id || identity.device_id != device.device_id ||
      identity.driver_version != device.driver_version) {
    return invalidArgument(
        "tuning profile was measured on device " +
        describeProfileDevice(identity.vendor_id, identity.device_id, identity.driver_version, identity.device_name) +
        ", not this device " +
        describeProfileDevice(device.vendor_id, device.device_id, device.driver_version, device.name));
  }
  if (identity.pipeline_cache_uuid != device.pipeline_cache_uuid) {
    return invalidArgument("tuning profile was measured with pipeline cache uuid " +
                           uuidHex(identity.pipeline_cache_uuid) + ", not this device's " +
                           uuidHex(device.pipeline_cache_uuid));
  }
  const std::string running = libraryVersion();
  if (identity.vkindex_version != running) {
    return invalidArgument("tuning profile was measured with vkindex " + identity.vkindex_version + ", this is " +
                           running);
  }
  std::array<bool, kTuningValueCount> seen{};
  for (const TuningProfileEntry& entry : profile.entries) {
    if (entry.value >= TuningValue::kCount) {
      return invalidArgument("tuning profile names tuning value " + std::to_string(size_t(entry.value)) +
                             ", which does not exist");
    }
    bool& given = seen[static_cast<size_t>(entry.value)];
    if (given) return invalidArgument(std::string("tuning profile gives ") + tuningValueName(entry.value) + " twice");
    given = true;
    const TuningRange range = tuningRange(entry.value, device);
    if (!range.contains(entry.setting)) {
      return invalidArgument(std::string("tuning profile value ") + tuningValueName(entry.value) + " = " +
                             std::to_string(entry.setting) + " is outside its range [" + std::to_string(range.least) +
                             ", " + std::to_string(range.most) + "] on this device");
    }
  }
  return Status::Ok();
}

void applyTuningProfile(const TuningProfile& profile, TuningChoice& choice) {
  for (const TuningProfileEntry& entry : profile.entries) {
    if (entry.value >= TuningValue::kCount) continue;  // checkTuningProfileFits refuses it
    setTuningValue(choice.values, entry.value, entry.setting);
    choice.sources[static_cast<size_t>(entry.value)] = TuningSource::kProfile;
  }
  // A profile's workgroup may be narrower than the table's row lanes: the lanes it leaves are the
  // profile's doing.
  const uint32_t row_lanes = choice.values.row_lanes;
  fitTuning(choice.values);
  if (choice.values.row_lanes != row_lanes) {
    choice.sources[static_cast<size_t>(TuningValue::k_row_lanes)] = TuningSource::kProfile;
  }
}

}  // namespace vkindex::plan
