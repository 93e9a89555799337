// `vkindex devices`: the Vulkan devices, the capabilities vkindex uses, and which one is the default.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "context_failure.hpp"
#include "json_line.hpp"
#include "quote.hpp"
#include "vkindex/vkindex.hpp"

namespace vkindex::tools {
namespace {

const char* yesNo(bool value) { return value ? "yes" : "no"; }

// Driver-reported text is printed escaped, like text from files: it is not ours either.
std::string shown(const std::string& text) { return onnxio::printableText(text); }

void printText(const DeviceInfo& d, bool is_default) {
  std::printf("%s %u: %s [%s]\n", is_default ? "*" : " ", d.index, shown(d.name).c_str(), d.type.c_str());
  std::printf("     driver %s%s%s, Vulkan %s\n", d.driver_name.empty() ? "(unnamed)" : shown(d.driver_name).c_str(),
              d.driver_info.empty() ? "" : " ", shown(d.driver_info).c_str(), apiVersionString(d.api_version).c_str());
  std::printf("     shaderInt64 %s, 8-bit storage %s, 16-bit storage %s, float16 %s, float64 %s, subgroup size %u\n",
              yesNo(d.shader_int64), yesNo(d.storage_buffer_8bit), yesNo(d.storage_buffer_16bit),
              yesNo(d.shader_float16), yesNo(d.shader_float64), d.subgroup_size);
  std::printf(
      "     maxStorageBufferRange %llu, minStorageBufferOffsetAlignment %llu, max workgroup count %u x %u x %u\n",
      static_cast<unsigned long long>(d.max_storage_buffer_range),
      static_cast<unsigned long long>(d.min_storage_buffer_offset_alignment), d.max_workgroup_count[0],
      d.max_workgroup_count[1], d.max_workgroup_count[2]);
  std::printf("     maxMemoryAllocationSize %llu, maxBufferSize %s, device-local heap %llu bytes\n",
              static_cast<unsigned long long>(d.max_memory_allocation_size),
              d.max_buffer_size > 0 ? std::to_string(d.max_buffer_size).c_str() : "unknown",
              static_cast<unsigned long long>(d.device_local_heap_size));
  std::printf("     max workgroup invocations %u, timestamps %s; vkindex uses %u-wide groups, %u items each\n",
              d.max_workgroup_invocations, yesNo(d.timestamps), d.workgroup_size, d.items_per_invocation);
  std::printf("     segments of %u lanes x %u units%s\n", d.row_lanes, d.row_items,
              d.int64_units ? " (16- and 8-byte units as 64-bit components)" : "");
  std::printf(
      "     float32 and complex64 add reductions: %s\n",
      d.native_float32_add ? "the device's adder where its bits are exact, soft float elsewhere" : "soft float");
  std::printf("     host-index copy regions: up to %llu of any size",
              static_cast<unsigned long long>(d.few_copy_regions));
  if (d.min_copy_region_bytes == UINT64_MAX) {
    std::printf(", never more (the kernel instead)\n");
  } else {
    std::printf(", more when they average %llu bytes or more\n",
                static_cast<unsigned long long>(d.min_copy_region_bytes));
  }
  std::printf("     ScatterElements none walks from %llu lines, below that through a winner table",
              static_cast<unsigned long long>(d.min_walk_lines));
  if (d.max_single_line_walk_updates != UINT64_MAX) {
    std::printf(", as does\n     a single line of more than %llu updates",
                static_cast<unsigned long long>(d.max_single_line_walk_updates));
  }
  std::printf(
      ";\n     reductions walk from %llu lines (%llu with soft-float arithmetic), below that fold by owner;\n"
      "     integer add, max and min walk from %llu, below that through atomics; walks and folds take\n"
      "     up to %llu steps per pass\n",
      static_cast<unsigned long long>(d.min_walk_lines),
      static_cast<unsigned long long>(std::max(d.min_walk_lines, d.min_soft_float_walk_lines)),
      static_cast<unsigned long long>(std::max(d.min_walk_lines, d.min_atomic_walk_lines)),
      static_cast<unsigned long long>(d.max_walk_steps));
  if (d.min_float32_add_fold_duplicates > 0) {
    std::printf("     float32 and complex64 adds on one line fold from %llu updates per element\n",
                static_cast<unsigned long long>(d.min_float32_add_fold_duplicates));
  }
  if (d.most_workgroup_runs > 0) {
    std::printf("     a fold's heavy targets take a workgroup each where a call has at most %u\n",
                d.most_workgroup_runs);
  }
}

// Every field printText shows, under the names DeviceInfo gives them.
JsonDocument deviceJson(const DeviceInfo& d, bool is_default) {
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
  device["max_storage_buffer_range"] = d.max_storage_buffer_range;
  device["min_storage_buffer_offset_alignment"] = d.min_storage_buffer_offset_alignment;
  device["max_workgroup_count"] = d.max_workgroup_count;
  device["max_memory_allocation_size"] = d.max_memory_allocation_size;
  device["max_buffer_size"] = d.max_buffer_size;  // 0: the device does not say
  device["device_local_heap_size"] = d.device_local_heap_size;
  device["max_workgroup_invocations"] = d.max_workgroup_invocations;
  device["timestamps"] = d.timestamps;
  device["workgroup_size"] = d.workgroup_size;
  device["items_per_invocation"] = d.items_per_invocation;
  device["row_lanes"] = d.row_lanes;
  device["row_items"] = d.row_items;
  device["int64_units"] = d.int64_units;
  device["native_float32_add"] = d.native_float32_add;
  device["min_copy_region_bytes"] = d.min_copy_region_bytes;  // UINT64_MAX: never for their size
  device["few_copy_regions"] = d.few_copy_regions;
  device["min_walk_lines"] = d.min_walk_lines;
  device["max_single_line_walk_updates"] = d.max_single_line_walk_updates;  // UINT64_MAX: never through the table
  device["claim_by_store"] = d.claim_by_store;
  device["min_soft_float_walk_lines"] = d.min_soft_float_walk_lines;
  device["min_atomic_walk_lines"] = d.min_atomic_walk_lines;
  device["min_float32_add_fold_duplicates"] = d.min_float32_add_fold_duplicates;  // 0: never
  device["max_walk_steps"] = d.max_walk_steps;
  device["group_reserved_cursors"] = d.group_reserved_cursors;
  device["most_workgroup_runs"] = d.most_workgroup_runs;
  return device;
}

}  // namespace

int runDevicesCommand(const DevicesOptions& options) {
  StatusOr<std::vector<DeviceInfo>> devices = Context::listDevices();
  if (!devices.ok()) {
    std::fputs(explainContextFailure("vkindex devices", devices.status()).c_str(), stderr);
    return 1;
  }
  StatusOr<uint32_t> chosen = Context::defaultDeviceIndex();
  if (options.json) {
    JsonDocument document;
    document["default_index"] = chosen.ok() ? JsonDocument(*chosen) : JsonDocument(nullptr);
    document["devices"] = JsonDocument::array();
    for (const DeviceInfo& device : *devices) {
      document["devices"].push_back(deviceJson(device, chosen.ok() && *chosen == device.index));
    }
    writeJsonLine(std::cout, document);
    return 0;
  }
  for (const DeviceInfo& device : *devices) printText(device, chosen.ok() && *chosen == device.index);
  std::printf("(* = default; select with --device or VKINDEX_DEVICE=<index or name part>)\n");
  return 0;
}

}  // namespace vkindex::tools
