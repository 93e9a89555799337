// Gather planning: validates a Gather call, infers its output shape, and turns it into a row gather
// (src/plan/row_gather_plan) with one-component index tuples shared by every outer slice. Pure C++: no Vulkan,
// unit-testable without a device.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/op_plan.hpp"
#include "plan/row_gather_plan.hpp"
#include "plan/tuning.hpp"
#include "vkindex/data_type.hpp"
#include "vkindex/device_info.hpp"
#include "vkindex/index_policy.hpp"
#include "vkindex/status.hpp"

namespace vkindex::plan {

// Gather's problem reduced to rows: data (outer, axis_size, row_bytes) and output
// (outer, index_count, row_bytes).
struct GatherShape {
  std::vector<int64_t> output_shape;
  std::vector<int64_t> indices_shape;
  int64_t axis = 0;  // normalized to [0, rank)
  uint64_t outer = 0;
  uint64_t axis_size = 0;
  uint64_t index_count = 0;
  uint64_t row_bytes = 0;
  // What an index outside its range means; the fronts set it (vkindex/index_policy.hpp).
  IndexPolicy policy = IndexPolicy::kError;
};

// Checks ranks, the axis attribute and the index type, and infers the output shape
// (data.shape[:axis] + indices.shape + data.shape[axis+1:]). Errors name the operator, the input or
// attribute, and the allowed values.
StatusOr<GatherShape> inferGatherShape(const std::vector<int64_t>& data_shape, DataType data_type,
                                       const std::vector<int64_t>& indices_shape, DataType index_type, int64_t axis);

// Gather as a row gather: one-component tuples shared by every outer slice.
RowGather gatherRows(const GatherShape& shape, DataType index_type);

// Plans the dispatches for `shape` given where each tensor lives in its buffer and the device's
// limits. status_slot words are left 0 for the runner to fill.
StatusOr<OpPlan> planGather(const GatherShape& shape, DataType index_type, const Placement& data,
                            const Placement& indices, const Placement& output, const DeviceInfo& device,
                            const Tuning& tuning);

}  // namespace vkindex::plan
