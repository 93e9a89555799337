// Gather planning: validates a Gather call, infers its output shape, and turns it into dispatches
// (a check pass over the indices, then one or more copy passes). Pure C++: no Vulkan, unit-testable
// without a device.
#pragma once

#include <cstdint>
#include <vector>

#include "common/check_params.h"
#include "common/gather_params.h"
#include "plan/windows.hpp"
#include "vkindex/data_type.hpp"
#include "vkindex/device_info.hpp"
#include "vkindex/status.hpp"

namespace vkindex::plan {

// Gather's problem reduced to rows: data (outer, axis_size, row_bytes) and output
// (outer, index_count, row_bytes).
struct GatherShape {
  std::vector<int64_t> output_shape;
  int64_t axis = 0;  // normalized to [0, rank)
  uint64_t outer = 0;
  uint64_t axis_size = 0;
  uint64_t index_count = 0;
  uint64_t row_bytes = 0;
};

// Checks ranks, the axis attribute and the index type, and infers the output shape
// (data.shape[:axis] + indices.shape + data.shape[axis+1:]). Errors name the operator, the input or
// attribute, and the allowed values.
StatusOr<GatherShape> inferGatherShape(const std::vector<int64_t>& data_shape, DataType data_type,
                                       const std::vector<int64_t>& indices_shape, DataType index_type, int64_t axis);

// One dispatch of check_indices.comp over a window of the indices.
struct CheckPass {
  abi::CheckParams params{};
  Window indices;
  uint64_t groups = 0;  // workgroups needed (the recorder spreads them over x and y)
};

// One copy dispatch: output rows [first row, first row + pass_rows) from data rows
// [data_row_begin, data_row_end), using indices [index_window_begin, ...), each tensor bound through
// a window of its buffer.
struct GatherPass {
  abi::GatherParams params{};
  Window data;
  Window indices;
  Window output;
  uint64_t groups = 0;
};

struct GatherPlan {
  uint32_t unit_bytes = 0;   // 16/8/4 copy units, 2/1 sub-word assembly
  uint32_t index_words = 0;  // 1 (int32) or 2 (int64)
  // Copy passes' workgroup shape: the device's choice, or the shape that makes every row a whole
  // number of blocks (workgroup_size x items_per_invocation), which lets the kernel tile rows.
  uint32_t workgroup_size = 0;
  uint32_t items_per_invocation = 0;
  bool row_tiled = false;
  std::vector<CheckPass> checks;  // one per indices window; empty when there are no indices
  // True when the indices fit one window: the copy passes then record a bad index's value
  // themselves. Otherwise (or without copy passes) the recorder adds report-only dispatches.
  bool copy_passes_report = false;
  std::vector<GatherPass> passes;  // empty when the output is empty
};

// Plans the dispatches for `shape` given where each tensor lives in its buffer and the device's
// limits. status_slot fields are left 0 for the recorder to fill.
StatusOr<GatherPlan> planGather(const GatherShape& shape, DataType index_type, const Placement& data,
                                const Placement& indices, const Placement& output, const DeviceInfo& device);

}  // namespace vkindex::plan
