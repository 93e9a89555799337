#include <cstdio>

#include "commands.hpp"
#include "json.hpp"
#include "vkindex/vkindex.hpp"

namespace vkindex::tools {
namespace {

const char* yesNo(bool value) { return value ? "yes" : "no"; }

void printText(const DeviceInfo& d, bool is_default) {
  std::printf("%s %u: %s [%s]\n", is_default ? "*" : " ", d.index, d.name.c_str(), d.type.c_str());
  std::printf("     driver %s%s%s, Vulkan %s\n", d.driver_name.empty() ? "(unnamed)" : d.driver_name.c_str(),
              d.driver_info.empty() ? "" : " ", d.driver_info.c_str(), apiVersionString(d.api_version).c_str());
  std::printf("     shaderInt64 %s, 8-bit storage %s, 16-bit storage %s, float16 %s, float64 %s, subgroup size %u\n",
              yesNo(d.shader_int64), yesNo(d.storage_buffer_8bit), yesNo(d.storage_buffer_16bit),
              yesNo(d.shader_float16), yesNo(d.shader_float64), d.subgroup_size);
  std::printf(
      "     maxStorageBufferRange %llu, minStorageBufferOffsetAlignment %llu, max workgroup count %u x %u x %u\n",
      static_cast<unsigned long long>(d.max_storage_buffer_range),
      static_cast<unsigned long long>(d.min_storage_buffer_offset_alignment), d.max_workgroup_count[0],
      d.max_workgroup_count[1], d.max_workgroup_count[2]);
  std::printf("     max workgroup invocations %u, timestamps %s; vkindex uses %u-wide groups, %u items each\n",
              d.max_workgroup_invocations, yesNo(d.timestamps), d.workgroup_size, d.items_per_invocation);
}

void printJson(const DeviceInfo& d, bool is_default) {
  JsonLine line;
  line.add("index", uint64_t(d.index)).add("name", d.name).add("type", d.type).add("driver", d.driver_name);
  line.add("driver_info", d.driver_info).add("api_version", apiVersionString(d.api_version)).add("default", is_default);
  line.add("shader_int64", d.shader_int64).add("storage_buffer_8bit", d.storage_buffer_8bit);
  line.add("storage_buffer_16bit", d.storage_buffer_16bit).add("shader_float16", d.shader_float16);
  line.add("shader_float64", d.shader_float64).add("subgroup_size", uint64_t(d.subgroup_size));
  line.add("max_storage_buffer_range", uint64_t(d.max_storage_buffer_range));
  line.add("max_workgroup_count_x", uint64_t(d.max_workgroup_count[0]));
  line.add("max_workgroup_count_y", uint64_t(d.max_workgroup_count[1]));
  line.add("max_workgroup_count_z", uint64_t(d.max_workgroup_count[2]));
  line.add("max_workgroup_invocations", uint64_t(d.max_workgroup_invocations));
  std::printf("%s\n", line.str().c_str());
}

}  // namespace

int devicesCommand(const Args& args) {
  bool json = false;
  for (const std::string& arg : args) {
    if (arg == "--json") {
      json = true;
    } else {
      std::fprintf(stderr, "vkindex devices: unknown option '%s'\n", arg.c_str());
      return 2;
    }
  }
  StatusOr<std::vector<DeviceInfo>> devices = Context::listDevices();
  if (!devices.ok()) {
    std::fprintf(stderr, "vkindex devices: %s\n", devices.status().message().c_str());
    return 1;
  }
  StatusOr<uint32_t> chosen = Context::defaultDeviceIndex();
  for (const DeviceInfo& device : *devices) {
    bool is_default = chosen.ok() && *chosen == device.index;
    json ? printJson(device, is_default) : printText(device, is_default);
  }
  if (!json) std::printf("(* = default; select with --device or VKINDEX_DEVICE=<index or name part>)\n");
  return 0;
}

}  // namespace vkindex::tools
