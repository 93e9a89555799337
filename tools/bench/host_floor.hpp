// The host CPU's own memcpy of a Gather or GatherND row's copy regions (its rows, runs of consecutive
// rows merged), against one memcpy of the same bytes. lavapipe and SwiftShader run vkCmdCopyBuffer's
// regions one after another on one host thread, so on those devices this is the floor under a
// host-index row's copy path. For every such row, the ratio is what the rows' access pattern costs this
// machine's memory system in native code, whatever the driver does: the part of a row gather's distance
// from the compute copy (which reads in address order) that no kernel can remove.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/host_index_copy.hpp"
#include "report.hpp"
#include "vkindex/status.hpp"

namespace vkindex::bench {

// Copies `regions` from `data` once and checks the result against `expected` (the operator's output),
// then times `repeats` runs of the regions and of one memcpy of expected.size() bytes, interleaved.
StatusOr<HostFloor> measureHostFloor(const std::vector<uint8_t>& data, const std::vector<plan::CopyRegion>& regions,
                                     const std::vector<uint8_t>& expected, int repeats);

}  // namespace vkindex::bench
