// GatherBlockQuantized (com.microsoft), the public forms (vkindex/gather_block_quantized.hpp):
// validation on the host (src/plan/gather_block_quantized_shape.cpp), the plan through the one runner.
// Host indices are checked on the host and recorded into the command buffer ahead of the kernel.
#include <string>

#include "core/tensor_access.hpp"
#include "ops/gather_family.hpp"
#include "ops/op_runner.hpp"
#include "plan/gather_block_quantized_plan.hpp"
#include "plan/host_index_copy.hpp"
#include "plan/shape.hpp"
#include "vkindex/gather_block_quantized.hpp"

namespace vkindex {
namespace {

Status checkInputContexts(Context& context, const Tensor& data, const Tensor* indices, const Tensor& scales,
                          const Tensor* zero_points) {
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, data, plan::kGatherBlockQuantizedOp, "data"));
  if (indices != nullptr)
    VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, *indices, plan::kGatherBlockQuantizedOp, "indices"));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, scales, plan::kGatherBlockQuantizedOp, "scales"));
  if (zero_points != nullptr)
    VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, *zero_points, plan::kGatherBlockQuantizedOp, "zero_points"));
  return Status::Ok();
}

StatusOr<plan::GatherBlockQuantizedShape> infer(const Tensor& data, DataType index_type, const Shape& index_shape,
                                                const Tensor& scales, const Tensor* zero_points,
                                                const GatherBlockQuantizedOptions& options) {
  std::optional<plan::TensorInput> zero_point_input;
  if (zero_points != nullptr) zero_point_input = plan::TensorInput{zero_points->dtype(), zero_points->shape()};
  return plan::inferGatherBlockQuantizedShape({data.dtype(), data.shape()}, {index_type, index_shape},
                                              {scales.dtype(), scales.shape()}, zero_point_input, options);
}

// The output has the inferred shape, the scales' type, and shares no bytes with the inputs.
Status validateOutput(const plan::GatherBlockQuantizedShape& shape, const Tensor& output, const Tensor& data,
                      const Tensor* indices, const Tensor& scales, const Tensor* zero_points) {
  if (output.dtype() != shape.scale_type) {
    return invalidArgument(std::string(plan::kGatherBlockQuantizedOp) + ": the output has type " +
                           dataTypeName(output.dtype()) + " but input 'scales' has type " +
                           dataTypeName(shape.scale_type));
  }
  if (output.shape() != shape.output_shape) {
    return invalidArgument(std::string(plan::kGatherBlockQuantizedOp) + ": the output has shape " +
                           plan::shapeString(output.shape()) + ", expected " + plan::shapeString(shape.output_shape));
  }
  VKINDEX_RETURN_IF_ERROR(checkNoOverlap(output, data, plan::kGatherBlockQuantizedOp, "data"));
  if (indices != nullptr)
    VKINDEX_RETURN_IF_ERROR(checkNoOverlap(output, *indices, plan::kGatherBlockQuantizedOp, "indices"));
  VKINDEX_RETURN_IF_ERROR(checkNoOverlap(output, scales, plan::kGatherBlockQuantizedOp, "scales"));
  if (zero_points != nullptr)
    VKINDEX_RETURN_IF_ERROR(checkNoOverlap(output, *zero_points, plan::kGatherBlockQuantizedOp, "zero_points"));
  return Status::Ok();
}

StatusOr<plan::OpPlan> planFor(Context& context, const plan::GatherBlockQuantizedShape& shape, const Tensor& data,
                               const Tensor& indices, const Tensor& scales, const Tensor* zero_points,
                               const Tensor& output) {
  std::optional<plan::Placement> zero_point_placement;
  if (zero_points != nullptr) zero_point_placement = placementOf(*zero_points);
  return plan::planGatherBlockQuantized(shape, placementOf(data), placementOf(indices), placementOf(scales),
                                        zero_point_placement, placementOf(output), context.device(), tuningOf(context));
}

OpTensors tensorsOf(const Tensor& data, const Tensor& indices, const Tensor& scales, const Tensor* zero_points,
                    Tensor& output) {
  OpTensors tensors{&data, &indices, nullptr, &output};
  tensors.scales = &scales;
  tensors.zero_points = zero_points;
  return tensors;
}

Status runInferred(Context& context, const plan::GatherBlockQuantizedShape& shape, const Tensor& data,
                   const Tensor& indices, const Tensor& scales, const Tensor* zero_points, Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(validateOutput(shape, output, data, &indices, scales, zero_points));
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan, planFor(context, shape, data, indices, scales, zero_points, output));
  return runPlan(context, plan, tensorsOf(data, indices, scales, zero_points, output));
}

// Host indices: every value checked here (the error policy's message, as the device would give it),
// then recorded into a device tensor the operation keeps, ahead of the kernel that reads it.
Status runHostIndices(Context& context, plan::GatherBlockQuantizedShape shape, const Tensor& data,
                      const HostIndices& indices, const Tensor& scales, const Tensor* zero_points, Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(validateOutput(shape, output, data, nullptr, scales, zero_points));
  const plan::IndexCheck check{shape.index_type, shape.index_count, {shape.axis_dim}, IndexPolicy::kError};
  if (indices.values == nullptr && shape.index_count > 0) {
    return invalidArgument(std::string(plan::kGatherBlockQuantizedOp) + ": input 'indices' (host) has shape " +
                           plan::shapeString(indices.shape) + " but its values pointer is null");
  }
  if (shape.policy == IndexPolicy::kError && shape.index_count > 0) {
    if (std::optional<plan::BadIndex> bad = plan::findBadIndex(check, indices.values)) {
      const plan::IndexReport report{
          plan::kGatherBlockQuantizedOp, "indices", shape.indices_shape, false, {shape.axis_dim}, {shape.gather_axis}};
      return indexOutOfRange(report, bad->position, bad->value);
    }
  }
  shape.policy = IndexPolicy::kSkip;  // checked: the kernel needs no check pass
  VKINDEX_ASSIGN_OR_RETURN(Tensor uploaded, internal::TensorAccess::create(context, indices.type, indices.shape,
                                                                           std::string(plan::kGatherBlockQuantizedOp) +
                                                                               " indices (from the host)"));
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan, planFor(context, shape, data, uploaded, scales, zero_points, output));
  const uint64_t bytes = shape.index_count * elementSize(indices.type);
  if (bytes > 0 && plan.dispatches()) {
    plan::Step upload;
    upload.kind = plan::StepKind::kUploadFromHost;
    upload.bindings = {{plan::Role::kIndices, {uploaded.offset(), bytes}}};
    upload.host_source = indices.values;
    plan.steps.insert(plan.steps.begin(), std::move(upload));
  }
  const OpTensors tensors = tensorsOf(data, uploaded, scales, zero_points, output);
  return runRecorded(context, tensors, [&](VkCommandBuffer cmd) { return recordPlan(context, cmd, plan, tensors); });
}

}  // namespace

Status gatherBlockQuantized(Context& context, const Tensor& data, const Tensor& indices, const Tensor& scales,
                            const Tensor* zero_points, const GatherBlockQuantizedOptions& options, Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(checkInputContexts(context, data, &indices, scales, zero_points));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, output, plan::kGatherBlockQuantizedOp, "output"));
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherBlockQuantizedShape shape,
                           infer(data, indices.dtype(), indices.shape(), scales, zero_points, options));
  return runInferred(context, shape, data, indices, scales, zero_points, output);
}

StatusOr<Tensor> gatherBlockQuantized(Context& context, const Tensor& data, const Tensor& indices, const Tensor& scales,
                                      const Tensor* zero_points, const GatherBlockQuantizedOptions& options) {
  // The inputs are checked before the output is made, so that an error names them, not the output.
  VKINDEX_RETURN_IF_ERROR(checkInputContexts(context, data, &indices, scales, zero_points));
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherBlockQuantizedShape shape,
                           infer(data, indices.dtype(), indices.shape(), scales, zero_points, options));
  VKINDEX_ASSIGN_OR_RETURN(Tensor output,
                           createOutput(context, plan::kGatherBlockQuantizedOp, shape.scale_type, shape.output_shape));
  VKINDEX_RETURN_IF_ERROR(runInferred(context, shape, data, indices, scales, zero_points, output));
  return output;
}

StatusOr<RecordedOp> recordGatherBlockQuantized(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                const Tensor& indices, const Tensor& scales, const Tensor* zero_points,
                                                const GatherBlockQuantizedOptions& options, Tensor& output) {
  if (command_buffer == VK_NULL_HANDLE) {
    return invalidArgument("recordGatherBlockQuantized: the VkCommandBuffer is null");
  }
  VKINDEX_RETURN_IF_ERROR(checkInputContexts(context, data, &indices, scales, zero_points));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, output, plan::kGatherBlockQuantizedOp, "output"));
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherBlockQuantizedShape shape,
                           infer(data, indices.dtype(), indices.shape(), scales, zero_points, options));
  VKINDEX_RETURN_IF_ERROR(validateOutput(shape, output, data, &indices, scales, zero_points));
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan, planFor(context, shape, data, indices, scales, zero_points, output));
  VKINDEX_ASSIGN_OR_RETURN(
      std::unique_ptr<RecordedOp::State> state,
      recordPlan(context, command_buffer, plan, tensorsOf(data, indices, scales, zero_points, output)));
  return RecordedOpAccess::wrap(std::move(state));
}

Status gatherBlockQuantized(Context& context, const Tensor& data, const HostIndices& indices, const Tensor& scales,
                            const Tensor* zero_points, const GatherBlockQuantizedOptions& options, Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(checkInputContexts(context, data, nullptr, scales, zero_points));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, output, plan::kGatherBlockQuantizedOp, "output"));
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherBlockQuantizedShape shape,
                           infer(data, indices.type, indices.shape, scales, zero_points, options));
  return runHostIndices(context, shape, data, indices, scales, zero_points, output);
}

StatusOr<Tensor> gatherBlockQuantized(Context& context, const Tensor& data, const HostIndices& indices,
                                      const Tensor& scales, const Tensor* zero_points,
                                      const GatherBlockQuantizedOptions& options) {
  VKINDEX_RETURN_IF_ERROR(checkInputContexts(context, data, nullptr, scales, zero_points));
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherBlockQuantizedShape shape,
                           infer(data, indices.type, indices.shape, scales, zero_points, options));
  VKINDEX_ASSIGN_OR_RETURN(Tensor output,
                           createOutput(context, plan::kGatherBlockQuantizedOp, shape.scale_type, shape.output_shape));
  VKINDEX_RETURN_IF_ERROR(runHostIndices(context, shape, data, indices, scales, zero_points, output));
  return output;
}

}  // namespace vkindex
