#include "vk/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <thread>

namespace vkindex::vk {
namespace {

// SwiftShader's scheduler starts min(logical CPUs, 16) workers; llvmpipe one per CPU up to its limit.
constexpr unsigned kMostCpuThreads = 16;

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
  info.float32_rounding_rte = has_float_controls && float_controls.shaderRoundingModeRTEFloat32 &&
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
  info.cpu_threads = info.type == "cpu" ? std::clamp(std::thread::hardware_concurrency(), 1u, kMostCpuThreads) : 0;
  info.max_storage_buffer_range = limits.maxStorageBufferRange;
  info.min_storage_buffer_offset_alignment = limits.minStorageBufferOffsetAlignment;
  std::copy(std::begin(limits.maxComputeWorkGroupCount), std::end(limits.maxComputeWorkGroupCount),
            info.max_workgroup_count.begin());
  info.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  info.max_workgroup_size_x = limits.maxComputeWorkGroupSize[0];
  // A correctness limit, so no tuning changes it (DeviceInfo::max_walk_steps).
  info.max_walk_steps = info.type == "cpu" ? 16384u : uint64_t(1) << 20;
  info.max_push_constants_size = limits.maxPushConstantsSize;
  uint32_t timestamp_bits = 0;
  computeQueueFamily(physical, &timestamp_bits);
  info.timestamps = timestamp_bits > 0 && limits.timestampPeriod > 0.0f;
  info.timestamp_valid_bits = timestamp_bits;
  info.timestamp_period_ns = limits.timestampPeriod;
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
  // shaderInt64 where the device has it: the 64-bit-component kernels (docs/tuning.md, int64_units) need it.
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(physical, &supported);
  VkPhysicalDeviceFeatures enabled{};
  enabled.shaderInt64 = supported.shaderInt64;
  info.pEnabledFeatures = &enabled;
  // VK_KHR_shader_float_controls where advertised: the *_float32_add_native modules declare
  // RoundingModeRTE (DeviceInfo::float32_rounding_rte).
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
  device->info_.shader_int64 = false;  // the application may not have enabled shaderInt64
  // Nor VK_KHR_shader_float_controls; but from Vulkan 1.2 on, for the instance and the device alike,
  // float controls are core and a module may declare its rounding mode without the extension.
  device->info_.float32_rounding_rte =
      device->info_.float32_rounding_rte && std::min(api_version, device->info_.api_version) >= VK_API_VERSION_1_2;
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

Device::~Device() {
  if (owned_ && device_ != VK_NULL_HANDLE) {
    table_.vkDeviceWaitIdle(device_);
    table_.vkDestroyDevice(device_, nullptr);
  }
}

}  // namespace vkindex::vk
