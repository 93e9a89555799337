#include "plan/segments.hpp"

#include <algorithm>

namespace vkindex::plan {

uint32_t largestUnit(uint64_t value) {
  uint32_t unit = 16;
  while (unit > 1 && value % unit != 0) unit /= 2;
  return unit;
}

SegmentLayout segmentLayout(const Tuning& tuning, uint32_t workgroup, uint64_t run_units) {
  SegmentLayout layout;
  while (layout.lanes * 2 <= std::min<uint64_t>(tuning.row_lanes, run_units) && workgroup % (layout.lanes * 2) == 0) {
    layout.lanes *= 2;
  }
  layout.items = std::max<uint32_t>(tuning.row_items, 1);
  return layout;
}

uint32_t workgroupForWork(uint64_t invocations, uint32_t lanes, uint32_t workgroup, uint32_t subgroup_size) {
  if (subgroup_size == 0 || invocations >= workgroup) return workgroup;
  uint32_t fitted = std::max<uint32_t>({subgroup_size, lanes, 1});
  while (fitted < invocations) fitted *= 2;
  return std::min(fitted, workgroup);
}

void fitOneGroup(Step& step, uint64_t invocations, uint32_t lanes, const DeviceInfo& device) {
  if (step.groups != 1) return;
  step.spec[kSpecWorkgroupSize] =
      workgroupForWork(invocations, lanes, step.spec[kSpecWorkgroupSize], device.subgroup_size);
}

}  // namespace vkindex::plan
