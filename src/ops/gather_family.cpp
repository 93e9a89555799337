#include "ops/gather_family.hpp"

#include <cctype>
#include <cstring>
#include <numeric>

#include "ops/string_picking.hpp"
#include "plan/shape.hpp"

namespace vkindex {
namespace {

Status checkContexts(Context& context, const GatherFamilyOp& op, const Tensor& data, const Tensor& indices,
                     const Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, data, op.name, "data"));
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, indices, op.name, "indices"));
  return checkTensorContext(context, output, op.name, "output");
}

Status validateOutput(const GatherFamilyOp& op, const Tensor& output, const Tensor& data, const Tensor& indices,
                      const Shape& expected) {
  VKINDEX_RETURN_IF_ERROR(validateGatherOutput(op.name, output, data, expected));
  return checkNoOverlap(output, indices, op.name, "indices");
}

// Plans a call whose tensors' contexts are checked and whose problem is inferred: checks the output and
// the binding windows first.
StatusOr<plan::OpPlan> planChecked(Context& context, const GatherFamilyOp& op, const GatherProblem& problem,
                                   const Tensor& data, const Tensor& indices, const Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(validateOutput(op, output, data, indices, problem.output_shape));
  VKINDEX_RETURN_IF_ERROR(checkWindowPairs(op.name, {&data, &indices, &output}, context.device()));
  return op.plan(problem, data, indices, output, context.device(), tuningOf(context));
}

// Checks the call, infers its problem, and plans it.
StatusOr<plan::OpPlan> prepare(Context& context, const GatherFamilyOp& op, const Tensor& data, const Tensor& indices,
                               int64_t attribute, const Tensor& output, IndexPolicy policy) {
  VKINDEX_RETURN_IF_ERROR(checkIndexPolicy(op.name, policy));
  VKINDEX_RETURN_IF_ERROR(checkContexts(context, op, data, indices, output));
  VKINDEX_ASSIGN_OR_RETURN(GatherProblem problem, op.infer(data, indices, attribute, policy));
  return planChecked(context, op, problem, data, indices, output);
}

// Runs a call whose tensors' contexts are checked and whose problem is inferred. Strings stay on the
// host: the operator runs on their positions (as 4-byte ids, the size a string element plans with),
// then the host picks the strings. Under the skip policy the ids count from 1: a skipped element
// is id 0, the empty string.
Status runChecked(Context& context, const GatherFamilyOp& op, const GatherProblem& problem, const Tensor& data,
                  const Tensor& indices, Tensor& output) {
  if (data.dtype() != DataType::kString) {
    VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan, planChecked(context, op, problem, data, indices, output));
    return runPlan(context, plan, {&data, &indices, nullptr, &output});
  }
  VKINDEX_RETURN_IF_ERROR(validateOutput(op, output, data, indices, problem.output_shape));
  const bool skips = std::visit([](const auto& shape) { return shape.policy == IndexPolicy::kSkip; }, problem.shape);
  static const std::vector<std::string> kSkippedString{std::string()};
  std::vector<uint32_t> ids(data.elementCount());
  std::iota(ids.begin(), ids.end(), skips ? 1u : 0u);
  VKINDEX_ASSIGN_OR_RETURN(Tensor id_tensor, Tensor::fromHost(context, DataType::kUInt32, data.shape(), ids.data(),
                                                              ids.size() * sizeof(uint32_t)));
  VKINDEX_ASSIGN_OR_RETURN(Tensor picked, createOutput(context, op.name, DataType::kUInt32, problem.output_shape));
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan, planChecked(context, op, problem, id_tensor, indices, picked));
  VKINDEX_RETURN_IF_ERROR(runPlan(context, plan, {&id_tensor, &indices, nullptr, &picked}));
  VKINDEX_ASSIGN_OR_RETURN(
      output.mutableStrings(),
      skips ? pickStrings(picked, {&kSkippedString, &data.strings()}, std::string(op.name) + " output")
            : pickStrings(picked, {&data.strings()}, std::string(op.name) + " output"));
  return Status::Ok();
}

}  // namespace

Status validateGatherOutput(const char* op_name, const Tensor& output, const Tensor& data, const Shape& expected) {
  if (output.dtype() != data.dtype()) {
    return invalidArgument(std::string(op_name) + ": the output has type " + dataTypeName(output.dtype()) +
                           " but input 'data' has type " + dataTypeName(data.dtype()));
  }
  if (output.shape() != expected) {
    return invalidArgument(std::string(op_name) + ": the output has shape " + plan::shapeString(output.shape()) +
                           ", expected " + plan::shapeString(expected));
  }
  return checkNoOverlap(output, data, op_name, "data");
}

Status checkIndexPolicy(const char* op, IndexPolicy policy) {
  if (policy == IndexPolicy::kError || policy == IndexPolicy::kSkip) return Status::Ok();
  return invalidArgument(std::string(op) + ": unknown index policy " + std::to_string(static_cast<int>(policy)) +
                         " (allowed kError, kSkip)");
}

Status runGatherFamily(Context& context, const GatherFamilyOp& op, const Tensor& data, const Tensor& indices,
                       int64_t attribute, Tensor& output, IndexPolicy policy) {
  VKINDEX_RETURN_IF_ERROR(checkIndexPolicy(op.name, policy));
  VKINDEX_RETURN_IF_ERROR(checkContexts(context, op, data, indices, output));
  VKINDEX_ASSIGN_OR_RETURN(GatherProblem problem, op.infer(data, indices, attribute, policy));
  return runChecked(context, op, problem, data, indices, output);
}

StatusOr<Tensor> runGatherFamily(Context& context, const GatherFamilyOp& op, const Tensor& data, const Tensor& indices,
                                 int64_t attribute, IndexPolicy policy) {
  VKINDEX_RETURN_IF_ERROR(checkIndexPolicy(op.name, policy));
  VKINDEX_ASSIGN_OR_RETURN(GatherProblem problem, op.infer(data, indices, attribute, policy));
  const Shape& shape = problem.output_shape;
  Tensor output;
  if (data.dtype() == DataType::kString) {
    std::vector<std::string> empty(*plan::elementCount(shape));
    VKINDEX_ASSIGN_OR_RETURN(output, Tensor::fromStrings(context, shape, std::move(empty)));
  } else {
    VKINDEX_ASSIGN_OR_RETURN(output, createOutput(context, op.name, data.dtype(), shape));
  }
  VKINDEX_RETURN_IF_ERROR(checkContexts(context, op, data, indices, output));
  VKINDEX_RETURN_IF_ERROR(runChecked(context, op, problem, data, indices, output));
  return output;
}

StatusOr<RecordedOp> recordGatherFamily(Context& context, const GatherFamilyOp& op, VkCommandBuffer command_buffer,
                                        const Tensor& data, const Tensor& indices, int64_t attribute, Tensor& output,
                                        IndexPolicy policy) {
  const std::string form = std::string("record") + op.name;
  if (data.dtype() == DataType::kString) {
    return unsupported(form + ": string tensors live on the host and cannot be recorded; use " +
                       std::string(1, static_cast<char>(std::tolower(op.name[0]))) + (op.name + 1) + "()");
  }
  if (command_buffer == VK_NULL_HANDLE) return invalidArgument(form + ": the VkCommandBuffer is null");
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan plan, prepare(context, op, data, indices, attribute, output, policy));
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<RecordedOp::State> state,
                           recordPlan(context, command_buffer, plan, {&data, &indices, nullptr, &output}));
  return RecordedOpAccess::wrap(std::move(state));
}

}  // namespace vkindex
