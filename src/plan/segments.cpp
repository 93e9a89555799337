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

}  // namespace vkindex::plan
