// `vkindex devices`: the Vulkan devices, the capabilities vkindex uses, the tuning it would run each with
// (and where each value came from), and which one is the default.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "context_failure.hpp"
#include "core/context_impl.hpp"
#include "core/tuning_profile_loading.hpp"
#include "json_line.hpp"
#include "plan/tuning.hpp"
#include "quote.hpp"
#include "vkindex/vkindex.hpp"

namespace vkindex::tools {
namespace {

const char* yesNo(bool value) { return value ? "yes" : "no"; }

// UINT64_MAX, which several thresholds use for "never", as a word.
std::string valueText(uint64_t value) { return value == UINT64_MAX ? "never" : std::to_string(value); }

// Driver-reported text is printed escaped, like text from files: it is not ours either.
std::string shown(const std::string& text) { return onnxio::printableText(text); }

// The tuning a Context on the device would run with, and the profile it would look at.
struct DeviceTuning {
  plan::TuningChoice choice;
  TuningProfileLoad profile;
};

// The mark after a value in the text list: where it came from, when not the table.
const char* sourceMark(plan::TuningSource source) {
  switch (source) {
    case plan::TuningSource::kTable: return "";
    case plan::TuningSource::kProfile: return "+";
    case plan::TuningSource::kOverride: return "*";
  }
  return "";
}

void printText(const DeviceInfo& d, const DeviceTuning& device_tuning, bool is_default) {
  const plan::TuningChoice& tuning = device_tuning.choice;
  std::printf("%s %u: %s [%s]\n", is_default ? "*" : " ", d.index, shown(d.name).c_str(), d.type.c_str());
  std::printf("     driver %s%s%s, Vulkan %s\n", d.driver_name.empty() ? "(unnamed)" : shown(d.driver_name).c_str(),
              d.driver_info.empty() ? "" : " ", shown(d.driver_info).c_str(), apiVersionString(d.api_version).c_str());
  std::printf("     shaderInt64 %s, 8-bit storage %s, 16-bit storage %s, float16 %s, float64 %s, subgroup size %u%s\n",
              yesNo(d.shader_int64), yesNo(d.storage_buffer_8bit), yesNo(d.storage_buffer_16bit),
              yesNo(d.shader_float16), yesNo(d.shader_float64), d.subgroup_size,
              d.cpu_threads > 0 ? (", " + std::to_string(d.cpu_threads) + " CPU threads").c_str() : "");
  std::printf(
      "     maxStorageBufferRange %llu, minStorageBufferOffsetAlignment %llu, max workgroup count %u x %u x %u\n",
      static_cast<unsigned long long>(d.max_storage_buffer_range),
      static_cast<unsigned long long>(d.min_storage_buffer_offset_alignment), d.max_workgroup_count[0],
      d.max_workgroup_count[1], d.max_workgroup_count[2]);
  std::printf("     maxMemoryAllocationSize %llu, maxBufferSize %s, device-local heap %llu bytes\n",
              static_cast<unsigned long long>(d.max_memory_allocation_size),
              d.max_buffer_size > 0 ? std::to_string(d.max_buffer_size).c_str() : "unknown",
              static_cast<unsigned long long>(d.device_local_heap_size));
  std::printf(
      "     max workgroup invocations %u, timestamps %s, float32 round-to-nearest-even on request %s, walks "
      "take up to %llu steps per pass\n",
      d.max_workgroup_invocations, yesNo(d.timestamps), yesNo(d.float32_rounding_rte),
      static_cast<unsigned long long>(d.max_walk_steps));
  std::printf("     tuning (driver class %s, table row %s; + = profile, * = override, docs/tuning.md):\n",
              plan::driverClassName(tuning.driver_class), plan::driverClassName(tuning.row));
  const TuningProfileLoad& profile = device_tuning.profile;
  if (!profile.path.empty()) {
    std::printf("      profile %s: %s\n", shown(profile.path).c_str(),
                tuning.usesProfile()      ? "in use"
                : profile.profile         ? "not used (the override chose the row)"
                : profile.warning.empty() ? "none there"
                                          : "ignored (see the warning)");
  }
  std::string line = "      ";
  const auto show = [&](const char* name, uint64_t value, plan::TuningValue which) {
    std::string item = std::string(" ") + name + " " + valueText(value) + sourceMark(tuning.source(which));
    if (line.size() + item.size() > 110) {
      std::printf("%s\n", line.c_str());
      line = "      ";
    }
    line += item;
  };
#define VKINDEX_SHOW_TUNING(type, name, unset) \
  show(#name, static_cast<uint64_t>(tuning.values.name), plan::TuningValue::k_##name);
  VKINDEX_TUNING_VALUES(VKINDEX_SHOW_TUNING)
#undef VKINDEX_SHOW_TUNING
  std::printf("%s\n", line.c_str());
}

// Every field printText shows, under the names DeviceInfo and the tuning list give them; each tuning value
// as {"value", "source"}, source "table", "profile" or "override"; the profile looked at as
// {"path", "in_use", "warning"} (null when there was none to look at).
JsonDocument deviceJson(const DeviceInfo& d, const DeviceTuning& device_tuning, bool is_default) {
  const plan::TuningChoice& tuning = device_tuning.choice;
  JsonDocument device;
  device["index"] = d.index;
  device["default"] = is_default;
  device["name"] = shown(d.name);
  device["type"] = d.type;
  device["driver"] = shown(d.driver_name);
  device["driver_info"] = shown(d.driver_info);
  device["api_version"] = apiVersionString(d.api_version);
  device["shader_int64"] = d.shader_int64;
  device["storage_buffer_8bit"] = d.storage_buffer_8bit;
  device["storage_buffer_16bit"] = d.storage_buffer_16bit;
  device["shader_float16"] = d.shader_float16;
  device["shader_float64"] = d.shader_float64;
  device["subgroup_size"] = d.subgroup_size;
  device["cpu_threads"] = d.cpu_threads;  // 0: not a CPU implementation
  device["max_storage_buffer_range"] = d.max_storage_buffer_range;
  device["min_storage_buffer_offset_alignment"] = d.min_storage_buffer_offset_alignment;
  device["max_workgroup_count"] = d.max_workgroup_count;
  device["max_memory_allocation_size"] = d.max_memory_allocation_size;
  device["max_buffer_size"] = d.max_buffer_size;  // 0: the device does not say
  device["device_local_heap_size"] = d.device_local_heap_size;
  device["max_workgroup_invocations"] = d.max_workgroup_invocations;
  device["timestamps"] = d.timestamps;
  device["max_walk_steps"] = d.max_walk_steps;
  device["float32_rounding_rte"] = d.float32_rounding_rte;
  device["driver_class"] = plan::driverClassName(tuning.driver_class);
  device["tuning_row"] = plan::driverClassName(tuning.row);
  JsonDocument values;
#define VKINDEX_TUNING_JSON(type, name, unset)    \
  values[#name] = {{"value", tuning.values.name}, \
                   {"source", plan::tuningSourceName(tuning.source(plan::TuningValue::k_##name))}};
  VKINDEX_TUNING_VALUES(VKINDEX_TUNING_JSON)
#undef VKINDEX_TUNING_JSON
  device["tuning"] = values;
  const TuningProfileLoad& profile = device_tuning.profile;
  device["tuning_profile"] =
      profile.path.empty()
          ? JsonDocument(nullptr)
          : JsonDocument{{"path", shown(profile.path)}, {"in_use", tuning.usesProfile()}, {"warning", profile.warning}};
  return device;
}

}  // namespace

int runDevicesCommand(const DevicesOptions& options) {
  StatusOr<std::vector<DeviceInfo>> devices = Context::listDevices();
  if (!devices.ok()) {
    std::fputs(explainContextFailure("vkindex devices", devices.status()).c_str(), stderr);
    return 1;
  }
  ContextOverrides overrides;
  overrides.workgroup_size = options.workgroup_size;
  overrides.items_per_invocation = options.items_per_invocation;
  overrides.min_walk_lines = options.min_walk_lines;
  overrides.gpu_tuning = options.gpu_tuning;
  std::vector<DeviceTuning> tunings;
  for (const DeviceInfo& device : *devices) {
    DeviceTuning device_tuning;
    device_tuning.profile = loadTuningProfile(device, options.tuning_profile, vk::defaultPipelineCacheDirectory());
    const plan::TuningProfile* profile = device_tuning.profile.profile ? &*device_tuning.profile.profile : nullptr;
    StatusOr<plan::TuningChoice> tuning = plan::chooseTuning(device, overridesInEffect(overrides), profile);
    if (!tuning.ok()) {
      std::fprintf(stderr, "vkindex devices: device %u: %s\n", device.index, tuning.status().message().c_str());
      return 1;
    }
    device_tuning.choice = *tuning;
    tunings.push_back(std::move(device_tuning));
  }
  StatusOr<uint32_t> chosen = Context::defaultDeviceIndex();
  const auto is_default = [&](const DeviceInfo& device) { return chosen.ok() && *chosen == device.index; };
  if (options.json) {
    JsonDocument document;
    document["default_index"] = chosen.ok() ? JsonDocument(*chosen) : JsonDocument(nullptr);
    document["devices"] = JsonDocument::array();
    for (size_t i = 0; i < devices->size(); ++i) {
      document["devices"].push_back(deviceJson((*devices)[i], tunings[i], is_default((*devices)[i])));
    }
    writeJsonLine(std::cout, document);
    return 0;
  }
  for (size_t i = 0; i < devices->size(); ++i) printText((*devices)[i], tunings[i], is_default((*devices)[i]));
  std::printf("(* = default; select with --device or VKINDEX_DEVICE=<index or name part>)\n");
  return 0;
}

}  // namespace vkindex::tools
