// ScatterElements and ScatterND planning: validates a call, and turns it into the shared index checks,
// then (out of place) a gated copy of data into the output, then the scatter passes that apply the
// updates in index order (see shaders/common/scatter_apply.glsl): one where every tensor fits a
// binding, else one per run of updates (with its indices) and output window, in run order.
#pragma once

#include "plan/gather_elements_plan.hpp"
#include "plan/index_checks.hpp"
#include "vkindex/reduction.hpp"

namespace vkindex::plan {

// The operators a ScatterShape describes.
enum class ScatterKind : uint8_t { kElements, kND };

// The operator's ONNX name ("ScatterElements", "ScatterND"), for messages.
std::string scatterName(ScatterKind kind);

// A validated scatter, reduced to what its kernel needs.
struct ScatterShape {
  ScatterKind kind = ScatterKind::kElements;
  Shape output_shape;  // data's shape
  Shape indices_shape;
  uint64_t element_bytes = 0;
  Reduction reduction = Reduction::kNone;
  uint32_t element_kind = 0;  // scatter_apply.glsl's ELEMENT_KIND (0 without a reduction)
  // Tuples (index elements for ScatterElements), their extents, and the index policy, which the fronts
  // set (kError after inference): under kSkip no check pass is planned and every pass that reads
  // indices skips an update whose index (any component of its tuple) lies outside [0, s-1].
  IndexCheck check;
  IndexReport report;
  // ScatterElements: the coalesced dims, the axis among them, lines and updates per line.
  std::vector<ElementDim> dims;
  uint32_t axis_dim = 0;
  uint64_t lines = 0;
  uint64_t axis_extent = 0;
  // ScatterND: elements per slice.
  uint64_t slice_elements = 0;
};

StatusOr<ScatterShape> inferScatterElementsShape(const Shape& data_shape, DataType data_type,
                                                 const Shape& indices_shape, DataType index_type,
                                                 const Shape& updates_shape, DataType updates_type, int64_t axis,
                                                 Reduction reduction);

StatusOr<ScatterShape> inferScatterNDShape(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                                           DataType index_type, const Shape& updates_shape, DataType updates_type,
                                           Reduction reduction);

// Plans the dispatches, under shape.check.policy. `in_place`: the output is data itself (no copy step; `output` ==
// `data`).
StatusOr<OpPlan> planScatter(const ScatterShape& shape, const Placement& data, const Placement& indices,
                             const Placement& updates, const Placement& output, bool in_place, const DeviceInfo& device,
                             const Tuning& tuning);

// True for the walk kernels in index order (scatter_elements.comp, scatter_nd.comp: every arithmetic
// variant, self-checking or not).
bool isScatterWalkKernel(Kernel kernel);
// True for the walks that check every index themselves first (a few updates in place, reduction none:
// one dispatch).
bool isSelfCheckingScatterWalkKernel(Kernel kernel);

}  // namespace vkindex::plan
