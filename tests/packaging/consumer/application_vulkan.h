/* The application's own use of Vulkan, linked against libvulkan: what an engine does before and after
 * it calls vkindex. Returns 0 on success. If the linker bound these calls to vkindex's loader table
 * (volk's globals named like Vulkan's functions) instead of libvulkan, the first one would crash. */
#ifndef VKINDEX_CONSUMER_APPLICATION_VULKAN_H
#define VKINDEX_CONSUMER_APPLICATION_VULKAN_H

#include <stdio.h>
#include <vulkan/vulkan.h>

static int useApplicationVulkan(const char* when) {
  uint32_t version = 0;
  if (vkEnumerateInstanceVersion(&version) != VK_SUCCESS || version < VK_API_VERSION_1_1) {
    fprintf(stderr, "%s: vkEnumerateInstanceVersion failed or < 1.1\n", when);
    return 1;
  }
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  if (vkCreateInstance(&info, NULL, &instance) != VK_SUCCESS) {
    fprintf(stderr, "%s: vkCreateInstance failed\n", when);
    return 1;
  }
  uint32_t device_count = 0;
  VkResult result = vkEnumeratePhysicalDevices(instance, &device_count, NULL);
  vkDestroyInstance(instance, NULL);
  if (result != VK_SUCCESS || device_count == 0) {
    fprintf(stderr, "%s: no physical device\n", when);
    return 1;
  }
  printf("%s: the application's Vulkan %u.%u sees %u device(s)\n", when, VK_API_VERSION_MAJOR(version),
         VK_API_VERSION_MINOR(version), device_count);
  return 0;
}

#endif /* VKINDEX_CONSUMER_APPLICATION_VULKAN_H */
