// Compute pipelines keyed by (shader, specialization values), created on first use through the
// context's VkPipelineCache. Layouts are per shader: N storage buffers and one push-constant range.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "kernels/shader_registry.hpp"
#include "vk/device.hpp"

namespace vkindex::kernels {

struct Pipeline {
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  ShaderId shader = ShaderId::kCount;
};

class PipelineLibrary {
 public:
  PipelineLibrary(const vk::Device& device, VkPipelineCache cache) : device_(device), cache_(cache) {}
  ~PipelineLibrary();
  PipelineLibrary(const PipelineLibrary&) = delete;
  PipelineLibrary& operator=(const PipelineLibrary&) = delete;

  // The pipeline for `shader` specialized with `requested`; created (and cached) on first request,
  // keyed by the values the module declares (declaredSpecValues).
  StatusOr<const Pipeline*> get(ShaderId shader, const SpecValues& requested);

  // Pipelines created so far.
  size_t size() const;

 private:
  struct Layout {
    VkShaderModule module = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
  };
  StatusOr<const Layout*> layoutFor(ShaderId shader);

  const vk::Device& device_;
  VkPipelineCache cache_;
  mutable std::mutex mutex_;
  std::map<ShaderId, Layout> layouts_;
  std::map<std::pair<ShaderId, SpecValues>, std::unique_ptr<Pipeline>> pipelines_;
};

}  // namespace vkindex::kernels
