// GatherElements planning: validates a GatherElements call (ONNX opsets 11, 13), coalesces its dims,
// and turns it into index checks plus element passes of gather_elements.comp.
#pragma once

#include "plan/op_plan.hpp"
#include "plan/tuning.hpp"
#include "vkindex/data_type.hpp"
#include "vkindex/device_info.hpp"
#include "vkindex/index_policy.hpp"
#include "vkindex/status.hpp"

namespace vkindex::plan {

// One dim of the coalesced view: its extent in indices (= output) and its element stride in data.
struct ElementDim {
  uint64_t extent = 0;
  uint64_t data_extent = 0;
  uint64_t data_stride = 0;
};

struct GatherElementsShape {
  Shape output_shape;      // = indices' shape
  int64_t axis = 0;        // normalized
  uint64_t axis_size = 0;  // data.shape[axis]
  uint64_t element_bytes = 0;
  uint64_t data_elements = 0;
  uint64_t output_elements = 0;
  // The coalesced view: dims of extent 1 dropped, neighbours contiguous in both tensors merged.
  std::vector<ElementDim> dims;
  uint32_t axis_dim = 0;  // which of `dims` the index replaces
  // What an index outside its range means; the fronts set it (vkindex/index_policy.hpp).
  IndexPolicy policy = IndexPolicy::kError;
};

// The coalesced view of indices (any extents) over data along the normalized `axis`: non-axis dims of
// extent 1 dropped, a non-axis dim merged into the non-axis dim before it when it spans its whole data
// dim and the two are contiguous in data. Sets `axis_dim` to the axis' place in the result. Shared by
// GatherElements and ScatterElements.
std::vector<ElementDim> coalesceElementDims(const Shape& data_shape, const Shape& indices_shape, size_t axis,
                                            uint32_t* axis_dim);

// The element operators' checks, shared by GatherElements and ScatterElements (`op` names the
// operator in messages): the index type, data's rank, indices' rank, and the axis; then that every
// non-axis dim of indices is at most data's.
Status checkElementRanksAndAxis(const std::string& op, const Shape& data_shape, const Shape& indices_shape,
                                DataType index_type, int64_t axis);
Status checkElementExtents(const std::string& op, const Shape& data_shape, const Shape& indices_shape, int64_t axis);

// Checks the index type, ranks, axis and the non-axis extents, and coalesces dims. Errors name the
// operator, the input or attribute, and the allowed values.
StatusOr<GatherElementsShape> inferGatherElementsShape(const Shape& data_shape, DataType data_type,
                                                       const Shape& indices_shape, DataType index_type, int64_t axis);

// Beyond VKINDEX_MAX_ELEMENT_DIMS coalesced dims the outermost are peeled (plan/element_blocks.hpp).
// Plans the dispatches for `shape` given where each tensor lives and the device's limits.
StatusOr<OpPlan> planGatherElements(const GatherElementsShape& shape, DataType index_type, const Placement& data,
                                    const Placement& indices, const Placement& output, const DeviceInfo& device,
                                    const Tuning& tuning);

}  // namespace vkindex::plan
