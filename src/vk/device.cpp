#include "vk/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace vkindex::vk {
namespace {

bool hasExtension(VkPhysicalDevice physical, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& extension : extensions) {
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  }
  return false;
}

const char* typeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

// The first queue family with compute; timestamp support is reported from it.
std::optional<uint32_t> computeQueueFamily(VkPhysicalDevice physical, uint32_t* timestamp_bits) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  for (uint32_t i = 0; i < count; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      *timestamp_bits = families[i].timestampValidBits;
      return i;
    }
  }
  return std::nullopt;
}

// The largest device-local heap, or the largest heap when none is device-local (some CPU drivers).
uint64_t largestHeap(VkPhysicalDevice physical) {
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  uint64_t device_local = 0, any = 0;
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i) {
    any = std::max<uint64_t>(any, memory.memoryHeaps[i].size);
    if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) {
      device_local = std::max<uint64_t>(device_local, memory.memoryHeaps[i].size);
    }
  }
  return device_local > 0 ? device_local : any;
}

// The kernel tuning fields of DeviceInfo: measured per driver on the CPU drivers, and for a GPU
// (`gpu`) the choice that suits one, checked on an NVIDIA H200 where noted. Context options can ask for the GPU choice
// on a CPU driver, so that tests run the kernels as a GPU gets them.
void chooseTuning(DeviceInfo& info, bool gpu) {
  const bool cpu = !gpu;
  const bool swiftshader = cpu && info.driver_name.find("SwiftShader") != std::string::npos;
  // 256-wide groups with 4 items per invocation keep enough loads in flight on every device measured
  // (lavapipe reached 3x the bandwidth of 64-wide single-item groups); the baseline may allow only 128.
  info.workgroup_size = std::min({256u, info.max_workgroup_invocations, info.max_workgroup_size_x});
  info.items_per_invocation = 4;
  // Measured on lavapipe and SwiftShader (embedding rows of 4 KiB; also 256 B and 1 KiB rows): one
  // invocation per segment of 256 units ran 2.8x and 9x faster than the 64-lane blocks of 4 units it
  // replaced, whose per-lane index reads cost more than the copy, and beat 2 to 64 lanes per segment.
  // GPUs: a subgroup's worth of adjacent lanes per segment, so each load coalesces. On an NVIDIA H200
  // (2026-11-27, `vkindex bench --steps`) the row gather kernels ran as fast as the compute copy of
  // the same bytes: embedding 0.020 ms against 0.020, middle-axis 0.009 against 0.009.
  info.row_lanes = cpu ? 1u : std::min(32u, info.workgroup_size);
  info.row_items = cpu ? 256u : info.items_per_invocation;
  info.int64_units = cpu && info.shader_int64;  // Device::create enables the feature; see DeviceInfo
  // Measured with `vkindex bench --sweep` (its regions column): SwiftShader's copy regions beat the
  // kernel at every row size. lavapipe runs a vkCmdCopyBuffer's regions one after another on one
  // thread, about 0.2-0.7 us each, where the kernel runs on every core. Against its 64-bit-component
  // kernel, 2026-11-27 (GB/s, kernel / regions): 1 KiB rows 13.7 / 5.5, 2 KiB 14.8 / 9.4, 4 KiB
  // 15.5 / 14.7, 8 KiB 16.1 / 19.6, 64 KiB 16.3 / 45.4; from a table 8x the output (128 MiB) 4 KiB
  // 9.9 / 9.8 and 8 KiB 8.8 / 16.8; and `vkindex bench`'s host-index rows took the kernel 4.4-4.7 ms
  // against the regions' 5.8-5.9 for embedding-host (4 KiB rows from 125 MiB) and 2.4-2.6 against
  // 5.7-5.9 for gathernd-rows-host (1 KiB rows). With the regions in source order (from 2026-11-27)
  // embedding-host's regions still took 5.5-5.9 ms against the kernel's 4.0-4.7. (On 2026-11-26, the
  // machine busier, the sweep had put the crossover at 1 KiB: the kernel shares the cores with other
  // work, the regions do not.) The crossover moves with how fast the host runs lavapipe's kernels:
  // on another 2-core machine (AMD EPYC, idle, 2026-11-27) the kernel ran 2.5-2.8 GB/s from 1 KiB
  // rows up, the compute copy 3.0, the regions 3.1 at 1 KiB, 5.5 at 2 KiB, 7.0 at 4 KiB and 9.0 at
  // 8 KiB, and embedding-host took 25 ms through the kernel against 8.2-8.9 as regions (4 ms for one
  // vkCmdCopyBuffer of its bytes). Hence 4 KiB, between the two machines' crossovers: 4 KiB rows as
  // regions cost the fast machine 0-25% and save the slow one two thirds. GPUs, measured on an
  // NVIDIA H200 (driver 580.159, 2026-11-27): each region is a copy launch of its own, about 1.8 us,
  // so regions never catch up with the kernel: the sweep's regions ran 0.3 GB/s at 256-byte rows and
  // 54 GB/s at 64 KiB against the kernel's 1400+, and embedding-host (8192 rows of 4 KiB) took
  // 14.4 ms against 0.033 ms for the kernel.
  info.min_copy_region_bytes = swiftshader ? 1u : cpu ? 4096u : UINT64_MAX;
  // Up to this many regions take the copy path whatever their size: fewer than a dispatch costs. lavapipe
  // spends about 30 us on a 1-row gather kernel in a batch of 100 (`vkindex bench` latency rows) and
  // 0.2-0.7 us per region; the H200 spent 2.6 us per 1-row gather as a region and 14.2 us as a kernel
  // (its check, report and gather dispatches), at about 1.8 us for each further region.
  info.few_copy_regions = cpu ? 32u : 4u;
  info.group_reserved_cursors = gpu;
  // Measured on an NVIDIA H200 (driver 580.159, 2026-11-27; `vkindex bench`, 4M float32 adds onto a
  // vector of 16 to 104857 elements, all heavy targets), walked -> in workgroups: 16 targets 164 ->
  // 58 ms, 256 15.4 -> 5.2, 1024 4.5 -> 2.8, 4096 1.7 -> 2.2, 16384 1.2 -> 2.2, 104857 1.4 -> 2.7; max
  // onto 16 targets 132 -> 1.9 ms, onto 16384 1.15 -> 1.28.
  info.most_workgroup_runs = gpu ? 1024u : 0u;
  // Measured with `vkindex bench` (ScatterElements none, 4M float32 updates to distinct random targets
  // in 16 MiB, split into 1 to 1024 lines): lavapipe walks a vector (one line) in 670 ms and runs the
  // table in 230-280 ms whatever the lines, but walks 4 lines in 257 ms and 1024 in 34 ms; SwiftShader's
  // atomics make the table 1.0-1.3 s at every line count, against 0.8 s for the vector's walk. GPUs
  // (not measured against the table): a walk of fewer lines than a large GPU runs invocations at once idles it for the
  // length of the axis, where the table's three passes each run one invocation per update.
  // With claim_by_store (below), SwiftShader's table beats the walk only of a vector with many updates
  // (2026-11-28, a probe timing the synchronous call: 4M updates in 1, 2, 4 and 16 lines walked in 1128,
  // 504, 313 and 349 ms, through the table in 738, 870, 867 and 848), and loses on small calls (4096
  // updates into a 4M vector, `scatter-1d-sparse`: 4.2 ms through the table, 1.5-1.7 walked), so it
  // keeps walking every line but a vector of more than 2^19 updates. The same probe, U random updates
  // onto a vector of D floats in place, walked -> through the table: D = 2^20, U = 2^18 61 -> 60 ms,
  // U = 2^20 238 -> 124; D = 2^22, U = 2^18 73 -> 66, U = 2^20 269 -> 240; from 4096 to 2^16 updates the
  // walk won (D = 2^22, U = 2^16: 20 against 40 ms).
  info.min_walk_lines = swiftshader ? 1u : cpu ? 2u : 65536u;
  info.max_single_line_walk_updates = swiftshader ? uint64_t(1) << 19 : UINT64_MAX;
  // Measured with `vkindex bench --steps` (scatternd-1d-perm: 4M one-component tuples claiming distinct
  // rows, 2026-11-28): SwiftShader's atomicMax claim took 941 ms (the row 1271 ms), the store and fixup
  // passes 196-220 and 195-207 ms (the row 600-699 ms). On lavapipe, whose atomics cost about a load and
  // a store, the two passes took 150-162 and 147 ms against the claim's 184-193 (two runs). GPUs
  // (not measured): an atomic on a distinct word costs about a store there, and the store pass would
  // add a dispatch and a barrier.
  info.claim_by_store = swiftshader;
  // Measured with `vkindex onnx-test --repeat 3` (2^20 ScatterElements updates onto a vector of 16 or
  // 4096 targets): SwiftShader's walk of one line against the fold by owner, float16 add 2340-2720 ->
  // 1070-1510 ms, float64 add 2390-2730 -> 810-1040, float32 mul 2380-2470 -> 1150-1220, float16 max
  // 1130-1170 -> 480-730, float64 min 1220-1300 -> 780-900; float32 add walked as fast or faster
  // (390-430 -> 400-780), so it keeps 1 (the integer reductions: min_atomic_walk_lines, below).
  // Tried and kept out: lavapipe walking one line of float32 add, max and min (2026-11-28, `vkindex
  // bench`, two alternating runs of each build) won on duplicate-heavy rows (scatter-1d-add-dup40
  // 1265-1419 -> 515-609 ms, which the fold now takes in 630-750 with buckets of up to 256 positions;
  // scatter-1d-max-hot 549-570 -> 402-408) and lost on the histogram-like
  // ones (scatter-1d-add 608-624 -> 810-983, scatternd-1d-add 666-705 -> 810-903). The fold runs on
  // every core and the walk on one, so on machines with more than this one's 2 the fold gains.
  info.min_soft_float_walk_lines = swiftshader ? 2u : info.min_walk_lines;
  // Measured with a probe timing the synchronous call (2026-11-28: int32 add, U updates at random onto
  // one line of T elements in place), walked against atomics: SwiftShader, whose atomics are slow but
  // run on every core while the walk runs on one, U = 2^22 onto T = 2^19, 16 and 104857: 958, 548 and
  // 625 ms against 311, 318 and 309; U = 2^18 onto 2^19 and 4096: 63 and 37 against 17 and 22.
  // lavapipe, through atomics below its min_walk_lines already: 729, 371, 459, 55 and 23 walked
  // against 144, 173, 131, 16 and 13.
  info.min_atomic_walk_lines = swiftshader ? 2u : info.min_walk_lines;
  // Measured with a probe timing the synchronous call (2026-11-28, after the buckets grew to 256
  // positions; float32 add, U updates at random onto one line of D elements in place), SwiftShader
  // walked against folded: U/D = 64 (2^18 onto 4096) 133 -> 110 ms, 40 (2^20 onto 26214) 572 -> 302,
  // 32768 (2^19 onto 16) 236 -> 161, 8 (2^22 onto 2^19) 2367 -> 1789, 4 (2^21 onto 2^19) 1350 -> 1212;
  // but 1 (2^20 onto 2^20) 686 -> 1217, 1/2 and 1/4 (2^19 onto 2^20, 2^20 onto 2^22) 382 -> 726 and
  // 780 -> 1648. Float32 max walked faster at every ratio (2^22 onto 2^19: 577 against 1188 ms), as do
  // the integer walks, whose steps are short.
  info.min_float32_add_fold_duplicates = swiftshader ? 4u : 0u;
}

// Probes identity, optional features and limits. Extension structs are chained only when the device
// advertises the extension, so the query is valid on a Vulkan 1.1 instance.
DeviceInfo probe(VkPhysicalDevice physical, uint32_t index) {
  DeviceInfo info;
  info.index = index;

  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceMaintenance4PropertiesKHR maintenance4{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES_KHR};
  VkPhysicalDeviceDriverPropertiesKHR driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES_KHR};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties.pNext = &subgroup;
  subgroup.pNext = &maintenance3;
  void** tail = &maintenance3.pNext;
  // maxBufferSize is only known where VK_KHR_maintenance4 is advertised. It is core in Vulkan 1.3, but
  // the instance asks for 1.1, so 1.3 structures are only valid through the extension.
  const bool has_maintenance4 = hasExtension(physical, VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
  if (has_maintenance4) {
    *tail = &maintenance4;
    tail = &maintenance4.pNext;
  }
  const bool has_driver = hasExtension(physical, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
  if (has_driver) {
    *tail = &driver;
    tail = &driver.pNext;
  }
  VkPhysicalDeviceFloatControlsPropertiesKHR float_controls{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES_KHR};
  const bool has_float_controls = hasExtension(physical, VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME);
  if (has_float_controls) *tail = &float_controls;
  vkGetPhysicalDeviceProperties2(physical, &properties);
  const VkPhysicalDeviceProperties& p = properties.properties;
  const VkPhysicalDeviceLimits& limits = p.limits;

  info.name = p.deviceName;
  info.type = typeName(p.deviceType);
  info.driver_name = has_driver ? driver.driverName : "";
  info.driver_info = has_driver ? driver.driverInfo : "";
  info.api_version = p.apiVersion;
  info.driver_version = p.driverVersion;
  info.vendor_id = p.vendorID;
  info.device_id = p.deviceID;
  std::copy(std::begin(p.pipelineCacheUUID), std::end(p.pipelineCacheUUID), info.pipeline_cache_uuid.begin());

  info.max_memory_allocation_size = maintenance3.maxMemoryAllocationSize;
  info.max_buffer_size = has_maintenance4 ? maintenance4.maxBufferSize : 0;
  // Device::create enables the extension where advertised. The native-add modules set the rounding
  // mode of 32-bit floats alone, which a device whose controls must match across widths (NONE) may
  // not allow.
  info.native_float32_add = has_float_controls && float_controls.shaderRoundingModeRTEFloat32 &&
                            float_controls.roundingModeIndependence != VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE_KHR;
  info.device_local_heap_size = largestHeap(physical);

  VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDevice8BitStorageFeaturesKHR storage8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES_KHR};
  VkPhysicalDeviceShaderFloat16Int8FeaturesKHR float16{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES_KHR};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &storage16;
  tail = &storage16.pNext;
  if (hasExtension(physical, VK_KHR_8BIT_STORAGE_EXTENSION_NAME)) {
    *tail = &storage8;
    tail = &storage8.pNext;
  }
  if (hasExtension(physical, VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME)) *tail = &float16;
  vkGetPhysicalDeviceFeatures2(physical, &features);
  info.shader_int64 = features.features.shaderInt64;
  info.shader_float64 = features.features.shaderFloat64;
  info.shader_int16 = features.features.shaderInt16;
  info.shader_float16 = float16.shaderFloat16;
  info.storage_buffer_8bit = storage8.storageBuffer8BitAccess;
  info.storage_buffer_16bit = storage16.storageBuffer16BitAccess;

  info.subgroup_size = subgroup.subgroupSize;
  info.max_storage_buffer_range = limits.maxStorageBufferRange;
  info.min_storage_buffer_offset_alignment = limits.minStorageBufferOffsetAlignment;
  std::copy(std::begin(limits.maxComputeWorkGroupCount), std::end(limits.maxComputeWorkGroupCount),
            info.max_workgroup_count.begin());
  info.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  info.max_workgroup_size_x = limits.maxComputeWorkGroupSize[0];
  // Set here, not in chooseTuning: tuning as a GPU (ContextOptions::gpu_tuning) must keep a CPU
  // driver's loop guard.
  info.max_walk_steps = info.type == "cpu" ? 16384u : uint64_t(1) << 20;
  info.max_push_constants_size = limits.maxPushConstantsSize;
  uint32_t timestamp_bits = 0;
  computeQueueFamily(physical, &timestamp_bits);
  info.timestamps = timestamp_bits > 0 && limits.timestampPeriod > 0.0f;
  info.timestamp_valid_bits = timestamp_bits;
  info.timestamp_period_ns = limits.timestampPeriod;

  chooseTuning(info, info.type != "cpu");
  return info;
}

std::vector<VkPhysicalDevice> physicalDevices(VkInstance instance) {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  devices.resize(count);
  return devices;
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

}  // namespace

StatusOr<std::vector<DeviceInfo>> Device::enumerate(const Instance& instance) {
  std::vector<DeviceInfo> result;
  std::vector<VkPhysicalDevice> devices = physicalDevices(instance.handle());
  for (uint32_t i = 0; i < devices.size(); ++i) {
    uint32_t timestamp_bits = 0;
    if (computeQueueFamily(devices[i], &timestamp_bits)) result.push_back(probe(devices[i], i));
  }
  if (result.empty()) return deviceError("no Vulkan device with a compute queue was found");
  return result;
}

StatusOr<uint32_t> Device::select(const std::vector<DeviceInfo>& devices, const std::string& selector) {
  if (selector.empty()) {
    for (const char* preferred : {"discrete", "integrated"}) {
      for (const DeviceInfo& device : devices) {
        if (device.type == preferred) return device.index;
      }
    }
    return devices.front().index;
  }
  bool numeric = std::all_of(selector.begin(), selector.end(), [](unsigned char c) { return std::isdigit(c); });
  std::string available;
  for (const DeviceInfo& device : devices) {
    if (numeric ? std::to_string(device.index) == selector
                : lowercase(device.name).find(lowercase(selector)) != std::string::npos) {
      return device.index;
    }
    available += (available.empty() ? "" : ", ") + std::to_string(device.index) + ": " + device.name;
  }
  return invalidArgument("no Vulkan device matches '" + selector + "' (available: " + available + ")");
}

StatusOr<std::unique_ptr<Device>> Device::create(const Instance& instance, uint32_t index) {
  std::vector<VkPhysicalDevice> devices = physicalDevices(instance.handle());
  if (index >= devices.size()) return invalidArgument("device index " + std::to_string(index) + " does not exist");
  VkPhysicalDevice physical = devices[index];
  uint32_t timestamp_bits = 0;
  std::optional<uint32_t> family = computeQueueFamily(physical, &timestamp_bits);
  if (!family) return unsupported("device " + std::to_string(index) + " has no compute queue");

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = *family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  // shaderInt64 where the device has it: the 64-bit-component kernels (DeviceInfo::int64_units) need it.
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(physical, &supported);
  VkPhysicalDeviceFeatures enabled{};
  enabled.shaderInt64 = supported.shaderInt64;
  info.pEnabledFeatures = &enabled;
  // VK_KHR_shader_float_controls where advertised: the *_float32_add_native modules declare
  // RoundingModeRTE (DeviceInfo::native_float32_add).
  const char* float_controls = VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME;
  if (hasExtension(physical, float_controls)) {
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &float_controls;
  }

  std::unique_ptr<Device> device(new Device());
  device->owned_ = true;
  VKINDEX_VK_RETURN_IF_ERROR(vkCreateDevice(physical, &info, nullptr, &device->device_));
  volkLoadDeviceTable(&device->table_, device->device_);
  device->queue_family_ = *family;
  device->table_.vkGetDeviceQueue(device->device_, *family, 0, &device->queue_);
  VKINDEX_RETURN_IF_ERROR(device->finishSetup(physical, index));
  return device;
}

StatusOr<std::unique_ptr<Device>> Device::adopt(const Instance& instance, uint32_t api_version,
                                                VkPhysicalDevice physical_device, VkDevice handle, VkQueue queue,
                                                uint32_t queue_family) {
  if (physical_device == VK_NULL_HANDLE || handle == VK_NULL_HANDLE || queue == VK_NULL_HANDLE) {
    return invalidArgument("Context::adopt: the VkPhysicalDevice, VkDevice and VkQueue must not be null");
  }
  std::vector<VkPhysicalDevice> devices = physicalDevices(instance.handle());
  auto found = std::find(devices.begin(), devices.end(), physical_device);
  if (found == devices.end()) {
    return invalidArgument("Context::adopt: the VkPhysicalDevice does not belong to the VkInstance");
  }
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, families.data());
  if (queue_family >= count || !(families[queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
    return invalidArgument("Context::adopt: queue family " + std::to_string(queue_family) +
                           " does not support compute");
  }
  std::unique_ptr<Device> device(new Device());
  device->device_ = handle;
  device->queue_ = queue;
  device->queue_family_ = queue_family;
  volkLoadDeviceTable(&device->table_, handle);
  VKINDEX_RETURN_IF_ERROR(device->finishSetup(physical_device, static_cast<uint32_t>(found - devices.begin())));
  device->info_.timestamps = device->info_.timestamps && families[queue_family].timestampValidBits > 0;
  device->info_.int64_units = false;  // the application may not have enabled shaderInt64
  // Nor VK_KHR_shader_float_controls; but from Vulkan 1.2 on, for the instance and the device alike,
  // float controls are core and a module may declare its rounding mode without the extension.
  device->info_.native_float32_add =
      device->info_.native_float32_add && std::min(api_version, device->info_.api_version) >= VK_API_VERSION_1_2;
  return device;
}

Status Device::finishSetup(VkPhysicalDevice physical, uint32_t index) {
  physical_ = physical;
  info_ = probe(physical, index);
  vkGetPhysicalDeviceMemoryProperties(physical, &memory_);
  return Status::Ok();
}

void Device::capBindingRange(uint64_t bytes) {
  if (bytes > 0 && bytes < info_.max_storage_buffer_range) info_.max_storage_buffer_range = bytes;
}

void Device::capWorkgroupCount(uint32_t groups) {
  if (groups == 0) return;
  for (uint32_t& limit : info_.max_workgroup_count) limit = std::min(limit, groups);
}

void Device::tuneAsGpu() { chooseTuning(info_, true); }

Status Device::overrideTuning(uint32_t workgroup_size, uint32_t items_per_invocation, uint64_t min_walk_lines) {
  if (workgroup_size > info_.max_workgroup_invocations || workgroup_size > info_.max_workgroup_size_x) {
    return invalidArgument("ContextOptions::workgroup_size " + std::to_string(workgroup_size) +
                           " exceeds this device's limit of " +
                           std::to_string(std::min(info_.max_workgroup_invocations, info_.max_workgroup_size_x)));
  }
  if (items_per_invocation > 64) {
    return invalidArgument("ContextOptions::items_per_invocation " + std::to_string(items_per_invocation) +
                           " is above 64");
  }
  if (workgroup_size > 0) info_.workgroup_size = workgroup_size;
  if (items_per_invocation > 0) {
    // Tests shrink items to exercise many blocks and windows with small tensors: row segments too.
    info_.items_per_invocation = items_per_invocation;
    info_.row_items = items_per_invocation;
  }
  if (info_.row_lanes > info_.workgroup_size) info_.row_lanes = info_.workgroup_size;
  if (min_walk_lines > 0) {
    info_.min_walk_lines = info_.min_soft_float_walk_lines = min_walk_lines;
    info_.min_atomic_walk_lines = min_walk_lines;
    info_.max_single_line_walk_updates = UINT64_MAX;  // the override decides alone
    info_.min_float32_add_fold_duplicates = 0;
  }
  return Status::Ok();
}

Device::~Device() {
  if (owned_ && device_ != VK_NULL_HANDLE) {
    table_.vkDeviceWaitIdle(device_);
    table_.vkDestroyDevice(device_, nullptr);
  }
}

}  // namespace vkindex::vk
