#include "plan/index_checks.hpp"

#include <algorithm>

#include "common/check_params.h"
#include "plan/segments.hpp"

namespace vkindex::plan {

uint64_t tupleBytes(const IndexCheck& check) {
  const uint64_t index_bytes = check.index_type == DataType::kInt64 ? 8 : 4;
  return index_bytes * check.extents.size();
}

uint64_t tuplesPerWindow(const IndexCheck& check, const DeviceInfo& device) {
  const uint64_t k = check.extents.size();
  return std::min(windowCapacity(device) / tupleBytes(check), kMaxPassItems / k);
}

StatusOr<bool> appendIndexChecks(OpPlan& plan, const IndexCheck& check, const Placement& indices,
                                 const DeviceInfo& device, const Tuning& tuning, const std::string& op) {
  const uint64_t k = check.extents.size();
  if (k == 0 || k > VKINDEX_MAX_TUPLE_LENGTH) {
    return unsupported(op + ": index tuples of " + std::to_string(k) +
                       " components are not supported (vkindex reads at most " +
                       std::to_string(VKINDEX_MAX_TUPLE_LENGTH) + ")");
  }
  // No tuples, nothing to check: the 32-bit limits below are the check kernel's, so they do not apply
  // (data [0, 2^33] gathered by empty indices is an empty output, not an unsupported one).
  if (check.tuple_count == 0) return false;
  if (check.tuple_count * k >= 0xFFFFFFFFull) {
    return unsupported(op + ": more than 2^32-2 index elements are not supported");
  }
  // A dim of 2^32 or more (only empty data has one) needs the 64-bit comparison.
  const bool wide =
      std::any_of(check.extents.begin(), check.extents.end(), [](uint64_t extent) { return extent > 0xFFFFFFFFull; });
  const uint64_t per_window = tuplesPerWindow(check, device);
  if (per_window == 0) return unsupported(op + ": this device's storage-buffer bindings are too small");
  const uint64_t bytes = tupleBytes(check);
  if (check.policy == IndexPolicy::kSkip) return false;  // nothing is an error: the kernels skip

  std::vector<Step> reports;
  for (uint64_t t0 = 0; t0 < check.tuple_count; t0 += per_window) {
    const uint64_t t1 = std::min(check.tuple_count, t0 + per_window);
    uint64_t lead = 0;
    const Window window = windowFor(indices.offset + t0 * bytes, indices.offset + t1 * bytes, device, &lead);
    abi::CheckParams params{};
    params.index_count = static_cast<uint32_t>((t1 - t0) * k);
    params.position_base = static_cast<uint32_t>(t0 * k);
    params.indices_word_offset = static_cast<uint32_t>(lead / 4);
    params.tuple_length = static_cast<uint32_t>(k);
    for (size_t c = 0; c < k; ++c) {
      params.extents[c] = static_cast<uint32_t>(check.extents[c]);
      params.extents_hi[c] = static_cast<uint32_t>(check.extents[c] >> 32);
    }
    // Positions in the row gathers' segments (see check_indices.comp).
    const SegmentLayout layout = segmentLayout(tuning, tuning.workgroup_size, params.index_count);
    Step step;
    // int64 indices on an 8-byte boundary: one 64-bit component each where the device has them.
    const bool pairs = tuning.int64_units && check.index_type == DataType::kInt64 && lead % 8 == 0;
    step.kernel = wide ? Kernel::kCheckIndicesWide : pairs ? Kernel::kCheckIndicesInt64 : Kernel::kCheckIndices;
    step.spec = {
        tuning.workgroup_size, check.index_type == DataType::kInt64 ? 2u : 1u, 0, layout.items, layout.lanes, 0};
    step.bindings = {{Role::kIndices, window}, {Role::kStatus, {}}};
    setPush(step, params);
    step.groups = layout.groupsFor(layout.segmentsOf(params.index_count), tuning.workgroup_size);
    fitOneGroup(step, layout.segmentsOf(params.index_count) * layout.lanes, layout.lanes, device);
    plan.steps.push_back(step);

    step.kernel = Kernel::kReportIndex;  // one invocation: no segments
    step.spec = {tuning.workgroup_size, step.spec[kSpecIndexWords], 0, 0, 0, 0};
    step.groups = 1;
    fitOneGroup(step, 1, 1, device);
    reports.push_back(step);
  }
  waitForChecks(reports.front());
  plan.steps.insert(plan.steps.end(), reports.begin(), reports.end());
  return true;
}

void applyIndexPolicy(OpPlan& plan, IndexPolicy policy) {
  const uint32_t code = policy == IndexPolicy::kSkip ? VKINDEX_POLICY_SKIP : VKINDEX_POLICY_ERROR;
  for (Step& step : plan.steps) {
    if (step.kind == StepKind::kDispatch) step.spec[kSpecIndexPolicy] = code;
  }
}

void waitForChecks(Step& step) { step.wait_for.push_back({Role::kStatus, {}}); }

bool fuseSmallChecks(OpPlan& plan, const IndexCheck& check, Kernel self_checking) {
  if (plan.steps.size() != 3 || !isCheckKernel(plan.steps[0].kernel) || plan.steps[1].kernel != Kernel::kReportIndex) {
    return false;
  }
  const abi::CheckParams p = pushOf<abi::CheckParams>(plan.steps[0]);
  // The redundant reads stay small: each invocation reads every component.
  const uint64_t components = check.tuple_count * check.extents.size();
  if (p.position_base != 0 || p.index_count != components || components > kMaxSelfCheckedComponents ||
      components * plan.steps[2].groups > kMaxSelfCheckedWork) {
    return false;
  }
  plan.steps[2].kernel = self_checking;
  // It writes the slot whatever it finds, so nothing resets the slot first and the one dispatch waits
  // for nothing (the slot is this operation's alone).
  plan.steps[2].wait_for.clear();
  plan.writes_own_status = true;
  plan.steps.erase(plan.steps.begin(), plan.steps.begin() + 2);
  return true;
}

}  // namespace vkindex::plan
