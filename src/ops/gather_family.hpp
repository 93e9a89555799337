// The front shared by the gather family (Gather, GatherElements, GatherND): data + indices + one
// integer attribute -> an output of data's type. Validates the call, plans it through the operator's
// planner, and runs the plan in the three public forms through the one runner. String data stays on
// the host: the plan moves 4-byte element ids, and the host picks the strings.
#pragma once

#include <variant>

#include "ops/op_runner.hpp"
#include "plan/gather_elements_plan.hpp"
#include "plan/gather_nd_plan.hpp"
#include "plan/gather_plan.hpp"
#include "plan/tuning.hpp"
#include "plan/windows.hpp"

namespace vkindex {

// A call's problem, inferred once per call: its output's shape and the operator's planner input.
struct GatherProblem {
  Shape output_shape;
  std::variant<plan::GatherShape, plan::GatherElementsShape, plan::GatherNDShape> shape;
};

struct GatherFamilyOp {
  const char* name;  // "GatherND", for messages
  // Host-side validation of the inputs and attribute: the call's problem, under `policy`.
  StatusOr<GatherProblem> (*infer)(const Tensor& data, const Tensor& indices, int64_t attribute, IndexPolicy policy);
  // The plan for a validated call whose output is `output`.
  StatusOr<plan::OpPlan> (*plan)(const GatherProblem& problem, const Tensor& data, const Tensor& indices,
                                 const Tensor& output, const DeviceInfo& device, const plan::Tuning& tuning);
};

// Where a tensor's bytes live, for the planners.
inline plan::Placement placementOf(const Tensor& tensor) { return {tensor.offset(), tensor.byteSize()}; }

// A caller's output must have the expected shape, data's type, and no bytes in common with data.
Status validateGatherOutput(const char* op_name, const Tensor& output, const Tensor& data, const Shape& expected);

StatusOr<Tensor> runGatherFamily(Context& context, const GatherFamilyOp& op, const Tensor& data, const Tensor& indices,
                                 int64_t attribute, IndexPolicy policy);
Status runGatherFamily(Context& context, const GatherFamilyOp& op, const Tensor& data, const Tensor& indices,
                       int64_t attribute, Tensor& output, IndexPolicy policy);
StatusOr<RecordedOp> recordGatherFamily(Context& context, const GatherFamilyOp& op, VkCommandBuffer command_buffer,
                                        const Tensor& data, const Tensor& indices, int64_t attribute, Tensor& output,
                                        IndexPolicy policy);
// kInvalidArgument naming `op` unless `policy` is one of IndexPolicy's values (the C API and casts can
// pass others).
Status checkIndexPolicy(const char* op, IndexPolicy policy);

// Adapts a planner pair from src/plan (Infer: shapes and types -> the operator's problem, with its
// output_shape; Plan: problem + placements -> OpPlan) to the front.
template <typename Problem, StatusOr<Problem> (*Infer)(const Shape&, DataType, const Shape&, DataType, int64_t),
          StatusOr<plan::OpPlan> (*Plan)(const Problem&, DataType, const plan::Placement&, const plan::Placement&,
                                         const plan::Placement&, const DeviceInfo&, const plan::Tuning&)>
struct PlannedGather {
  static StatusOr<GatherProblem> infer(const Tensor& data, const Tensor& indices, int64_t attribute,
                                       IndexPolicy policy) {
    VKINDEX_ASSIGN_OR_RETURN(Problem problem,
                             Infer(data.shape(), data.dtype(), indices.shape(), indices.dtype(), attribute));
    problem.policy = policy;
    Shape output_shape = problem.output_shape;
    return GatherProblem{std::move(output_shape), std::move(problem)};
  }
  static StatusOr<plan::OpPlan> plan(const GatherProblem& problem, const Tensor& data, const Tensor& indices,
                                     const Tensor& output, const DeviceInfo& device, const plan::Tuning& tuning) {
    return Plan(std::get<Problem>(problem.shape), indices.dtype(), placementOf(data), placementOf(indices),
                placementOf(output), device, tuning);
  }
};

// Defines the three public forms (vkindex/ops.hpp) of the gather-family operator `definition`, each with
// and without an IndexPolicy (kError), whose
// attribute parameter is named `attribute` as in the public declarations. A macro because the forms
// differ only in their names: one definition keeps every operator's forms identical in behaviour.
#define VKINDEX_DEFINE_GATHER_FAMILY_FORMS(op_function, record_function, definition, attribute)                        \
  StatusOr<Tensor> op_function(Context& context, const Tensor& data, const Tensor& indices, int64_t attribute,         \
                               IndexPolicy policy) {                                                                   \
    return runGatherFamily(context, definition, data, indices, attribute, policy);                                     \
  }                                                                                                                    \
  Status op_function(Context& context, const Tensor& data, const Tensor& indices, int64_t attribute, Tensor& output,   \
                     IndexPolicy policy) {                                                                             \
    return runGatherFamily(context, definition, data, indices, attribute, output, policy);                             \
  }                                                                                                                    \
  StatusOr<RecordedOp> record_function(Context& context, VkCommandBuffer command_buffer, const Tensor& data,           \
                                       const Tensor& indices, int64_t attribute, Tensor& output, IndexPolicy policy) { \
    return recordGatherFamily(context, definition, command_buffer, data, indices, attribute, output, policy);          \
  }                                                                                                                    \
  StatusOr<Tensor> op_function(Context& context, const Tensor& data, const Tensor& indices, int64_t attribute) {       \
    return op_function(context, data, indices, attribute, IndexPolicy::kError);                                        \
  }                                                                                                                    \
  Status op_function(Context& context, const Tensor& data, const Tensor& indices, int64_t attribute, Tensor& output) { \
    return op_function(context, data, indices, attribute, output, IndexPolicy::kError);                                \
  }                                                                                                                    \
  StatusOr<RecordedOp> record_function(Context& context, VkCommandBuffer command_buffer, const Tensor& data,           \
                                       const Tensor& indices, int64_t attribute, Tensor& output) {                     \
    return record_function(context, command_buffer, data, indices, attribute, output, IndexPolicy::kError);            \
  }

}  // namespace vkindex
