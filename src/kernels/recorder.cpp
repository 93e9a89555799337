#include "kernels/recorder.hpp"

#include "vk/barriers.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace vkindex::kernels {
namespace {

// Regions per vkCmdCopyBuffer command (Recorder::copyRegions says why there is a bound).
constexpr size_t kRegionsPerCopyCommand = 256;

}  // namespace

Status Recorder::dispatch(ShaderId shader, const SpecValues& spec, const std::vector<BufferRange>& bindings,
                          const void* push, size_t push_size, uint32_t groups_x, uint32_t groups_y) {
  const DeviceInfo& limits = device_.info();
  if (groups_x == 0 || groups_y == 0 || groups_x > limits.max_workgroup_count[0] ||
      groups_y > limits.max_workgroup_count[1]) {
    return internalError(std::string("dispatch of ") + shaderInfo(shader).name + " with " + std::to_string(groups_x) +
                         "x" + std::to_string(groups_y) + " groups exceeds the device's limits");
  }
  VKINDEX_RETURN_IF_ERROR(bind(shader, spec, bindings, push, push_size));
  device_.fn().vkCmdDispatch(cmd_, groups_x, groups_y, 1);
  return Status::Ok();
}

Status Recorder::dispatchIndirect(ShaderId shader, const SpecValues& spec, const std::vector<BufferRange>& bindings,
                                  const void* push, size_t push_size, VkBuffer arguments, VkDeviceSize offset) {
  if (offset % 4 != 0) {
    return internalError(std::string("indirect dispatch of ") + shaderInfo(shader).name + " at an unaligned offset");
  }
  VKINDEX_RETURN_IF_ERROR(bind(shader, spec, bindings, push, push_size));
  device_.fn().vkCmdDispatchIndirect(cmd_, arguments, offset);
  return Status::Ok();
}

Status Recorder::bind(ShaderId shader, const SpecValues& spec, const std::vector<BufferRange>& bindings,
                      const void* push, size_t push_size) {
  const ShaderInfo& info = shaderInfo(shader);
  const DeviceInfo& limits = device_.info();
  // Contract checks: a mismatch is a bug in vkindex, never the caller's fault.
  if (bindings.size() != info.binding_count || push_size != info.push_bytes) {
    return internalError(std::string("dispatch of ") + info.name + " does not match its interface");
  }
  for (const BufferRange& binding : bindings) {
    if (binding.size == 0 || binding.size > limits.max_storage_buffer_range ||
        binding.offset % limits.min_storage_buffer_offset_alignment != 0) {
      return internalError(std::string("dispatch of ") + info.name + " binds a range the device cannot bind");
    }
  }
  VKINDEX_ASSIGN_OR_RETURN(const Pipeline* pipeline, pipelines_.get(shader, spec));
  VKINDEX_ASSIGN_OR_RETURN(VkDescriptorSet set, descriptors_.allocate(pipeline->set_layout));

  std::vector<VkDescriptorBufferInfo> buffer_infos;
  std::vector<VkWriteDescriptorSet> writes;
  buffer_infos.reserve(bindings.size());
  for (const BufferRange& binding : bindings) {
    buffer_infos.push_back({binding.buffer, binding.offset, binding.size});
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.dstBinding = static_cast<uint32_t>(writes.size());
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &buffer_infos.back();
    writes.push_back(write);
  }
  const VolkDeviceTable& fn = device_.fn();
  fn.vkUpdateDescriptorSets(device_.handle(), static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
  fn.vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->pipeline);
  fn.vkCmdBindDescriptorSets(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout, 0, 1, &set, 0, nullptr);
  fn.vkCmdPushConstants(cmd_, pipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, static_cast<uint32_t>(push_size), push);
  return Status::Ok();
}

void Recorder::barrier(const BufferRange& range, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                       VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  vk::recordBufferBarrier(device_.fn(), cmd_, range.buffer, range.offset, range.size, src_stage, src_access, dst_stage,
                          dst_access);
}

void Recorder::fillWord(VkBuffer buffer, VkDeviceSize offset, uint32_t value) {
  device_.fn().vkCmdFillBuffer(cmd_, buffer, offset, sizeof(uint32_t), value);
  barrier({buffer, offset, sizeof(uint32_t)}, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void Recorder::copyRegions(const BufferRange& source, const BufferRange& target,
                           const std::vector<VkBufferCopy>& regions) {
  if (regions.empty()) return;
  // The caller made earlier writes of source visible to compute shaders and ordered its accesses of
  // target before them: chaining from that stage extends both to the copy.
  barrier(source, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  barrier(target, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT);
  // In commands of at most kRegionsPerCopyCommand regions: the validation layer checks every pair of a
  // command's regions for overlap, time quadratic in their count. The targets are distinct, so the
  // commands need nothing between them.
  for (size_t first = 0; first < regions.size(); first += kRegionsPerCopyCommand) {
    const size_t count = std::min(kRegionsPerCopyCommand, regions.size() - first);
    device_.fn().vkCmdCopyBuffer(cmd_, source.buffer, target.buffer, static_cast<uint32_t>(count),
                                 regions.data() + first);
  }
  // The caller's barrier after the operation starts at compute shaders: chain the copy to them.
  barrier(target, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void Recorder::uploadFromHost(const BufferRange& range, const void* bytes) {
  if (range.size == 0) return;
  constexpr VkDeviceSize kMaxUpdateBytes = 65536;  // vkCmdUpdateBuffer's limit per command
  const auto* source = static_cast<const unsigned char*>(bytes);
  for (VkDeviceSize done = 0; done < range.size; done += kMaxUpdateBytes) {
    device_.fn().vkCmdUpdateBuffer(cmd_, range.buffer, range.offset + done,
                                   std::min(kMaxUpdateBytes, range.size - done), source + done);
  }
  barrier(range, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT);
}

std::pair<uint32_t, uint32_t> groupGrid(uint64_t groups, const DeviceInfo& info) {
  uint64_t max_x = info.max_workgroup_count[0];
  uint64_t max_y = info.max_workgroup_count[1];
  groups = std::max<uint64_t>(groups, 1);
  uint64_t x = std::min(groups, max_x);
  uint64_t y = std::min((groups + x - 1) / x, max_y);
  return {static_cast<uint32_t>(x), static_cast<uint32_t>(y)};
}

}  // namespace vkindex::kernels
