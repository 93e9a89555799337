#include "kernels/pipeline_library.hpp"

#include <vector>

namespace vkindex::kernels {

PipelineLibrary::~PipelineLibrary() {
  const VolkDeviceTable& fn = device_.fn();
  for (auto& [key, pipeline] : pipelines_) fn.vkDestroyPipeline(device_.handle(), pipeline->pipeline, nullptr);
  for (auto& [id, layout] : layouts_) {
    fn.vkDestroyPipelineLayout(device_.handle(), layout.layout, nullptr);
    fn.vkDestroyDescriptorSetLayout(device_.handle(), layout.set_layout, nullptr);
    fn.vkDestroyShaderModule(device_.handle(), layout.module, nullptr);
  }
}

StatusOr<const PipelineLibrary::Layout*> PipelineLibrary::layoutFor(ShaderId shader) {
  auto found = layouts_.find(shader);
  if (found != layouts_.end()) return &found->second;
  const ShaderInfo& info = shaderInfo(shader);
  const VolkDeviceTable& fn = device_.fn();
  Layout layout;

  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = info.word_count * sizeof(uint32_t);
  module_info.pCode = info.words;
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateShaderModule(device_.handle(), &module_info, nullptr, &layout.module));

  std::vector<VkDescriptorSetLayoutBinding> bindings(info.binding_count);
  for (uint32_t i = 0; i < info.binding_count; ++i) {
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = info.binding_count;
  set_info.pBindings = bindings.data();
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreateDescriptorSetLayout(device_.handle(), &set_info, nullptr, &layout.set_layout));

  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, info.push_bytes};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &layout.set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  VKINDEX_VK_RETURN_IF_ERROR(fn.vkCreatePipelineLayout(device_.handle(), &layout_info, nullptr, &layout.layout));
  return &(layouts_[shader] = layout);
}

StatusOr<const Pipeline*> PipelineLibrary::get(ShaderId shader, const SpecValues& requested) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Requests that differ only in constants the module does not declare share one pipeline.
  const SpecValues spec = declaredSpecValues(shaderInfo(shader), requested);
  auto key = std::make_pair(shader, spec);
  auto found = pipelines_.find(key);
  if (found != pipelines_.end()) return found->second.get();
  VKINDEX_ASSIGN_OR_RETURN(const Layout* layout, layoutFor(shader));

  VkSpecializationMapEntry entries[kSpecCount];
  for (uint32_t i = 0; i < kSpecCount; ++i) entries[i] = {i, i * uint32_t(sizeof(uint32_t)), sizeof(uint32_t)};
  VkSpecializationInfo specialization{kSpecCount, entries, sizeof(SpecValues), spec.data()};
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = layout->module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specialization;
  info.layout = layout->layout;

  auto pipeline = std::make_unique<Pipeline>();
  pipeline->layout = layout->layout;
  pipeline->set_layout = layout->set_layout;
  pipeline->shader = shader;
  VKINDEX_VK_RETURN_IF_ERROR(
      device_.fn().vkCreateComputePipelines(device_.handle(), cache_, 1, &info, nullptr, &pipeline->pipeline));
  return (pipelines_[key] = std::move(pipeline)).get();
}

size_t PipelineLibrary::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pipelines_.size();
}

}  // namespace vkindex::kernels
