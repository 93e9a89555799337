#include "vk/instance.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

namespace vkindex::vk {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

// volk keeps the loader's entry points and instance-level functions in process-wide globals. Every
// write to them (initialization, loading an instance's functions) happens under this lock, so
// Contexts may be created and adopted from several threads at once.
std::mutex& volkGlobalsMutex() {
  static std::mutex mutex;
  return mutex;
}

Status initializeLoader() {
  // Once per process: later calls would only reload the same library and entry points.
  static const VkResult result = volkInitialize();
  if (result != VK_SUCCESS) {
    return deviceError("no Vulkan loader found (libvulkan.so.1): install a Vulkan driver and loader");
  }
  return Status::Ok();
}

bool hasLayer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const VkLayerProperties& layer : layers) {
    if (std::strcmp(layer.layerName, name) == 0) return true;
  }
  return false;
}

}  // namespace

StatusOr<std::unique_ptr<Instance>> Instance::create(const Options& options) {
  std::lock_guard<std::mutex> lock(volkGlobalsMutex());
  VKINDEX_RETURN_IF_ERROR(initializeLoader());
  std::unique_ptr<Instance> instance(new Instance());
  instance->owned_ = true;

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vkindex";
  app.pEngineName = "vkindex";
  app.apiVersion = VK_API_VERSION_1_1;  // the baseline; nothing newer is required

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  const VkValidationFeatureEnableEXT gpu_assisted[] = {VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};

  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  if (options.validation || options.gpu_assisted) {
    if (!hasLayer(kValidationLayer)) {
      return unsupported(std::string("validation was requested but ") + kValidationLayer +
                         " is not installed (Debian: vulkan-validationlayers)");
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    messenger_info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_info.pfnUserCallback = &Instance::onDebugMessage;
    messenger_info.pUserData = instance.get();
    // Chained into creation too, so messages from vkCreateInstance itself are counted.
    info.pNext = &messenger_info;
    if (options.gpu_assisted) {
      features.enabledValidationFeatureCount = 1;
      features.pEnabledValidationFeatures = gpu_assisted;
      messenger_info.pNext = &features;
    }
  }
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();

  const VkResult created = vkCreateInstance(&info, nullptr, &instance->instance_);
  if (created == VK_ERROR_INCOMPATIBLE_DRIVER) {
    // The loader found no driver manifest, or none whose library loads and supports Vulkan 1.1.
    return deviceError(
        "no Vulkan driver found (vkCreateInstance returned VK_ERROR_INCOMPATIBLE_DRIVER): check VK_DRIVER_FILES, "
        "or install a driver (a CPU one on Debian: mesa-vulkan-drivers)");
  }
  VKINDEX_RETURN_IF_ERROR(checkResult(created, "vkCreateInstance"));
  volkLoadInstanceOnly(instance->instance_);
  if (!layers.empty()) {
    // Extension functions through this instance's vkGetInstanceProcAddr, not volk's globals, which a
    // later instance without the extension overwrites with null.
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance->instance_, "vkCreateDebugUtilsMessengerEXT"));
    instance->destroy_messenger_ = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance->instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (create_messenger == nullptr || instance->destroy_messenger_ == nullptr) {
      return deviceError("the validation layer is enabled but VK_EXT_debug_utils is not available");
    }
    messenger_info.pNext = nullptr;
    VKINDEX_VK_RETURN_IF_ERROR(create_messenger(instance->instance_, &messenger_info, nullptr, &instance->messenger_));
  }
  return instance;
}

StatusOr<std::unique_ptr<Instance>> Instance::adopt(VkInstance handle,
                                                    PFN_vkGetInstanceProcAddr get_instance_proc_addr) {
  if (handle == VK_NULL_HANDLE) return invalidArgument("Context::adopt: the VkInstance is null");
  std::lock_guard<std::mutex> lock(volkGlobalsMutex());
  if (get_instance_proc_addr != nullptr) {
    volkInitializeCustom(get_instance_proc_addr);
  } else {
    VKINDEX_RETURN_IF_ERROR(initializeLoader());
  }
  std::unique_ptr<Instance> instance(new Instance());
  instance->instance_ = handle;
  volkLoadInstanceOnly(handle);
  return instance;
}

Instance::~Instance() {
  if (messenger_ != VK_NULL_HANDLE) destroy_messenger_(instance_, messenger_, nullptr);
  if (owned_ && instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

std::string Instance::firstValidationMessage() const {
  std::lock_guard<std::mutex> lock(message_mutex_);
  return first_message_;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Instance::onDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                        VkDebugUtilsMessageTypeFlagsEXT,
                                                        const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* self = static_cast<Instance*>(user);
  const char* text = data != nullptr && data->pMessage != nullptr ? data->pMessage : "(no message)";
  std::fprintf(stderr, "vkindex: validation %s: %s\n",
               severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning", text);
  if (self->message_count_.fetch_add(1) == 0) {
    std::lock_guard<std::mutex> lock(self->message_mutex_);
    self->first_message_ = text;
  }
  return VK_FALSE;  // never abort the call: the test that sees the count decides
}

}  // namespace vkindex::vk
