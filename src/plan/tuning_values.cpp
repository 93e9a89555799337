// Each tuning value by name and number, and the range of values that compute the same bytes: what a
// tuning profile may set and what the random-tuning suites draw from.
#include <algorithm>

#include "plan/tuning.hpp"

namespace vkindex::plan {
namespace {

constexpr uint64_t kAny = UINT64_MAX;

// The most updates a TensorScatter self-check reads per invocation: every invocation reads all of
// them, and llvmpipe ends a loop nest after 65535 iterations (DeviceInfo::max_walk_steps).
constexpr uint64_t kMostSelfCheckedWriteIndices = 4096;
// Row segments of more units than this gain nothing on any class measured and lengthen one
// invocation's loop; the planner takes any count.
constexpr uint64_t kMostRowItems = 1024;

uint32_t largestWorkgroup(const DeviceInfo& device) {
  return std::min(device.max_workgroup_invocations, device.max_workgroup_size_x);
}

}  // namespace

TuningRange tuningRange(TuningValue value, const DeviceInfo& device) {
  switch (value) {
    case TuningValue::k_workgroup_size: return {1, std::max<uint64_t>(largestWorkgroup(device), 1)};
    case TuningValue::k_items_per_invocation: return {1, 64};
    case TuningValue::k_row_lanes: return {1, std::max<uint64_t>(largestWorkgroup(device), 1)};
    case TuningValue::k_row_items: return {1, kMostRowItems};
    case TuningValue::k_int64_units: return {0, device.shader_int64 ? 1u : 0u};
    case TuningValue::k_native_float32_add: return {0, device.float32_rounding_rte ? 1u : 0u};
    case TuningValue::k_group_reserved_cursors:
    case TuningValue::k_claim_by_store: return {0, 1};
    case TuningValue::k_most_workgroup_runs: return {0, UINT32_MAX};
    case TuningValue::k_most_self_checked_write_indices: return {0, kMostSelfCheckedWriteIndices};
    case TuningValue::k_min_copy_region_bytes:
    case TuningValue::k_few_copy_regions:
    case TuningValue::k_min_walk_lines:
    case TuningValue::k_max_single_line_walk_updates:
    case TuningValue::k_min_soft_float_walk_lines:
    case TuningValue::k_min_atomic_walk_lines:
    case TuningValue::k_min_float32_add_fold_duplicates: return {0, kAny};
    case TuningValue::kCount: break;
  }
  return {};
}

uint64_t tuningValue(const Tuning& tuning, TuningValue value) {
  switch (value) {
#define VKINDEX_TUNING_GET(type, name, unset) \
  case TuningValue::k_##name: return static_cast<uint64_t>(tuning.name);
    VKINDEX_TUNING_VALUES(VKINDEX_TUNING_GET)
#undef VKINDEX_TUNING_GET
    case TuningValue::kCount: break;
  }
  return 0;
}

void setTuningValue(Tuning& tuning, TuningValue value, uint64_t setting) {
  switch (value) {
#define VKINDEX_TUNING_SET(type, name, unset) \
  case TuningValue::k_##name: tuning.name = static_cast<type>(setting); return;
    VKINDEX_TUNING_VALUES(VKINDEX_TUNING_SET)
#undef VKINDEX_TUNING_SET
    case TuningValue::kCount: return;
  }
}

const char* tuningValueName(TuningValue value) {
  switch (value) {
#define VKINDEX_TUNING_NAME(type, name, unset) \
  case TuningValue::k_##name: return #name;
    VKINDEX_TUNING_VALUES(VKINDEX_TUNING_NAME)
#undef VKINDEX_TUNING_NAME
    case TuningValue::kCount: break;
  }
  return "?";
}

TuningValue tuningValueNamed(const std::string& name) {
  for (size_t i = 0; i < kTuningValueCount; ++i) {
    if (name == tuningValueName(static_cast<TuningValue>(i))) return static_cast<TuningValue>(i);
  }
  return TuningValue::kCount;
}

void fitTuning(Tuning& tuning) { tuning.row_lanes = std::min(tuning.row_lanes, tuning.workgroup_size); }

}  // namespace vkindex::plan
