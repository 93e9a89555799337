// The front shared by ScatterElements and ScatterND: data + indices + updates + an attribute and a
// reduction -> data's shape, out of place (a new or the caller's output), in place, or recorded.
// Validates the call, plans it (src/plan/scatter_plan) and runs the plan through the one runner.
// String data stays on the host: the plan moves 4-byte ids of data's and updates' strings. Every form
// takes the call's IndexPolicy (vkindex/index_policy.hpp); an unknown one is kInvalidArgument.
#pragma once

#include "ops/gather_family.hpp"
#include "plan/scatter_plan.hpp"

namespace vkindex {

struct ScatterFamilyOp {
  const char* name;  // "ScatterND", for messages
  // Host-side validation: the scatter's shape and arithmetic (`attribute` is ScatterElements' axis).
  StatusOr<plan::ScatterShape> (*infer)(const Tensor& data, const Tensor& indices, const Tensor& updates,
                                        int64_t attribute, Reduction reduction);
};

// Where the result goes.
enum class ScatterTarget { kOutput, kInPlace };

StatusOr<Tensor> runScatterFamily(Context& context, const ScatterFamilyOp& op, const Tensor& data,
                                  const Tensor& indices, const Tensor& updates, int64_t attribute, Reduction reduction,
                                  IndexPolicy policy);
// Out of place into `output`, or in place when `output` is `data` (ScatterTarget::kInPlace).
Status runScatterFamily(Context& context, const ScatterFamilyOp& op, const Tensor& data, const Tensor& indices,
                        const Tensor& updates, int64_t attribute, Reduction reduction, Tensor& output,
                        ScatterTarget target, IndexPolicy policy);
StatusOr<RecordedOp> recordScatterFamily(Context& context, const ScatterFamilyOp& op, VkCommandBuffer command_buffer,
                                         const Tensor& data, const Tensor& indices, const Tensor& updates,
                                         int64_t attribute, Reduction reduction, Tensor& output, IndexPolicy policy);

}  // namespace vkindex
