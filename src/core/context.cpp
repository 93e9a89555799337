#include <cstdlib>
#include <cstring>

#include "core/context_impl.hpp"
#include "core/transfer.hpp"
#include "core/tuning_profile_loading.hpp"

namespace vkindex {
namespace {

bool environmentFlag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
}

std::string environmentString(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// Everything after instance and device: the parts both creation paths share.
StatusOr<std::unique_ptr<Context::Impl>> finishImpl(std::unique_ptr<Context::Impl> impl,
                                                    const ContextOptions& options) {
  const ContextOverrides& overrides = options.overrides;
  impl->device->capBindingRange(overrides.max_binding_bytes);
  impl->device->capWorkgroupCount(overrides.max_workgroup_count);
  impl->staging_chunk_bytes = overrides.max_staging_bytes > 0 && overrides.max_staging_bytes < kStagingChunkBytes
                                  ? overrides.max_staging_bytes
                                  : kStagingChunkBytes;
  std::string cache_dir =
      options.pipeline_cache_dir ? *options.pipeline_cache_dir : vk::defaultPipelineCacheDirectory();
  TuningProfileLoad profile = loadTuningProfile(impl->device->info(), options.tuning_profile, cache_dir);
  impl->tuning_profile_path = profile.path;
  impl->tuning_profile_warning = profile.warning;
  VKINDEX_ASSIGN_OR_RETURN(impl->tuning, plan::chooseTuning(impl->device->info(), overridesInEffect(overrides),
                                                            profile.profile ? &*profile.profile : nullptr));
  VKINDEX_ASSIGN_OR_RETURN(impl->pipeline_cache, vk::PipelineCache::create(*impl->device, cache_dir));
  impl->pipelines = std::make_unique<kernels::PipelineLibrary>(*impl->device, impl->pipeline_cache->handle());
  VKINDEX_ASSIGN_OR_RETURN(impl->status, kernels::StatusBoard::create(*impl->device));
  VKINDEX_ASSIGN_OR_RETURN(impl->submitter, vk::Submitter::create(*impl->device));
  impl->scratch = std::make_unique<vk::ScratchCache>(*impl->device);
  return impl;
}

}  // namespace

ContextOverrides overridesInEffect(ContextOverrides overrides) {
  overrides.gpu_tuning = overrides.gpu_tuning || environmentFlag("VKINDEX_GPU_TUNING");
  return overrides;
}

Context::Context(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Context::~Context() {
  if (!impl_ || !impl_->device) return;
  impl_->device->fn().vkDeviceWaitIdle(impl_->device->handle());
  // Members go in reverse dependency order: everything device-owned before the device and instance.
  impl_->scratch.reset();
  impl_->submitter.reset();
  impl_->status.reset();
  impl_->pipelines.reset();
  impl_->pipeline_cache.reset();
  impl_->device.reset();
  impl_->instance.reset();
}

StatusOr<std::unique_ptr<Context>> Context::create(const ContextOptions& options) {
  vk::Instance::Options instance_options;
  instance_options.gpu_assisted = options.gpu_assisted_validation || environmentFlag("VKINDEX_GPU_ASSISTED_VALIDATION");
  instance_options.validation =
      options.validation || instance_options.gpu_assisted || environmentFlag("VKINDEX_VALIDATION");
  auto impl = std::make_unique<Impl>();
  VKINDEX_ASSIGN_OR_RETURN(impl->instance, vk::Instance::create(instance_options));
  VKINDEX_ASSIGN_OR_RETURN(std::vector<DeviceInfo> devices, vk::Device::enumerate(*impl->instance));
  std::string selector = !options.device.empty() ? options.device : environmentString("VKINDEX_DEVICE");
  VKINDEX_ASSIGN_OR_RETURN(uint32_t index, vk::Device::select(devices, selector));
  VKINDEX_ASSIGN_OR_RETURN(impl->device, vk::Device::create(*impl->instance, index));
  VKINDEX_ASSIGN_OR_RETURN(impl, finishImpl(std::move(impl), options));
  return std::unique_ptr<Context>(new Context(std::move(impl)));
}

StatusOr<std::unique_ptr<Context>> Context::adopt(const ExternalVulkan& external, const ContextOptions& options) {
  if (external.api_version < VK_API_VERSION_1_1) {
    return unsupported(
        "Context::adopt: vkindex needs an instance created for Vulkan 1.1 or later; "
        "ExternalVulkan::api_version is " +
        apiVersionString(external.api_version) +
        " (set it to the VkApplicationInfo::apiVersion the instance was created with)");
  }
  auto impl = std::make_unique<Impl>();
  VKINDEX_ASSIGN_OR_RETURN(impl->instance, vk::Instance::adopt(external.instance, external.get_instance_proc_addr));
  VKINDEX_ASSIGN_OR_RETURN(
      impl->device, vk::Device::adopt(*impl->instance, external.api_version, external.physical_device, external.device,
                                      external.queue, external.queue_family));
  if (impl->device->info().api_version < VK_API_VERSION_1_1) {
    return unsupported("Context::adopt: the device supports only Vulkan " +
                       apiVersionString(impl->device->info().api_version) + "; vkindex needs 1.1");
  }
  VKINDEX_ASSIGN_OR_RETURN(impl, finishImpl(std::move(impl), options));
  return std::unique_ptr<Context>(new Context(std::move(impl)));
}

StatusOr<std::vector<DeviceInfo>> Context::listDevices() {
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<vk::Instance> instance, vk::Instance::create({}));
  return vk::Device::enumerate(*instance);
}

StatusOr<uint32_t> Context::defaultDeviceIndex(const std::string& selector) {
  VKINDEX_ASSIGN_OR_RETURN(std::vector<DeviceInfo> devices, listDevices());
  return vk::Device::select(devices, selector.empty() ? environmentString("VKINDEX_DEVICE") : selector);
}

const DeviceInfo& Context::device() const { return impl_->device->info(); }
uint32_t Context::validationMessageCount() const { return impl_->instance->validationMessageCount(); }
std::string Context::firstValidationMessage() const { return impl_->instance->firstValidationMessage(); }
Status Context::savePipelineCache() const { return impl_->pipeline_cache->save(); }
std::string Context::pipelineCachePath() const { return impl_->pipeline_cache->path(); }
bool Context::pipelineCacheLoaded() const { return impl_->pipeline_cache->loadedFromDisk(); }
std::string Context::tuningProfilePath() const { return impl_->tuning_profile_path; }
bool Context::tuningProfileLoaded() const { return impl_->tuning.usesProfile(); }

std::string apiVersionString(uint32_t packed) {
  return std::to_string(VK_API_VERSION_MAJOR(packed)) + "." + std::to_string(VK_API_VERSION_MINOR(packed)) + "." +
         std::to_string(VK_API_VERSION_PATCH(packed));
}

double timestampMilliseconds(const DeviceInfo& info, uint64_t first_tick, uint64_t last_tick) {
  const uint32_t bits = info.timestamp_valid_bits;
  const uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  return static_cast<double>((last_tick - first_tick) & mask) * static_cast<double>(info.timestamp_period_ns) * 1e-6;
}

}  // namespace vkindex
