#include "ops/scatter_family.hpp"

#include <cstring>
#include <numeric>

#include "ops/string_concatenation.hpp"
#include "ops/string_picking.hpp"
#include "plan/shape.hpp"

namespace vkindex {
namespace {

Status checkContexts(Context& context, const ScatterFamilyOp& op, const Tensor& data, const Tensor& indices,
                     const Tensor& updates, const Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, data, op.name, "data"));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, indices, op.name, "indices"));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, updates, op.name, "updates"));
  return checkTensorContext(context, output, op.name, "output");
}

// The output has data's shape and type and shares no bytes with the inputs it reads (in place, it is
// data itself).
Status validateOutput(const ScatterFamilyOp& op, const Tensor& output, const Tensor& data, const Tensor& indices,
                      const Tensor& updates, ScatterTarget target) {
  if (output.dtype() != data.dtype()) {
    return invalidArgument(std::string(op.name) + ": the output has type " + dataTypeName(output.dtype()) +
                           " but input 'data' has type " + dataTypeName(data.dtype()));
  }
  if (output.shape() != data.shape()) {
    return invalidArgument(std::string(op.name) + ": the output has shape " + plan::shapeString(output.shape()) +
                           ", expected " + plan::shapeString(data.shape()));
  }
  if (target == ScatterTarget::kOutput) VKINDEX_RETURN_IF_ERROR(checkNoOverlap(output, data, op.name, "data"));
  const char* output_name = target == ScatterTarget::kInPlace ? "input 'data' (updated in place)" : "the output";
  VKINDEX_RETURN_IF_ERROR(checkNoOverlap(output, indices, op.name, "indices", output_name));
  return checkNoOverlap(output, updates, op.name, "updates", output_name);
}

// Plans a call whose tensors' contexts are checked and whose shape is inferred: checks the output and
// the binding windows first.
StatusOr<plan::OpPlan> planChecked(Context& context, const ScatterFamilyOp& op, const plan::ScatterShape& shape,
                                   const Tensor& data, const Tensor& indices, const Tensor& updates,
                                   const Tensor& output, ScatterTarget target) {
  VKINDEX_RETURN_IF_ERROR(validateOutput(op, output, data, indices, updates, target));
  VKINDEX_RETURN_IF_ERROR(checkWindowPairs(op.name, {&data, &indices, &updates, &output}, context.device()));
  return plan::planScatter(shape, placementOf(data), placementOf(indices), placementOf(updates), placementOf(output),
                           target == ScatterTarget::kInPlace, context.device(), tuningOf(context));
}

// Checks the tensors' contexts and the policy, and infers the call's shape under `policy` (once per call).
StatusOr<plan::ScatterShape> inferChecked(Context& context, const ScatterFamilyOp& op, const Tensor& data,
                                          const Tensor& indices, const Tensor& updates, int64_t attribute,
                                          Reduction reduction, const Tensor& output, IndexPolicy policy) {
  VKINDEX_RETURN_IF_ERROR(checkIndexPolicy(op.name, policy));
  VKINDEX_RETURN_IF_ERROR(checkContexts(context, op, data, indices, updates, output));
  VKINDEX_ASSIGN_OR_RETURN(plan::ScatterShape shape, op.infer(data, indices, updates, attribute, reduction));
  shape.check.policy = policy;
  return shape;
}

// Checks the call, infers its shape, and plans it.
StatusOr<plan::OpPlan> prepare(Context& context, const ScatterFamilyOp& op, const Tensor& data, const Tensor& indices,
                               const Tensor& updates, int64_t attribute, Reduction reduction, const Tensor& output,
                               ScatterTarget target, IndexPolicy policy) {
  VKINDEX_ASSIGN_OR_RETURN(plan::ScatterShape shape,
                           inferChecked(context, op, data, indices, updates, attribute, reduction, output, policy));
  return planChecked(context, op, shape, data, indices, updates, output, target);
}

// Strings stay on the host: scatter ids (data's strings 0..D-1, updates' D..D+U-1), then pick. The
// call is checked and its shape inferred already (a string element plans as its 4-byte id). String add
// (concatenation) needs every update, not the last: the id scatter then only checks the indices on the
// device, with the operator's own messages and nothing written on a bad one, and the host appends. Under
// the skip policy a skipped update moves no id and appends nothing (shape.check.policy).
Status runOnStrings(Context& context, const ScatterFamilyOp& op, const plan::ScatterShape& shape, const Tensor& data,
                    const Tensor& indices, const Tensor& updates, Tensor& output) {
  plan::ScatterShape ids_shape = shape;
  ids_shape.reduction = Reduction::kNone;  // ids move; the kind is MOVE already (scatter_shape.cpp)
  std::vector<uint32_t> data_ids(data.elementCount()), update_ids(updates.elementCount());
  std::iota(data_ids.begin(), data_ids.end(), 0u);
  std::iota(update_ids.begin(), update_ids.end(), static_cast<uint32_t>(data_ids.size()));
  VKINDEX_ASSIGN_OR_RETURN(Tensor data_tensor, Tensor::fromHost(context, DataType::kUInt32, data.shape(),
                                                                data_ids.data(), data_ids.size() * 4));
  VKINDEX_ASSIGN_OR_RETURN(Tensor update_tensor, Tensor::fromHost(context, DataType::kUInt32, updates.shape(),
                                                                  update_ids.data(), update_ids.size() * 4));
  VKINDEX_ASSIGN_OR_RETURN(Tensor picked, createOutput(context, op.name, DataType::kUInt32, data.shape()));
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan, planChecked(context, op, ids_shape, data_tensor, indices, update_tensor,
                                                          picked, ScatterTarget::kOutput));
  VKINDEX_RETURN_IF_ERROR(runPlan(context, plan, {&data_tensor, &indices, &update_tensor, &picked}));
  const std::string purpose = std::string(op.name) + " output";
  if (shape.reduction == Reduction::kAdd) {
    VKINDEX_ASSIGN_OR_RETURN(output.mutableStrings(),
                             concatenateUpdates(shape, indices, data.strings(), updates.strings(), purpose));
    return Status::Ok();
  }
  VKINDEX_ASSIGN_OR_RETURN(output.mutableStrings(),
                           pickStrings(picked, {&data.strings(), &updates.strings()}, purpose));
  return Status::Ok();
}

}  // namespace

Status runScatterFamily(Context& context, const ScatterFamilyOp& op, const Tensor& data, const Tensor& indices,
                        const Tensor& updates, int64_t attribute, Reduction reduction, Tensor& output,
                        ScatterTarget target, IndexPolicy policy) {
  VKINDEX_ASSIGN_OR_RETURN(plan::ScatterShape shape,
                           inferChecked(context, op, data, indices, updates, attribute, reduction, output, policy));
  if (data.dtype() == DataType::kString) {
    VKINDEX_RETURN_IF_ERROR(validateOutput(op, output, data, indices, updates, target));
    return runOnStrings(context, op, shape, data, indices, updates, output);
  }
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan, planChecked(context, op, shape, data, indices, updates, output, target));
  const Tensor* read_data = target == ScatterTarget::kOutput ? &data : nullptr;  // in place: only the output
  return runPlan(context, plan, {read_data, &indices, &updates, &output});
}

StatusOr<Tensor> runScatterFamily(Context& context, const ScatterFamilyOp& op, const Tensor& data,
                                  const Tensor& indices, const Tensor& updates, int64_t attribute, Reduction reduction,
                                  IndexPolicy policy) {
  Tensor output;
  if (data.dtype() == DataType::kString) {
    VKINDEX_ASSIGN_OR_RETURN(output, Tensor::fromStrings(context, data.shape(), data.strings()));
  } else {
    VKINDEX_ASSIGN_OR_RETURN(output, createOutput(context, op.name, data.dtype(), data.shape()));
  }
  VKINDEX_RETURN_IF_ERROR(runScatterFamily(context, op, data, indices, updates, attribute, reduction, output,
                                           ScatterTarget::kOutput, policy));
  return output;
}

StatusOr<RecordedOp> recordScatterFamily(Context& context, const ScatterFamilyOp& op, VkCommandBuffer command_buffer,
                                         const Tensor& data, const Tensor& indices, const Tensor& updates,
                                         int64_t attribute, Reduction reduction, Tensor& output, IndexPolicy policy) {
  const std::string form = std::string("record") + op.name;
  if (data.dtype() == DataType::kString) {
    return unsupported(form + ": string tensors live on the host and cannot be recorded");
  }
  if (command_buffer == VK_NULL_HANDLE) return invalidArgument(form + ": the VkCommandBuffer is null");
  const bool in_place = &output == &data || (output.buffer() == data.buffer() && output.offset() == data.offset() &&
                                             output.byteSize() == data.byteSize());
  const ScatterTarget target = in_place ? ScatterTarget::kInPlace : ScatterTarget::kOutput;
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan,
                           prepare(context, op, data, indices, updates, attribute, reduction, output, target, policy));
  const Tensor* read_data = in_place ? nullptr : &data;
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<RecordedOp::State> state,
                           recordPlan(context, command_buffer, plan, {read_data, &indices, &updates, &output}));
  return RecordedOpAccess::wrap(std::move(state));
}

}  // namespace vkindex
