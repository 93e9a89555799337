#include "plan/gather_elements_plan.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/gather_elements_params.h"
#include "plan/element_blocks.hpp"
#include "plan/index_checks.hpp"
#include "plan/segments.hpp"

namespace vkindex::plan {

Status checkElementRanksAndAxis(const std::string& op, const Shape& data_shape, const Shape& indices_shape,
                                DataType index_type, int64_t axis) {
  if (index_type != DataType::kInt32 && index_type != DataType::kInt64) {
    return invalidArgument(op + ": input 'indices' has type " + dataTypeName(index_type) +
                           "; allowed types are int32 and int64");
  }
  const int64_t r = static_cast<int64_t>(data_shape.size());
  if (r == 0) return invalidArgument(op + ": input 'data' must have rank >= 1, got a scalar (rank 0)");
  if (indices_shape.size() != data_shape.size()) {
    return invalidArgument(op + ": input 'indices' has rank " + str(int64_t(indices_shape.size())) +
                           " but input 'data' has rank " + str(r) + "; they must be equal");
  }
  if (axis < -r || axis >= r) {
    return invalidArgument(op + ": attribute 'axis' = " + str(axis) + " is out of range for input 'data' of rank " +
                           str(r) + " (allowed [" + str(-r) + ", " + str(r - 1) + "])");
  }
  return Status::Ok();
}

Status checkElementExtents(const std::string& op, const Shape& data_shape, const Shape& indices_shape, int64_t axis) {
  const int64_t r = static_cast<int64_t>(data_shape.size());
  const int64_t a = axis < 0 ? axis + r : axis;
  if (!elementCount(data_shape))
    return invalidArgument(op + ": input 'data' has an invalid shape " + shapeString(data_shape));
  if (!elementCount(indices_shape)) {
    return invalidArgument(op + ": input 'indices' has an invalid shape " + shapeString(indices_shape));
  }
  for (int64_t d = 0; d < r; ++d) {
    const size_t i = static_cast<size_t>(d);
    if (d != a && indices_shape[i] > data_shape[i]) {
      return invalidArgument(op + ": input 'indices' dim " + str(d) + " = " + str(indices_shape[i]) +
                             " exceeds input 'data' dim " + str(d) + " = " + str(data_shape[i]) +
                             " (dims other than axis " + str(a) + " allow at most data's)");
    }
  }
  return Status::Ok();
}

std::vector<ElementDim> coalesceElementDims(const Shape& data_shape, const Shape& indices_shape, size_t axis,
                                            uint32_t* axis_dim) {
  const size_t rank = data_shape.size();
  std::vector<uint64_t> strides(rank);
  uint64_t stride = 1;
  for (size_t d = rank; d-- > 0;) {
    strides[d] = stride;
    stride *= static_cast<uint64_t>(std::max<int64_t>(data_shape[d], 1));
  }
  std::vector<ElementDim> dims;
  bool previous_is_axis = true;  // nothing to merge into at the start
  for (size_t d = 0; d < rank; ++d) {
    const ElementDim dim{static_cast<uint64_t>(indices_shape[d]), static_cast<uint64_t>(data_shape[d]), strides[d]};
    if (d == axis) {
      *axis_dim = static_cast<uint32_t>(dims.size());
      dims.push_back(dim);
      previous_is_axis = true;
      continue;
    }
    if (dim.extent == 1) continue;  // its coordinate is always 0
    ElementDim* last = dims.empty() ? nullptr : &dims.back();
    if (!previous_is_axis && last != nullptr && dim.extent == dim.data_extent &&
        last->data_stride == dim.data_extent * dim.data_stride) {
      last->extent *= dim.extent;
      last->data_extent *= dim.data_extent;
      last->data_stride = dim.data_stride;
      continue;
    }
    dims.push_back(dim);
    previous_is_axis = false;
  }
  return dims;
}

StatusOr<GatherElementsShape> inferGatherElementsShape(const Shape& data_shape, DataType data_type,
                                                       const Shape& indices_shape, DataType index_type, int64_t axis) {
  VKINDEX_RETURN_IF_ERROR(checkClassicType("GatherElements", "data", data_type));
  VKINDEX_RETURN_IF_ERROR(checkElementRanksAndAxis("GatherElements", data_shape, indices_shape, index_type, axis));
  VKINDEX_RETURN_IF_ERROR(checkElementExtents("GatherElements", data_shape, indices_shape, axis));
  GatherElementsShape shape;
  const size_t rank = data_shape.size();
  shape.axis = axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
  const size_t a = static_cast<size_t>(shape.axis);
  shape.output_shape = indices_shape;
  shape.axis_size = static_cast<uint64_t>(data_shape[a]);
  shape.element_bytes = elementSize(data_type);
  shape.data_elements = *elementCount(data_shape);
  shape.output_elements = *elementCount(indices_shape);
  shape.dims = coalesceElementDims(data_shape, indices_shape, a, &shape.axis_dim);
  return shape;
}

StatusOr<OpPlan> planGatherElements(const GatherElementsShape& shape, DataType index_type, const Placement& data,
                                    const Placement& indices, const Placement& output, const DeviceInfo& device,
                                    const Tuning& tuning) {
  OpPlan plan;
  plan.report = {"GatherElements", "indices", shape.output_shape, false, {shape.axis_size}, {shape.axis}};
  const IndexCheck check{index_type, shape.output_elements, {shape.axis_size}, shape.policy};
  VKINDEX_ASSIGN_OR_RETURN(bool checked, appendIndexChecks(plan, check, indices, device, tuning, "GatherElements"));
  const bool has_checks = checked;
  // Nothing to copy. An empty axis: the check fails, or under the skip policy every element is zero.
  const bool empty_axis = shape.axis_size == 0;
  if (shape.output_elements == 0 || (empty_axis && shape.policy == IndexPolicy::kError)) return plan;
  VKINDEX_ASSIGN_OR_RETURN(const ElementBlocks blocks,
                           elementBlocks("GatherElements", shape.dims, shape.axis_dim, shape.axis_size,
                                         shape.output_elements, shape.data_elements));
  // Output elements (= index elements) are bounded by appendIndexChecks above.
  if (shape.data_elements > kMax32) {
    return unsupported("GatherElements: input 'data' has " + std::to_string(shape.data_elements) +
                       " elements; more than 2^32-1 are not supported");
  }
  const uint64_t E = shape.element_bytes;
  const uint32_t unit = largestUnit(E | data.offset | output.offset);
  const uint64_t units_per_element = unit < 4 ? 1 : E / unit;
  const uint64_t index_bytes = index_type == DataType::kInt64 ? 8 : 4;
  const uint64_t capacity = windowCapacity(device);
  // Output elements per pass: their output bytes and their indices must each fit one window.
  const uint64_t per_pass = std::min({capacity / E, capacity / index_bytes, kMaxPassItems / units_per_element});
  const uint64_t data_per_window = capacity / E;
  if (per_pass == 0 || data_per_window == 0) {
    return unsupported("GatherElements: this device's storage-buffer bindings are too small");
  }
  abi::GatherElementsParams base{};
  base.units_per_element = static_cast<uint32_t>(units_per_element);
  base.axis_size = static_cast<uint32_t>(shape.axis_size);
  base.axis_dim = blocks.kernel_axis_dim;
  for (size_t j = 0; j < blocks.kernel_dims.size(); ++j) {
    base.extents[j] = static_cast<uint32_t>(blocks.kernel_dims[j].extent);
    base.data_strides[j] = static_cast<uint32_t>(blocks.kernel_dims[j].data_stride);
  }
  const Kernel kernel = elementGatherKernel(unit);
  for (uint64_t p0 = 0, p1 = 0; p0 < shape.output_elements; p0 = p1) {
    // Output elements [p0, p1): elements [q0, q1) of one block (no pass straddles two, as each block
    // has a data base of its own).
    const uint64_t block = p0 / blocks.elements, q0 = p0 % blocks.elements;
    const uint64_t q1 = std::min(blocks.elements, q0 + per_pass);
    p1 = p0 + (q1 - q0);
    const uint64_t source_begin = blockBase(blocks, block), source_end = source_begin + blocks.reach;
    uint64_t out_lead = 0, index_lead = 0;
    const Window output_window = windowFor(output.offset + p0 * E, output.offset + p1 * E, device, &out_lead);
    const Window index_window =
        windowFor(indices.offset + p0 * index_bytes, indices.offset + p1 * index_bytes, device, &index_lead);
    // One pass over the block's elements [q0, q1), `data_binding` binding the sources
    // [begin, end) (relative to the block's base) from unit `data_unit_offset`.
    const auto addPass = [&](const Binding& data_binding, uint64_t begin, uint64_t end, uint64_t data_unit_offset) {
      abi::GatherElementsParams p = base;
      p.pass_elements = static_cast<uint32_t>(q1 - q0);
      p.first_element = static_cast<uint32_t>(q0);
      p.data_element_begin = static_cast<uint32_t>(begin);
      p.data_element_end = static_cast<uint32_t>(end);
      p.data_unit_offset = static_cast<uint32_t>(data_unit_offset);
      p.out_unit_offset = static_cast<uint32_t>(out_lead / unit);
      p.out_word_count = static_cast<uint32_t>(output_window.size / 4);
      p.indices_word_offset = static_cast<uint32_t>(index_lead / 4);
      // Items are elements, or output words for sub-word elements, in the row gathers' segments.
      const uint64_t items = unit < 4 ? p.out_word_count : p.pass_elements;
      const SegmentLayout layout = segmentLayout(tuning, tuning.workgroup_size, items);
      Step pass;
      pass.kernel = kernel;
      pass.spec = {tuning.workgroup_size, index_type == DataType::kInt64 ? 2u : 1u,        unit, layout.items,
                   layout.lanes,          static_cast<uint32_t>(blocks.kernel_dims.size())};
      pass.bindings = {
          data_binding, {Role::kIndices, index_window}, {Role::kOutput, output_window}, {Role::kStatus, {}}};
      setPush(pass, p);
      pass.groups = layout.groupsFor(layout.segmentsOf(items), tuning.workgroup_size);
      fitOneGroup(pass, layout.segmentsOf(items) * layout.lanes, layout.lanes, device);
      if (checked) {
        waitForChecks(pass);
        checked = false;
      } else if (unit < 4 && !plan.steps.empty() && plan.steps.back().kernel == kernel) {
        // Sub-word passes may share an output word with the previous pass (atomics on disjoint bytes).
        pass.wait_for.push_back({Role::kOutput, output_window});
      }
      plan.steps.push_back(pass);
    };
    if (empty_axis) {
      // Only under the skip policy: every index is skipped, so the pass reads no data and zeros every
      // element. The output window stands in for the data binding; every source counts as bound.
      addPass({Role::kOutput, output_window}, 0, kMax32, 0);
      continue;
    }
    // Every data window the block's sources can reach: an element's source can lie anywhere in
    // them (sources outside a pass's window are skipped by it and copied by the pass that binds them).
    for (uint64_t d0 = 0; d0 < shape.data_elements; d0 += data_per_window) {
      const uint64_t d1 = std::min(shape.data_elements, d0 + data_per_window);
      const uint64_t lo = std::max(d0, source_begin), hi = std::min(d1, source_end);
      if (lo >= hi) continue;
      uint64_t data_lead = 0;
      const Window data_window = windowFor(data.offset + d0 * E, data.offset + d1 * E, device, &data_lead);
      // Sources relative to the block's base: [lo, hi) is bound, starting (lo - d0) elements into
      // the window's data.
      addPass({Role::kData, data_window}, lo - source_begin, hi - source_begin, (data_lead + (lo - d0) * E) / unit);
    }
  }
  // A few indices in one pass (a top-k's gather, say): the check, the report and the pass become the
  // pass's self-checking module (fuseSmallChecks declines anything else, several passes included).
  if (has_checks) fuseSmallChecks(plan, check, elementGatherKernel(unit, true));
  applyIndexPolicy(plan, shape.policy);
  return plan;
}

}  // namespace vkindex::plan
