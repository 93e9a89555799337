// Gather: host-side glue between the public API, the planner (src/plan/gather_plan) and the recorder.
#include <cstring>
#include <numeric>

#include "core/transfer.hpp"
#include "ops/op_state.hpp"
#include "plan/gather_plan.hpp"
#include "plan/shape.hpp"
#include "plan/windows.hpp"

namespace vkindex {
namespace {

using kernels::BufferRange;

constexpr uint32_t kGatherBindings = 4;

plan::Placement placementOf(const Tensor& tensor) { return {tensor.offset(), tensor.byteSize()}; }

BufferRange rangeOf(VkBuffer buffer, const plan::Window& window) { return {buffer, window.offset, window.size}; }

// Whole-tensor range (rounded up to a word) for barriers.
BufferRange tensorRange(const Tensor& tensor) {
  return {tensor.buffer(), tensor.offset(), plan::alignUp(tensor.byteSize(), 4)};
}

Status validateOutput(const Tensor& output, const Tensor& data, const Tensor& indices, const Shape& expected) {
  if (output.dtype() != data.dtype()) {
    return invalidArgument(std::string("Gather: the output has type ") + dataTypeName(output.dtype()) +
                           " but input 'data' has type " + dataTypeName(data.dtype()));
  }
  if (output.shape() != expected) {
    return invalidArgument("Gather: the output has shape " + plan::shapeString(output.shape()) + ", expected " +
                           plan::shapeString(expected));
  }
  VKINDEX_RETURN_IF_ERROR(checkNoOverlap(output, data, "Gather", "data"));
  return checkNoOverlap(output, indices, "Gather", "indices");
}

struct Prepared {
  plan::GatherShape shape;
  plan::GatherPlan plan;
};

StatusOr<Prepared> prepare(Context& context, const Tensor& data, const Tensor& indices, int64_t axis,
                           const Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, data, "Gather", "data"));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, indices, "Gather", "indices"));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, output, "Gather", "output"));
  Prepared prepared;
  VKINDEX_ASSIGN_OR_RETURN(prepared.shape,
                           plan::inferGatherShape(data.shape(), data.dtype(), indices.shape(), indices.dtype(), axis));
  VKINDEX_RETURN_IF_ERROR(validateOutput(output, data, indices, prepared.shape.output_shape));
  VKINDEX_ASSIGN_OR_RETURN(prepared.plan,
                           plan::planGather(prepared.shape, indices.dtype(), placementOf(data), placementOf(indices),
                                            placementOf(output), context.device()));
  return prepared;
}

// Records: reset the status slot, check every index, then the copy passes, which write nothing if the
// check found a bad index. Ends with the status slot made visible to the host.
Status record(Context::Impl& context, kernels::Recorder& recorder, const Tensor& data, const Tensor& indices,
              const Tensor& output, const plan::GatherPlan& plan, uint32_t slot) {
  const DeviceInfo& device = context.device->info();
  const StatusBinding status = statusBinding(context, slot);
  const BufferRange& status_slot = status.slot;
  recorder.fillWord(status_slot.buffer, status_slot.offset, VKINDEX_NO_ERROR);
  if (plan.checks.empty()) return Status::Ok();

  const VkAccessFlags read_write = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  const auto status_barrier = [&] {
    recorder.barrier(status_slot, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, read_write);
  };
  const kernels::SpecValues check_spec{device.workgroup_size, plan.index_words, 0, 0, 0};
  for (const plan::CheckPass& pass : plan.checks) {
    abi::CheckParams check = pass.params;
    check.status_slot = status.relative_slot;
    auto [groups_x, groups_y] = kernels::groupGrid(pass.groups, device);
    VKINDEX_RETURN_IF_ERROR(recorder.dispatch(kernels::ShaderId::kCheckIndices, check_spec,
                                              {rangeOf(indices.buffer(), pass.indices), status.binding}, &check,
                                              sizeof(check), groups_x, groups_y));
  }
  status_barrier();
  if (!plan.copy_passes_report || plan.passes.empty()) {
    // One invocation per indices window copies the first bad index's value next to its position.
    for (const plan::CheckPass& pass : plan.checks) {
      abi::CheckParams report = pass.params;
      report.status_slot = status.relative_slot;
      report.report_only = 1;
      VKINDEX_RETURN_IF_ERROR(recorder.dispatch(kernels::ShaderId::kCheckIndices, check_spec,
                                                {rangeOf(indices.buffer(), pass.indices), status.binding}, &report,
                                                sizeof(report), 1, 1));
    }
    status_barrier();
  }
  const kernels::SpecValues gather_spec{plan.workgroup_size, plan.index_words, plan.unit_bytes,
                                        plan.items_per_invocation, plan.row_tiled ? 1u : 0u};
  for (size_t i = 0; i < plan.passes.size(); ++i) {
    const plan::GatherPass& pass = plan.passes[i];
    if (i > 0) {
      // Sub-word passes may share an output word with the previous pass (atomics on disjoint bytes),
      // so passes are ordered.
      recorder.barrier(rangeOf(output.buffer(), pass.output), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, read_write);
    }
    abi::GatherParams params = pass.params;
    params.status_slot = status.relative_slot;
    auto [groups_x, groups_y] = kernels::groupGrid(pass.groups, device);
    VKINDEX_RETURN_IF_ERROR(
        recorder.dispatch(kernels::ShaderId::kGather, gather_spec,
                          {rangeOf(data.buffer(), pass.data), rangeOf(indices.buffer(), pass.indices),
                           rangeOf(output.buffer(), pass.output), status.binding},
                          &params, sizeof(params), groups_x, groups_y));
  }
  recorder.barrier(status_slot, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  return Status::Ok();
}

StatusOr<std::unique_ptr<RecordedOp::State>> newGatherState(Context& context, const Prepared& prepared,
                                                            const Tensor& indices) {
  IndexCheckInfo info{"Gather", "indices", indices.shape(), prepared.shape.axis, prepared.shape.axis_size};
  uint32_t dispatches = static_cast<uint32_t>(2 * prepared.plan.checks.size() + prepared.plan.passes.size());
  return newOpState(context.impl(), dispatches, kGatherBindings, std::move(info));
}

// Strings stay on the host: gather their positions (as 4-byte ids) on the device, then pick the strings.
Status gatherStrings(Context& context, const Tensor& data, const Tensor& indices, int64_t axis, Tensor& output) {
  std::vector<uint32_t> ids(data.elementCount());
  std::iota(ids.begin(), ids.end(), 0u);
  VKINDEX_ASSIGN_OR_RETURN(Tensor id_tensor, Tensor::fromHost(context, DataType::kUInt32, data.shape(), ids.data(),
                                                              ids.size() * sizeof(uint32_t)));
  VKINDEX_ASSIGN_OR_RETURN(Tensor gathered, gather(context, id_tensor, indices, axis));
  VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, gathered.toHost());
  std::vector<std::string>& strings = output.mutableStrings();
  strings.resize(gathered.elementCount());
  for (size_t i = 0; i < strings.size(); ++i) {
    uint32_t id;
    std::memcpy(&id, bytes.data() + i * sizeof(id), sizeof(id));
    strings[i] = data.strings()[id];
  }
  return Status::Ok();
}

}  // namespace

Status gather(Context& context, const Tensor& data, const Tensor& indices, int64_t axis, Tensor& output) {
  if (data.dtype() == DataType::kString) {
    VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, output, "Gather", "output"));
    VKINDEX_ASSIGN_OR_RETURN(plan::GatherShape shape, plan::inferGatherShape(data.shape(), data.dtype(),
                                                                             indices.shape(), indices.dtype(), axis));
    VKINDEX_RETURN_IF_ERROR(validateOutput(output, data, indices, shape.output_shape));
    return gatherStrings(context, data, indices, axis, output);
  }
  VKINDEX_ASSIGN_OR_RETURN(Prepared prepared, prepare(context, data, indices, axis, output));
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<RecordedOp::State> state, newGatherState(context, prepared, indices));
  Context::Impl& impl = context.impl();
  VKINDEX_ASSIGN_OR_RETURN(VkCommandBuffer cmd, impl.submitter->begin());
  kernels::Recorder recorder(*impl.device, *impl.pipelines, state->descriptors, cmd);
  // Prologue: earlier transfers and kernels on these tensors complete before this op reads or writes.
  const std::pair<const Tensor*, VkAccessFlags> accesses[] = {
      {&data, VK_ACCESS_SHADER_READ_BIT},
      {&indices, VK_ACCESS_SHADER_READ_BIT},
      {&output, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT}};
  for (const auto& [tensor, access] : accesses) {
    if (tensor->byteSize() > 0) {
      recorder.barrier(tensorRange(*tensor), kTensorStages, kTensorWrites, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       access);
    }
  }
  VKINDEX_RETURN_IF_ERROR(record(impl, recorder, data, indices, output, prepared.plan, *state->slot));
  VKINDEX_RETURN_IF_ERROR(impl.submitter->submitAndWait());
  return state->result();
}

StatusOr<Tensor> gather(Context& context, const Tensor& data, const Tensor& indices, int64_t axis) {
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherShape shape,
                           plan::inferGatherShape(data.shape(), data.dtype(), indices.shape(), indices.dtype(), axis));
  Tensor output;
  if (data.dtype() == DataType::kString) {
    std::vector<std::string> empty(*plan::elementCount(shape.output_shape));
    VKINDEX_ASSIGN_OR_RETURN(output, Tensor::fromStrings(context, shape.output_shape, std::move(empty)));
  } else {
    VKINDEX_ASSIGN_OR_RETURN(output, Tensor::create(context, data.dtype(), shape.output_shape));
  }
  VKINDEX_RETURN_IF_ERROR(gather(context, data, indices, axis, output));
  return output;
}

StatusOr<RecordedOp> recordGather(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                  const Tensor& indices, int64_t axis, Tensor& output) {
  if (data.dtype() == DataType::kString) {
    return unsupported("recordGather: string tensors live on the host and cannot be recorded; use gather()");
  }
  if (command_buffer == VK_NULL_HANDLE) return invalidArgument("recordGather: the VkCommandBuffer is null");
  VKINDEX_ASSIGN_OR_RETURN(Prepared prepared, prepare(context, data, indices, axis, output));
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<RecordedOp::State> state, newGatherState(context, prepared, indices));
  Context::Impl& impl = context.impl();
  kernels::Recorder recorder(*impl.device, *impl.pipelines, state->descriptors, command_buffer);
  VKINDEX_RETURN_IF_ERROR(record(impl, recorder, data, indices, output, prepared.plan, *state->slot));
  return RecordedOpAccess::wrap(std::move(state));
}

}  // namespace vkindex
