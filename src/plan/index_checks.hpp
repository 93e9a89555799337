// Index-check planning shared by every indexing operator: check passes over the indices (a binding
// window of whole tuples at a time) that record the first out-of-range position in the status slot,
// then one report pass per window that copies that index's value next to it. The operator's own
// steps come after and write nothing when the slot is set.
#pragma once

#include <vector>

#include "plan/op_plan.hpp"
#include "plan/tuning.hpp"
#include "vkindex/data_type.hpp"
#include "vkindex/device_info.hpp"
#include "vkindex/index_policy.hpp"
#include "vkindex/status.hpp"

namespace vkindex::plan {

// Kernels count items in 32 bits and step grid-stride loops without overflow while every count stays
// below 2^30.
constexpr uint64_t kMaxPassItems = uint64_t(1) << 30;

// The indices of one operation, as the check sees them.
struct IndexCheck {
  DataType index_type = DataType::kInt64;  // int32 or int64
  uint64_t tuple_count = 0;                // tuples (index elements / tuple length)
  std::vector<uint64_t> extents;           // one per tuple component: the size it addresses
  // kSkip: nothing is checked; the kernels skip a tuple with a component outside [0, s-1].
  IndexPolicy policy = IndexPolicy::kError;
};

// Bytes of one index tuple.
uint64_t tupleBytes(const IndexCheck& check);

// Appends the check and report steps for `check` to `plan`, indices placed at `indices`. Returns
// whether any step was added (no indices, or the skip policy: no checks); the operator's first
// writing step must then wait for Role::kStatus. The limits on the indices apply under either policy.
StatusOr<bool> appendIndexChecks(OpPlan& plan, const IndexCheck& check, const Placement& indices,
                                 const DeviceInfo& device, const Tuning& tuning, const std::string& op);

// The tuples one binding window of indices holds (also capped at kMaxPassItems elements).
uint64_t tuplesPerWindow(const IndexCheck& check, const DeviceInfo& device);

// Sets `policy` (VKINDEX_SPEC_INDEX_POLICY) on every dispatch of `plan`: the kernels that read
// indices then skip as the policy says; the others do not declare the constant.
void applyIndexPolicy(OpPlan& plan, IndexPolicy policy);
// Makes `step` wait for the check passes' result.
void waitForChecks(Step& step);

// Small operations in one dispatch: when `plan` is exactly one check pass over every index component,
// its report pass and one writing step, and the components are few (at most 16, and components x the
// step's workgroups at most 256), the writing step becomes `self_checking`, its module that does the
// check and report passes' work in every invocation first (shaders/common/self_check.glsl), and the
// other two go. The caller vouches that the step covers every tuple from the first. Returns whether
// it fused. It cuts a small operation's latency on both CPU drivers (`vkindex bench`'s latency rows;
// docs/gather-kernels.md).
bool fuseSmallChecks(OpPlan& plan, const IndexCheck& check, Kernel self_checking);
// fuseSmallChecks' bounds: index components, and components x workgroups of the fused dispatch.
constexpr uint64_t kMaxSelfCheckedComponents = 16;
constexpr uint64_t kMaxSelfCheckedWork = 256;

}  // namespace vkindex::plan
