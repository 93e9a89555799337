// Context: one Vulkan device (created by vkindex, or the application's own) with everything vkindex
// keeps for it: pipelines, the pipeline cache, status slots, an idle scratch buffer for the next
// operation that needs one, and a command buffer for its own submissions.
//
// Thread safety:
// - Creating, adopting and destroying different Contexts from different threads is safe, and each
//   Context may then be used by its own thread.
// - Calls that submit (Tensor::fromHost/upload/download, the ops without a VkCommandBuffer) use the
//   Context's command buffer and queue: make them from one thread at a time per Context. When adopting
//   the application's queue, also keep the application's own submissions to that queue off other
//   threads meanwhile (Vulkan requires queue access to be externally synchronized).
// - Recording (recordGather and the other record* functions) into different command buffers may run
//   concurrently on one Context: it only shares the pipeline cache, status slots and the idle scratch
//   buffer, which are locked.
// - Tensors and RecordedOps are not shared between threads without external synchronization.
//
// Lifetime: a Context must outlive every Tensor it created and every RecordedOp recorded on it, as a
// VkDevice must outlive the objects made from it. Destroy (or finish and destroy) those first; a
// Tensor or RecordedOp used or destroyed after its Context is undefined behaviour.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "vkindex/api.h"
#include "vkindex/context_overrides.hpp"
#include "vkindex/device_info.hpp"
#include "vkindex/status.hpp"

namespace vkindex {

namespace internal {
struct ContextAccess;
}

struct ContextOptions {
  // Which device: a decimal index ("1") or a case-insensitive substring of its name ("llvmpipe").
  // Empty: the environment variable VKINDEX_DEVICE, and if that is unset too, the first discrete GPU,
  // else the first integrated GPU, else the first device.
  std::string device;
  // Khronos validation layer with a messenger counting warnings and errors (see
  // Context::validationMessageCount). Also switched on by VKINDEX_VALIDATION=1.
  bool validation = false;
  // GPU-assisted validation in addition: reports out-of-bounds accesses by shaders.
  // Also switched on by VKINDEX_GPU_ASSISTED_VALIDATION=1.
  bool gpu_assisted_validation = false;
  // Directory for the on-disk VkPipelineCache. nullopt: $VKINDEX_PIPELINE_CACHE_DIR, else
  // $XDG_CACHE_HOME/vkindex, else $HOME/.cache/vkindex. Empty string: keep the cache in memory only.
  std::optional<std::string> pipeline_cache_dir;
  // A tuning profile written by `vkindex tune` (docs/tuning.md#profiles): the tuning values measured on
  // this device, taken over the built-in table's. nullopt: $VKINDEX_TUNING_PROFILE, else the profile
  // `vkindex tune` writes into the pipeline cache directory for this device, when there is one. Empty
  // string: none. A file that is damaged, made for another device, driver or vkindex version, or holds
  // a value out of range is ignored with one warning on stderr: the table's values are used.
  std::optional<std::string> tuning_profile;
  // Test and tuning knobs: they change how vkindex computes, never the result (context_overrides.hpp).
  ContextOverrides overrides;
};

// The application's Vulkan objects, for Context::adopt. vkindex uses them and never destroys them.
struct ExternalVulkan {
  // The VkApplicationInfo::apiVersion the instance was created with. vkindex uses Vulkan 1.1 (its
  // baseline) and cannot read this from the handles, so adopt() refuses 0 and anything below 1.1.
  // From 1.2 on (the device's version too) vkindex also uses float controls, core there
  // (DeviceInfo::float32_rounding_rte).
  uint32_t api_version = 0;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;  // needs no optional feature or extension
  VkQueue queue = VK_NULL_HANDLE;    // a queue of `queue_family`, which must support compute
  uint32_t queue_family = 0;
  // The application's loader entry point; null to use the system's libvulkan.so.1.
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
};

class VKINDEX_API Context {
 public:
  // Creates an instance (Vulkan 1.1) and a device with one compute queue.
  static StatusOr<std::unique_ptr<Context>> create(const ContextOptions& options = {});
  // Wraps the application's instance, device and queue. `options.device` and the validation options are
  // ignored: the application's instance decides about layers.
  static StatusOr<std::unique_ptr<Context>> adopt(const ExternalVulkan& external, const ContextOptions& options = {});
  // Every Vulkan device with a compute queue (through a temporary instance), and the index of the one
  // `selector` would pick (same rules as ContextOptions::device).
  static StatusOr<std::vector<DeviceInfo>> listDevices();
  static StatusOr<uint32_t> defaultDeviceIndex(const std::string& selector = "");

  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const DeviceInfo& device() const;
  // Validation warnings and errors seen since creation (always 0 without validation).
  uint32_t validationMessageCount() const;
  std::string firstValidationMessage() const;
  // Writes the pipeline cache to disk now (it is also written when the Context is destroyed).
  Status savePipelineCache() const;
  // The cache file, and whether usable data was loaded from it at creation.
  std::string pipelineCachePath() const;
  bool pipelineCacheLoaded() const;
  // The tuning profile file looked at ("" when none), and whether its values are in use (false when
  // there was none, when it was ignored with a warning, or under ContextOverrides::gpu_tuning).
  std::string tuningProfilePath() const;
  bool tuningProfileLoaded() const;

  // Internal state, reached inside vkindex (and by its tools and tests, through the vkindex_internal
  // target) via src/core/context_impl.hpp.
  struct Impl;

 private:
  friend struct internal::ContextAccess;
  explicit Context(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace vkindex
