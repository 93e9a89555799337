#include "kernels/step_timestamps.hpp"

#include <algorithm>

namespace vkindex::kernels {

StatusOr<std::unique_ptr<StepTimestamps>> StepTimestamps::create(const vk::Device& device) {
  if (!device.info().timestamps) return unsupported("this device's queue has no timestamp queries");
  std::unique_ptr<StepTimestamps> stamps(new StepTimestamps(device));
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = kCapacity;
  VKINDEX_VK_RETURN_IF_ERROR(device.fn().vkCreateQueryPool(device.handle(), &info, nullptr, &stamps->pool_));
  return stamps;
}

StepTimestamps::~StepTimestamps() {
  if (pool_ != VK_NULL_HANDLE) device_.fn().vkDestroyQueryPool(device_.handle(), pool_, nullptr);
}

void StepTimestamps::begin(VkCommandBuffer cmd) {
  kernels_.clear();
  overflowed_ = false;
  device_.fn().vkCmdResetQueryPool(cmd, pool_, 0, kCapacity);
  device_.fn().vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool_, 0);
}

void StepTimestamps::stamp(VkCommandBuffer cmd, ShaderId kernel) {
  const auto query = static_cast<uint32_t>(kernels_.size() + 1);
  if (query >= kCapacity) {
    overflowed_ = true;
    return;
  }
  // The stamp waits for the compute work recorded before it, so it marks that dispatch's end.
  device_.fn().vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, pool_, query);
  kernels_.push_back(kernel);
}

StatusOr<std::vector<KernelTime>> StepTimestamps::read() const {
  if (overflowed_)
    return unsupported("the operation recorded more than " + std::to_string(kCapacity - 1) + " dispatches");
  std::vector<uint64_t> ticks(kernels_.size() + 1);
  VKINDEX_VK_RETURN_IF_ERROR(device_.fn().vkGetQueryPoolResults(
      device_.handle(), pool_, 0, static_cast<uint32_t>(ticks.size()), ticks.size() * sizeof(uint64_t), ticks.data(),
      sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  std::vector<KernelTime> split;
  for (size_t i = 0; i < kernels_.size(); ++i) {
    const std::string name = shaderInfo(kernels_[i]).name;
    auto found = std::find_if(split.begin(), split.end(), [&](const KernelTime& k) { return k.kernel == name; });
    if (found == split.end()) found = split.insert(split.end(), KernelTime{name, 0, 0.0});
    found->dispatches += 1;
    found->device_ms += timestampMilliseconds(device_.info(), ticks[i], ticks[i + 1]);
  }
  return split;
}

}  // namespace vkindex::kernels
