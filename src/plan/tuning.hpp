// Tuning: the choices vkindex makes per device (how kernels are shaped, which strategy a planner takes),
// as opposed to the facts about it (DeviceInfo). One table keyed by driver class holds every value
// (tuning_table.cpp); ContextOverrides may replace some. No value is needed for a correct result: every
// legal value computes the same bytes. Each cell's measurement or reason: docs/tuning.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "vkindex/context_overrides.hpp"
#include "vkindex/device_info.hpp"
#include "vkindex/status.hpp"

namespace vkindex::plan {

// The kinds of device the table has a row for. CPU implementations other than SwiftShader take
// lavapipe's row; GPUs of a vendor without a row take kOtherGpu's.
enum class DriverClass : uint8_t { kSwiftShader, kLavapipe, kNvidia, kAmd, kIntel, kAdreno, kMali, kOtherGpu };
inline constexpr size_t kDriverClassCount = 8;

// X(type, name, unset): every tuning value, once, and its value in a Tuning{}; Tuning's members, the table's rows and
// the devices command's output expand it. What each value means:
// - workgroup_size, items_per_invocation: the copy and check passes' workgroup width and the units
//   each invocation moves per grid step.
// - row_lanes, row_items: a row gather copies each row in segments; row_lanes adjacent invocations
//   share a segment, each moving row_items units (GPUs coalesce adjacent lanes; CPU drivers want one
//   invocation streaming a long run). The index checks, GatherElements and ScatterND's row writes use
//   the same segments.
// - int64_units: move 16- and 8-byte units and read int64 indices as 64-bit components (needs
//   shaderInt64; pays on drivers that load a storage access component by component).
// - native_float32_add: float32 and complex64 add reductions take the device's adder where its bits are
//   sure to equal the soft add's (needs DeviceInfo::float32_rounding_rte).
// - min_copy_region_bytes, few_copy_regions: gathers with host indices use vkCmdCopyBuffer regions
//   when there are at most few_copy_regions of them, or when they average at least
//   min_copy_region_bytes (UINT64_MAX: never for their size); the kernel otherwise.
// - group_reserved_cursors: the fold's bucket allocation reserves shared cursors once per workgroup
//   (contended atomics queue up on GPUs) instead of once per invocation (barriers cost CPU drivers).
// - most_workgroup_runs: where a fold has at most this many heavy targets, each gets a workgroup
//   instead of one invocation walking its updates (0: never).
// - min_walk_lines: ScatterElements none walks each line in index order from this many lines; fewer
//   lines go through a winner table. Reductions with fewer walkers fold by owner or use atomics.
// - max_single_line_walk_updates: a single line of more updates than this takes the winner table even
//   where min_walk_lines would walk it (UINT64_MAX: never).
// - min_soft_float_walk_lines, min_atomic_walk_lines: the walk threshold for reductions whose
//   arithmetic is long in soft float, and for the integer reductions atomics apply in any order with
//   the same bits; each walks from the larger of it and min_walk_lines.
// - min_float32_add_fold_duplicates: soft-float float32 and complex64 adds on a single walker fold by
//   owner where it would take at least this many updates per element (0: never).
// - claim_by_store: a winner table is claimed by a pass of plain stores and a fixup pass, instead of
//   one atomicMax per update (for devices whose atomics cost far more than stores).
// - most_self_checked_write_indices: a TensorScatter of at most this many batch entries checks its
//   write indices inside its copy and write passes, every invocation reading all of them, instead of
//   in a check pass of its own (one dispatch and barrier fewer for a decode step).
// clang-format off
#define VKINDEX_TUNING_VALUES(X)                        \
  X(uint32_t, workgroup_size, 0)                        \
  X(uint32_t, items_per_invocation, 0)                  \
  X(uint32_t, row_lanes, 0)                             \
  X(uint32_t, row_items, 0)                             \
  X(bool, int64_units, false)                           \
  X(bool, native_float32_add, false)                    \
  X(uint64_t, min_copy_region_bytes, 0)                 \
  X(uint64_t, few_copy_regions, 0)                      \
  X(bool, group_reserved_cursors, false)                \
  X(uint32_t, most_workgroup_runs, 0)                   \
  X(uint64_t, min_walk_lines, 0)                        \
  X(uint64_t, max_single_line_walk_updates, UINT64_MAX) \
  X(uint64_t, min_soft_float_walk_lines, 0)             \
  X(uint64_t, min_atomic_walk_lines, 0)                 \
  X(uint64_t, min_float32_add_fold_duplicates, 0)       \
  X(bool, claim_by_store, false)                        \
  X(uint64_t, most_self_checked_write_indices, 0)
// clang-format on

// The values a planner reads, as chooseTuning fills them for a Context. A Tuning{} holds the list's
// unset values (tests set what they exercise); the meaning of each: VKINDEX_TUNING_VALUES above.
struct Tuning {
#define VKINDEX_TUNING_MEMBER(type, name, unset) type name = unset;
  VKINDEX_TUNING_VALUES(VKINDEX_TUNING_MEMBER)
#undef VKINDEX_TUNING_MEMBER
};

// Names a value, for its table row and its source (k_<name>).
#define VKINDEX_TUNING_INDEX(type, name, unset) k_##name,
enum class TuningValue : uint8_t { VKINDEX_TUNING_VALUES(VKINDEX_TUNING_INDEX) kCount };
#undef VKINDEX_TUNING_INDEX
inline constexpr size_t kTuningValueCount = static_cast<size_t>(TuningValue::kCount);

// Where a value in effect came from: the table's row, a tuning profile measured on the device
// (tuning_profile.hpp), or ContextOverrides.
enum class TuningSource : uint8_t { kTable, kProfile, kOverride };

// The tuning a Context runs with: the table row it started from and, per value, its source.
struct TuningChoice {
  DriverClass driver_class = DriverClass::kSwiftShader;  // the device's own class
  DriverClass row = DriverClass::kSwiftShader;           // the row taken (kOtherGpu under gpu_tuning)
  Tuning values;
  std::array<TuningSource, kTuningValueCount> sources{};  // by TuningValue
  TuningSource source(TuningValue value) const { return sources[static_cast<size_t>(value)]; }
  // Whether a tuning profile set any value in effect.
  bool usesProfile() const {
    for (TuningSource each : sources) {
      if (each == TuningSource::kProfile) return true;
    }
    return false;
  }
};

// A value's legal range on a device: every value in [least, most] computes the same bytes as any
// other (the planners and kernels hold for all of them; the planner fuzzer draws from these ranges).
// Booleans are 0 or 1, and 0 only where the device lacks the feature the value needs.
struct TuningRange {
  uint64_t least = 0;
  uint64_t most = 0;
  bool contains(uint64_t value) const { return value >= least && value <= most; }
};
TuningRange tuningRange(TuningValue value, const DeviceInfo& device);

// Each value by its TuningValue, widened to 64 bits (booleans 0 or 1), and its name in the list.
uint64_t tuningValue(const Tuning& tuning, TuningValue value);
void setTuningValue(Tuning& tuning, TuningValue value, uint64_t setting);
const char* tuningValueName(TuningValue value);
// The value of that name; kCount for none.
TuningValue tuningValueNamed(const std::string& name);

// Fits `tuning` to the device after its values were set one by one: row_lanes to the workgroup.
void fitTuning(Tuning& tuning);

// The driver class of a device, from its vendor id, type and driver name.
DriverClass driverClassOf(const DeviceInfo& device);
const char* driverClassName(DriverClass driver_class);
const char* tuningSourceName(TuningSource source);

// The table's row for `row`, fitted to the device: the workgroup to its limits, row lanes to the
// workgroup, and the values that need a feature off where the device lacks it.
Tuning tableTuning(DriverClass row, const DeviceInfo& device);

struct TuningProfile;

// The table's tuning for `device`, then `profile`'s values (when given: it must have passed
// checkTuningProfileFits, tuning_profile.hpp), then `overrides` on top (ContextOverrides' tuning fields
// and gpu_tuning; gpu_tuning takes the other-GPU row and ignores the profile, which was measured for
// the device's own). Fails on an override beyond the device's limits or its legal range.
StatusOr<TuningChoice> chooseTuning(const DeviceInfo& device, const ContextOverrides& overrides,
                                    const TuningProfile* profile = nullptr);

}  // namespace vkindex::plan
