// A VkInstance, created by vkindex (optionally with the Khronos validation layer and a debug messenger
// that counts every warning and error) or adopted from the application.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "vk/vulkan.hpp"

namespace vkindex::vk {

class Instance {
 public:
  struct Options {
    bool validation = false;    // enable VK_LAYER_KHRONOS_validation and count its messages
    bool gpu_assisted = false;  // also GPU-assisted validation: out-of-bounds shader access is reported
  };

  // Loads the Vulkan loader (once per process) and creates an instance for Vulkan 1.1.
  static StatusOr<std::unique_ptr<Instance>> create(const Options& options);
  // Wraps the application's instance; vkindex never destroys it. `get_instance_proc_addr` may be null
  // to use the system loader.
  static StatusOr<std::unique_ptr<Instance>> adopt(VkInstance handle, PFN_vkGetInstanceProcAddr get_instance_proc_addr);

  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance handle() const { return instance_; }
  // Validation warnings and errors reported so far (0 when validation is off).
  uint32_t validationMessageCount() const { return message_count_.load(); }
  // The first validation message, for test failure reports.
  std::string firstValidationMessage() const;

 private:
  Instance() = default;
  static VKAPI_ATTR VkBool32 VKAPI_CALL onDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                       VkDebugUtilsMessageTypeFlagsEXT types,
                                                       const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  // This instance's own entry point: volk's global one belongs to whichever instance loaded last,
  // and is null for an extension that instance did not enable.
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger_ = nullptr;
  bool owned_ = false;
  std::atomic<uint32_t> message_count_{0};
  mutable std::mutex message_mutex_;
  std::string first_message_;
};

}  // namespace vkindex::vk
