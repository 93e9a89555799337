// GatherND planning: validates a GatherND call (ONNX opsets 11, 12, 13), infers its output shape, and
// turns it into a row gather (src/plan/row_gather_plan) whose rows are the data slices after the
// addressed dims and whose k-component index tuples belong to their batch.
#pragma once

#include "plan/op_plan.hpp"
#include "plan/row_gather_plan.hpp"
#include "plan/tuning.hpp"
#include "vkindex/data_type.hpp"
#include "vkindex/device_info.hpp"
#include "vkindex/index_policy.hpp"
#include "vkindex/status.hpp"

namespace vkindex::plan {

// GatherND reduced to rows: data (batch, A, row_bytes) with A = product of `extents`, output
// (batch, tuples, row_bytes).
struct GatherNDShape {
  Shape output_shape;  // indices.shape[:-1] + data.shape[batch_dims + k:]
  Shape indices_shape;
  int64_t batch_dims = 0;
  uint64_t batch = 0;             // product of the batch dims
  uint64_t tuples = 0;            // index tuples per batch
  std::vector<uint64_t> extents;  // data dims batch_dims .. batch_dims + k - 1
  uint64_t row_bytes = 0;
  // What an index outside its range means; the fronts set it (vkindex/index_policy.hpp).
  IndexPolicy policy = IndexPolicy::kError;
};

// Checks ranks, batch_dims, the batch dims' agreement, the tuple length and the index type. Errors name
// the operator, the input or attribute, and the allowed values.
StatusOr<GatherNDShape> inferGatherNDShape(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                                           DataType index_type, int64_t batch_dims);

// GatherND as a row gather: k-component tuples, each batch with its own.
RowGather gatherNDRows(const GatherNDShape& shape, DataType index_type);

// Plans the dispatches for `shape` given where each tensor lives and the device's limits.
StatusOr<OpPlan> planGatherND(const GatherNDShape& shape, DataType index_type, const Placement& data,
                              const Placement& indices, const Placement& output, const DeviceInfo& device,
                              const Tuning& tuning);

}  // namespace vkindex::plan
