// A VkDevice with one compute queue and its function table, created by vkindex on a selected physical
// device or adopted from the application. Device functions go through a per-device VolkDeviceTable, so
// several devices (and an application's own use of Vulkan) never share global function pointers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "vk/instance.hpp"
#include "vkindex/device_info.hpp"

namespace vkindex::vk {

class Device {
 public:
  // Every physical device with a compute queue, with its probed DeviceInfo.
  static StatusOr<std::vector<DeviceInfo>> enumerate(const Instance& instance);
  // The index of the device `selector` names: a decimal index, or a case-insensitive substring of the
  // device name. An empty selector picks the default: the first discrete GPU, else integrated, else any.
  static StatusOr<uint32_t> select(const std::vector<DeviceInfo>& devices, const std::string& selector);

  // Creates a logical device with one compute queue on device `index`. No optional feature is enabled.
  static StatusOr<std::unique_ptr<Device>> create(const Instance& instance, uint32_t index);
  // Wraps the application's device and queue (which must support compute); vkindex never destroys them.
  // `api_version`: the one the application created its instance with (ExternalVulkan::api_version).
  static StatusOr<std::unique_ptr<Device>> adopt(const Instance& instance, uint32_t api_version,
                                                 VkPhysicalDevice physical_device, VkDevice handle, VkQueue queue,
                                                 uint32_t queue_family);

  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const VolkDeviceTable& fn() const { return table_; }
  // For tests only: the same table, writable, so a test can put a failing vkAllocateMemory (or any
  // other command) in front of the driver's and check how vkindex handles it.
  VolkDeviceTable& functionsForTesting() { return table_; }
  VkDevice handle() const { return device_; }
  VkPhysicalDevice physical() const { return physical_; }
  VkQueue queue() const { return queue_; }
  uint32_t queueFamily() const { return queue_family_; }
  const DeviceInfo& info() const { return info_; }
  const VkPhysicalDeviceMemoryProperties& memory() const { return memory_; }
  // Lowers the binding range vkindex plans with (ContextOverrides::max_binding_bytes). Never raises it.
  void capBindingRange(uint64_t bytes);
  // Lowers the workgroups per grid dimension vkindex dispatches (ContextOverrides::max_workgroup_count).
  void capWorkgroupCount(uint32_t groups);

 private:
  Device() = default;
  Status finishSetup(VkPhysicalDevice physical, uint32_t index);

  VolkDeviceTable table_{};
  VkDevice device_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  bool owned_ = false;
  DeviceInfo info_;
  VkPhysicalDeviceMemoryProperties memory_{};
};

}  // namespace vkindex::vk
