// What vkindex knows about a Vulkan device: identity, and the features and limits its planner uses.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "vkindex/api.h"

namespace vkindex {

// Facts probed once per physical device. Optional features only ever make vkindex faster: every
// operator moves data correctly on a device that has none of them (the baseline).
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

  // Optional features (false on the baseline, e.g. SwiftShader has none of the storage ones).
  bool shader_int64 = false;
  bool shader_float64 = false;
  bool shader_int16 = false;
  bool shader_float16 = false;
  bool storage_buffer_8bit = false;
  bool storage_buffer_16bit = false;

  // Limits.
  uint32_t subgroup_size = 0;
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

  // Tuning vkindex chose for this device (see DeviceCaps probing in src/vk/device.cpp).
  uint32_t workgroup_size = 0;
  uint32_t items_per_invocation = 0;
  // Row gathers (Gather, GatherND) copy each row in segments: `row_lanes` invocations share a segment,
  // each copying `row_items` units, and the row's index is read once per segment. GPUs want a
  // segment's lanes adjacent (coalescing); CPU drivers want each invocation streaming a long run.
  // The index checks, GatherElements and ScatterND's row writes use the same segments.
  uint32_t row_lanes = 0;
  uint32_t row_items = 0;
  // Row gathers move rows of 16- and 8-byte units as 64-bit components (u64vec2, uint64_t), which
  // needs shaderInt64 enabled: vkindex enables it on the devices it creates, where supported. Only
  // CPU drivers, measured: lavapipe loads and stores each component of a storage access lane by lane,
  // so half as many components ran its row gathers 1.6-1.9x faster (`vkindex bench`, alternating
  // builds: embedding 40-45 -> 25-27 ms, gathernd-rows 23 -> 12-14 ms). Also ScatterND's row writes,
  // the scatters' data copy and the check of int64 indices. GPUs move 16 bytes per lane in one access
  // either way (unmeasured). False on an adopted device (Context::adopt), whose enabled features
  // vkindex cannot see.
  bool int64_units = false;
  // float32 and complex64 add reductions take the device's float adder wherever its bits are sure to
  // be the soft add's (operands and sum normal numbers; shaders/common/native_float32_add.glsl), the
  // soft add elsewhere. Needs VK_KHR_shader_float_controls (vkindex enables it on the devices it
  // creates, where advertised) with shaderRoundingModeRTEFloat32 and a 32-bit rounding mode that can
  // be set on its own (roundingModeIndependence not NONE): lavapipe has them, SwiftShader does not.
  // A fold's steps wait on each other, so on a GPU each costs the add's latency: on an NVIDIA H200,
  // 4M adds onto 16 targets (`vkindex bench`'s scatter-1d-add-hot) took 58 ms with the soft add and
  // 23.5 ms with this. lavapipe, `vkindex bench --steps`, alternating builds: scatter-add-dup8's walk
  // 36-37 -> 31 ms, scatter-1d-add-dup40's fold 75-104 -> 66-68 ms; scatter-1d-add-hot's fold
  // unchanged (37-44 -> 41-46 ms), bound by its loads. On an adopted device (Context::adopt), whose
  // enabled extensions vkindex cannot see, only where the instance (ExternalVulkan::api_version) and
  // the device are Vulkan 1.2 or later, which have float controls in core.
  bool native_float32_add = false;
  // Gathers with host indices (ops.hpp, HostIndices) use vkCmdCopyBuffer regions when there are at
  // most `few_copy_regions` of them, whatever their size, or when they average at least
  // `min_copy_region_bytes` (UINT64_MAX: never for their size); the kernel otherwise. The crossovers
  // measured per driver (see src/vk/device.cpp).
  uint64_t min_copy_region_bytes = 0;
  uint64_t few_copy_regions = 0;
  // The fold by owner's bucket allocation reserves its shared cursors once per workgroup (shared-memory
  // totals between barriers) instead of once per invocation: GPUs, whose contended atomics on one
  // word queue up; not CPU drivers, whose barriers cost more (see shaders/bucket_alloc.comp).
  bool group_reserved_cursors = false;
  // Where a call's fold by owner has at most this many heavy targets (targets with many updates), each
  // gets a workgroup instead of one invocation walking its updates (shaders/scatter_fold.comp): max and
  // min reduce them chunk by chunk; add and mul stage them in shared memory for one invocation to fold
  // in index order. GPUs, where that walk waits on two dependent loads a step (an NVIDIA H200 took
  // 130 ms over 4M float32 maxima onto 16 targets, then 1.9 ms in workgroups; 170 ms over as many
  // float32 adds, then 58 ms), up to about the workgroups they run at once: more runs than that, each
  // shorter, walk faster (the H200 over 4M float32 adds: onto 1024 targets 4.5 ms walked, 2.8 ms in
  // workgroups; onto 4096 1.7 and 2.2 ms; src/vk/device.cpp has the rest). 0 on CPU drivers, whose
  // walk is fast (lavapipe: 44 ms over the maxima, against 60 ms in workgroups).
  uint32_t most_workgroup_runs = 0;
  // ScatterElements with reduction none walks each line (every coordinate but the axis) in one
  // invocation, its updates in index order, when there are at least this many lines; fewer lines (a
  // vector is one) leave most of the device idle through the walk, so their updates all go at once
  // through a winner table instead. Measured per driver (see src/vk/device.cpp). Scatter reductions
  // with fewer walkers (lines; ScatterND: slice elements) fold by owner instead of walking, or, for
  // the integer ones whose bits do not depend on the order, apply every update at once with atomics.
  uint64_t min_walk_lines = 0;
  // ... but a single line (a vector) of more updates than this goes through the winner table even
  // where min_walk_lines would walk it: one invocation takes every step of that walk, while the
  // table's passes run one invocation per update. UINT64_MAX: never. Measured per driver (see
  // src/vk/device.cpp).
  uint64_t max_single_line_walk_updates = UINT64_MAX;
  // The same threshold for the reductions whose arithmetic is long in soft float (float16, bfloat16
  // and float64 add, mul, max and min; float32 and complex64 mul): they walk from the larger of the
  // two, since a walk's steps run one after another and each costs as much as the arithmetic.
  // Measured per driver (see src/vk/device.cpp).
  uint64_t min_soft_float_walk_lines = 0;
  // The same threshold for the integer reductions that atomics apply in any order with the same bits
  // (int32 and uint32 add, max and min; int64 and uint64 add): they walk from the larger of the two,
  // and fewer walkers apply every update at once with atomics, which need no fold. Measured per
  // driver (see src/vk/device.cpp).
  uint64_t min_atomic_walk_lines = 0;
  // Float32 and complex64 adds by the soft-float adder (no native_float32_add): where a single walker
  // (a vector; ScatterND: one-element slices) would take at least this many updates per element of
  // its line, the line folds by owner even where min_walk_lines would walk it. At so many duplicates
  // per target the fold's passes cost less than the walk's steps, one after another; with fewer, the
  // walk wins. 0: never. Measured per driver (see src/vk/device.cpp).
  uint64_t min_float32_add_fold_duplicates = 0;
  // How a winner table (reduction none, above) is claimed: false, one atomicMax per update; true, a
  // pass of plain (relaxed atomic) stores, then a pass over the same updates in which only those that
  // share a target and lost the stores' race raise their word with atomicMax. The same table either
  // way; true where the device's atomic read-modify-writes cost far more than loads and stores
  // (measured per driver, see src/vk/device.cpp).
  bool claim_by_store = false;
  // Steps one invocation takes in one pass of a walk in index order (a scatter's walk, or the fold of
  // a heavy target's updates); longer walks run as passes one after another. A correctness limit, not
  // a tuning choice: llvmpipe ends any shader loop nest after 65535 iterations (its guard against
  // endless loops), which silently dropped later updates, so CPU drivers get 16384. GPUs take 2^20, a
  // bound on how long one dispatch runs: GPU watchdogs end long dispatches (Windows' TDR after 2 s,
  // and mobile drivers' timeouts) and lose the device. An NVIDIA H200 spent up to about 650 ns per step
  // of a walked float add (220 ns staged), so 2^20 steps take under a second there, where 2^24 took up
  // to 11 s; the extra passes cost a dispatch and a barrier (about 4 us there) per 2^20 steps.
  uint64_t max_walk_steps = 16384;
};

// "1.3.230" from a packed API version.
VKINDEX_API std::string apiVersionString(uint32_t packed);

// Milliseconds between two timestamps (vkCmdWriteTimestamp) of the device's compute queue: only the low
// timestamp_valid_bits bits count, and masking their difference also survives one wrap.
VKINDEX_API double timestampMilliseconds(const DeviceInfo& info, uint64_t first_tick, uint64_t last_tick);

}  // namespace vkindex
