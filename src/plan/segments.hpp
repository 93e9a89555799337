// How the copying kernels (gather_rows, scatter_nd_rows, copy_words_16) lay out their work: the
// widest unit a run of bytes moves in, and segments of `lanes` invocations x `items` units each,
// interleaved unit by unit (see Tuning::row_lanes).
#pragma once

#include <cstdint>

#include "plan/op_plan.hpp"
#include "plan/tuning.hpp"
#include "vkindex/device_info.hpp"

namespace vkindex::plan {

// The largest power of two up to 16 dividing `value` (0 counts as divisible by everything).
uint32_t largestUnit(uint64_t value);

// Workgroups of `workgroup` invocations for `items` items taken `per_invocation` at a time (at least
// one) by each invocation, grid-stride (shaders/common/grid.glsl).
inline uint64_t groupsForItems(uint64_t items, uint32_t workgroup, uint32_t per_invocation = 1) {
  const uint64_t per_group = uint64_t(workgroup) * (per_invocation == 0 ? 1 : per_invocation);
  return (items + per_group - 1) / per_group;
}

struct SegmentLayout {
  uint32_t lanes = 1;  // invocations sharing a segment: a power of two dividing the workgroup
  uint32_t items = 1;  // units each of them moves per segment

  uint64_t units() const { return uint64_t(lanes) * items; }
  // Segments covering a run of `run_units` units.
  uint64_t segmentsOf(uint64_t run_units) const { return (run_units + units() - 1) / units(); }
  // Workgroups of `workgroup` invocations for `segments` segments.
  uint64_t groupsFor(uint64_t segments, uint32_t workgroup) const {
    const uint64_t per_group = workgroup / lanes;
    return (segments + per_group - 1) / per_group;
  }
};

// The device's segments for runs of `run_units` units: up to row_lanes lanes (no more than the run
// has units, so short runs leave no lane idle), each moving row_items units (at least 1). Items stay
// the device's whatever the run, so that run lengths share pipelines.
SegmentLayout segmentLayout(const Tuning& tuning, uint32_t workgroup, uint64_t run_units);

// The workgroup for `invocations` invocations of work that fit one group of `workgroup`: the
// invocations rounded up to a power of two, but at least `lanes` (they share segments) and the
// device's subgroup size (`subgroup_size`; 0: unknown, keep `workgroup`). A CPU driver runs every
// invocation of a group, idle or not (a 1-row Gather's one busy invocation shared its group with 255
// idle ones that each still checked the index: docs/gather-kernels.md); a GPU schedules whole
// subgroups, so below one nothing changes. The grid-stride kernels (shaders/common/grid.glsl) cover
// their work whatever the group's size.
uint32_t workgroupForWork(uint64_t invocations, uint32_t lanes, uint32_t workgroup, uint32_t subgroup_size);

// A dispatch of one group sized to its work: `step` (a grid-stride kernel with no shared memory, its
// workgroup size in kSpecWorkgroupSize) takes workgroupForWork's group when it has one group.
void fitOneGroup(Step& step, uint64_t invocations, uint32_t lanes, const DeviceInfo& device);

}  // namespace vkindex::plan
