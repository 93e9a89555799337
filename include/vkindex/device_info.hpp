// What vkindex knows about a Vulkan device: identity, and the features and limits its planner uses.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "vkindex/api.h"

namespace vkindex {

// Facts probed once per physical device: identity, features and limits. Optional features only ever
// make vkindex faster: every operator moves data correctly on a device that has none of them (the
// baseline). How vkindex tunes its kernels for a device is internal (docs/tuning.md); `vkindex devices`
// prints it.
struct DeviceInfo {
  uint32_t index = 0;        // position in the loader's enumeration (what VKINDEX_DEVICE=N selects)
  std::string name;          // e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string type;          // "discrete", "integrated", "virtual", "cpu" or "other"
  std::string driver_name;   // e.g. "llvmpipe", "SwiftShader driver"; empty when the driver does not say
  std::string driver_info;   // the driver's free-form version string, when it gives one
  uint32_t api_version = 0;  // VK_MAKE_API_VERSION-packed
  uint32_t driver_version = 0;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  std::array<uint8_t, 16> pipeline_cache_uuid{};

  // Optional features vkindex can use: supported, and enabled on the devices vkindex creates. On an
  // adopted device (Context::adopt) the ones vkindex cannot see enabled read false. All false on the
  // baseline (SwiftShader has none of the storage ones).
  bool shader_int64 = false;
  bool shader_float64 = false;
  bool shader_int16 = false;
  bool shader_float16 = false;
  bool storage_buffer_8bit = false;
  bool storage_buffer_16bit = false;
  // 32-bit float arithmetic can be declared to round to nearest even on its own
  // (VK_KHR_shader_float_controls: shaderRoundingModeRTEFloat32, roundingModeIndependence not NONE),
  // which the native float32 add modules need. On an adopted device: only from Vulkan 1.2 on (instance
  // and device), where float controls are core.
  bool float32_rounding_rte = false;

  // Limits.
  uint32_t subgroup_size = 0;
  // A CPU implementation (type "cpu"): the worker threads it runs workgroups on at once, taken as the
  // host's logical CPUs up to 16 (SwiftShader's and llvmpipe's thread pools). Such a driver runs one
  // workgroup's subgroups one after another on one thread. 0 on other devices.
  uint32_t cpu_threads = 0;
  uint64_t max_storage_buffer_range = 0;  // bytes one storage binding may span (lavapipe: 128 MiB)
  uint64_t min_storage_buffer_offset_alignment = 0;
  std::array<uint32_t, 3> max_workgroup_count{};  // as low as 65535 per dimension
  uint32_t max_workgroup_invocations = 0;         // as low as 128
  uint32_t max_workgroup_size_x = 0;
  uint32_t max_push_constants_size = 0;  // at least 128
  bool timestamps = false;               // the compute queue supports timestamp queries
  uint32_t timestamp_valid_bits = 0;     // meaningful low bits of a timestamp (mask the rest)
  float timestamp_period_ns = 0.0f;      // nanoseconds per timestamp tick

  // Memory limits. vkindex refuses (kUnsupported) any buffer larger than one of them before asking the
  // driver: drivers are not required to fail cleanly beyond them (lavapipe crashes at 2 GiB).
  uint64_t max_memory_allocation_size = 0;  // one VkDeviceMemory (Vulkan 1.1 core; lavapipe: 2 GiB)
  uint64_t max_buffer_size = 0;             // one VkBuffer (Vulkan 1.3 or VK_KHR_maintenance4); 0: unknown
  uint64_t device_local_heap_size = 0;      // the largest device-local heap (the largest heap if none is)

  // Steps one invocation takes in one pass of a walk in index order (a scatter's walk, or the fold of a
  // heavy target's updates); longer walks run as passes one after another. A correctness limit, not
  // tuning: llvmpipe ends any shader loop nest after 65535 iterations, so CPU drivers get 16384; GPUs
  // get 2^20, which keeps one dispatch well inside GPU watchdogs (Windows' TDR: 2 s). docs/tuning.md.
  uint64_t max_walk_steps = 16384;
};

// "1.3.230" from a packed API version.
VKINDEX_API std::string apiVersionString(uint32_t packed);

// Milliseconds between two timestamps (vkCmdWriteTimestamp) of the device's compute queue: only the low
// timestamp_valid_bits bits count, and masking their difference also survives one wrap.
VKINDEX_API double timestampMilliseconds(const DeviceInfo& info, uint64_t first_tick, uint64_t last_tick);

}  // namespace vkindex
