#include "plan/scatter_plan.hpp"

#include <algorithm>

#include "common/copy_words_params.h"
#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"

namespace vkindex::plan {
namespace {

std::string str(int64_t value) { return std::to_string(value); }

// Updates one invocation applies in one pass. A walk in index order is one loop in the kernel, and
// llvmpipe ends any shader loop nest after 65535 iterations (its guard against endless loops), which
// silently dropped later updates; longer walks are cut into passes that run in order.
constexpr uint64_t kMaxWalk = 16384;

// scatter_apply.glsl's ELEMENT_KIND codes.
enum ElementKind : uint32_t { kMove = 0, kInt32 = 1, kUInt32 = 2, kFloat32 = 3, kInt64 = 4, kUInt64 = 5 };

// Which reductions this type admits, and the kernel's arithmetic for it.
StatusOr<uint32_t> elementKind(const std::string& op, Reduction reduction, DataType type) {
  if (reduction == Reduction::kNone) return uint32_t(kMove);
  const std::string what = op + ": reduction '" + reductionName(reduction) + "'";
  if (type == DataType::kBool || type == DataType::kString) {
    return invalidArgument(what + " is not defined for " + dataTypeName(type));
  }
  const bool ordered = reduction == Reduction::kMax || reduction == Reduction::kMin;
  if (ordered && (type == DataType::kComplex64 || type == DataType::kComplex128)) {
    return invalidArgument(what + " is not defined for " + dataTypeName(type));
  }
  switch (type) {
    case DataType::kInt32: return uint32_t(kInt32);
    case DataType::kUInt32: return uint32_t(kUInt32);
    case DataType::kFloat32: return uint32_t(kFloat32);
    case DataType::kInt64: return uint32_t(kInt64);
    case DataType::kUInt64: return uint32_t(kUInt64);
    default:
      return unsupported(what + " on " + dataTypeName(type) +
                         " is not supported by vkindex yet (supported: int32, uint32, int64, uint64, float)");
  }
}

Status checkUpdatesType(const std::string& op, DataType data_type, DataType updates_type) {
  if (updates_type != data_type) {
    return invalidArgument(op + ": input 'updates' has type " + dataTypeName(updates_type) +
                           " but input 'data' has type " + dataTypeName(data_type));
  }
  return Status::Ok();
}

}  // namespace

StatusOr<ScatterShape> inferScatterElementsShape(const Shape& data_shape, DataType data_type,
                                                 const Shape& indices_shape, DataType index_type,
                                                 const Shape& updates_shape, DataType updates_type, int64_t axis,
                                                 Reduction reduction) {
  const std::string op = "ScatterElements";
  VKINDEX_RETURN_IF_ERROR(checkElementRanksAndAxis(op, data_shape, indices_shape, index_type, axis));
  VKINDEX_RETURN_IF_ERROR(checkUpdatesType(op, data_type, updates_type));
  if (updates_shape != indices_shape) {
    return invalidArgument(op + ": input 'updates' has shape " + shapeString(updates_shape) +
                           " but input 'indices' has shape " + shapeString(indices_shape) + "; they must be equal");
  }
  VKINDEX_RETURN_IF_ERROR(checkElementExtents(op, data_shape, indices_shape, axis));
  ScatterShape shape;
  shape.op = op;
  VKINDEX_ASSIGN_OR_RETURN(shape.element_kind, elementKind(op, reduction, data_type));
  const int64_t rank = static_cast<int64_t>(data_shape.size());
  const int64_t a = axis < 0 ? axis + rank : axis;
  shape.output_shape = data_shape;
  shape.indices_shape = indices_shape;
  shape.element_bytes = elementSize(data_type);
  shape.reduction = reduction;
  const uint64_t axis_size = static_cast<uint64_t>(data_shape[static_cast<size_t>(a)]);
  shape.check = {index_type, *elementCount(indices_shape), {axis_size}};
  shape.report = {op, "indices", indices_shape, false, {axis_size}, {a}};
  shape.dims = coalesceElementDims(data_shape, indices_shape, static_cast<size_t>(a), &shape.axis_dim);
  shape.axis_extent = shape.dims[shape.axis_dim].extent;
  shape.lines = shape.axis_extent == 0 ? 0 : shape.check.tuple_count / shape.axis_extent;
  return shape;
}

StatusOr<ScatterShape> inferScatterNDShape(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                                           DataType index_type, const Shape& updates_shape, DataType updates_type,
                                           Reduction reduction) {
  const std::string op = "ScatterND";
  if (index_type != DataType::kInt32 && index_type != DataType::kInt64) {
    return invalidArgument(op + ": input 'indices' has type " + dataTypeName(index_type) +
                           "; allowed types are int32 and int64");
  }
  const int64_t r = static_cast<int64_t>(data_shape.size());
  if (r == 0) return invalidArgument(op + ": input 'data' must have rank >= 1, got a scalar (rank 0)");
  if (indices_shape.empty())
    return invalidArgument(op + ": input 'indices' must have rank >= 1, got a scalar (rank 0)");
  const int64_t k = indices_shape.back();
  if (k < 1 || k > r) {
    return invalidArgument(op + ": the last dim of input 'indices' is " + str(k) +
                           ", the length of each index tuple, which must lie in [1, " + str(r) + "] (data's rank " +
                           str(r) + ")");
  }
  VKINDEX_RETURN_IF_ERROR(checkUpdatesType(op, data_type, updates_type));
  Shape expected(indices_shape.begin(), indices_shape.end() - 1);
  expected.insert(expected.end(), data_shape.begin() + k, data_shape.end());
  if (updates_shape != expected) {
    return invalidArgument(op + ": input 'updates' has shape " + shapeString(updates_shape) + ", expected " +
                           shapeString(expected) + " (indices.shape[:-1] + data.shape[k:])");
  }
  if (!elementCount(data_shape) || !elementCount(indices_shape)) {
    return invalidArgument(op + ": the inputs' shapes are too large");
  }
  ScatterShape shape;
  shape.op = op;
  VKINDEX_ASSIGN_OR_RETURN(shape.element_kind, elementKind(op, reduction, data_type));
  shape.output_shape = data_shape;
  shape.indices_shape = indices_shape;
  shape.element_bytes = elementSize(data_type);
  shape.reduction = reduction;
  const size_t kk = static_cast<size_t>(k);
  std::vector<uint64_t> extents(data_shape.begin(), data_shape.begin() + k);
  shape.check = {index_type, *productOf(indices_shape, 0, indices_shape.size() - 1), extents};
  std::vector<int64_t> data_dims;
  for (size_t c = 0; c < kk; ++c) data_dims.push_back(int64_t(c));
  shape.report = {op, "indices", indices_shape, true, extents, data_dims};
  shape.slice_elements = *productOf(data_shape, kk, data_shape.size());
  return shape;
}

StatusOr<OpPlan> planScatter(const ScatterShape& shape, const Placement& data, const Placement& indices,
                             const Placement& updates, const Placement& output, bool in_place,
                             const DeviceInfo& device) {
  OpPlan plan;
  plan.report = shape.report;
  VKINDEX_ASSIGN_OR_RETURN(bool checked, appendIndexChecks(plan, shape.check, indices, device, shape.op));
  const bool elements = shape.op == "ScatterElements";
  if (elements && shape.dims.size() > VKINDEX_MAX_ELEMENT_DIMS) {
    return unsupported(shape.op + ": the tensors coalesce to " + std::to_string(shape.dims.size()) +
                       " dims; vkindex supports at most " + std::to_string(VKINDEX_MAX_ELEMENT_DIMS));
  }
  // One window per tensor: the scatter pass binds each whole.
  uint64_t data_lead = 0, indices_lead = 0, updates_lead = 0, output_lead = 0;
  const Window data_window = windowFor(data.offset, data.offset + data.bytes, device, &data_lead);
  const Window indices_window = windowFor(indices.offset, indices.offset + indices.bytes, device, &indices_lead);
  const Window updates_window = windowFor(updates.offset, updates.offset + updates.bytes, device, &updates_lead);
  const Window output_window = windowFor(output.offset, output.offset + output.bytes, device, &output_lead);
  for (const Window& window : {data_window, indices_window, updates_window, output_window}) {
    if (window.size > device.max_storage_buffer_range || window.size > 0xFFFFFFFCull) {
      return unsupported(shape.op + ": tensors larger than one storage-buffer binding (" +
                         std::to_string(device.max_storage_buffer_range) +
                         " bytes on this device) are not supported yet");
    }
  }
  const uint32_t workgroup = device.workgroup_size;
  bool wait_for_checks = checked;
  if (!in_place && output.bytes > 0) {
    abi::CopyWordsParams p{};
    p.byte_count = static_cast<uint32_t>(output.bytes);
    p.source_word_offset = static_cast<uint32_t>(data_lead / 4);
    p.target_word_offset = static_cast<uint32_t>(output_lead / 4);
    Step copy;
    copy.kernel = Kernel::kCopyWords;
    copy.spec = {workgroup, 0, 0, 0, 0, 0};
    copy.bindings = {{Role::kData, data_window}, {Role::kOutput, output_window}, {Role::kStatus, {}}};
    setPush(copy, p);
    copy.groups = (alignUp(output.bytes, 4) / 4 + workgroup - 1) / workgroup;
    if (wait_for_checks) waitForChecks(copy);
    wait_for_checks = false;
    plan.steps.push_back(copy);
  }
  const uint64_t work = elements ? shape.lines : shape.slice_elements;
  if (shape.check.tuple_count == 0 || work == 0 || output.bytes == 0) return plan;

  Step pass;
  pass.bindings = {{Role::kUpdates, updates_window},
                   {Role::kIndices, indices_window},
                   {Role::kOutput, output_window},
                   {Role::kStatus, {}}};
  const uint32_t index_words = shape.check.index_type == DataType::kInt64 ? 2u : 1u;
  const uint32_t element_bytes = static_cast<uint32_t>(shape.element_bytes);
  const uint32_t reduction = static_cast<uint32_t>(shape.reduction);
  pass.groups = (work + workgroup - 1) / workgroup;
  // The walk in index order, cut into passes of at most kMaxWalk steps that run one after another.
  const uint64_t walk = elements ? shape.axis_extent : shape.check.tuple_count;
  for (uint64_t begin = 0; begin < walk; begin += kMaxWalk) {
    const uint32_t first = static_cast<uint32_t>(begin);
    const uint32_t end = static_cast<uint32_t>(std::min(walk, begin + kMaxWalk));
    if (elements) {
      abi::ScatterElementsParams p{};
      p.line_count = static_cast<uint32_t>(shape.lines);
      p.axis_extent = static_cast<uint32_t>(shape.axis_extent);
      p.axis_begin = first;
      p.axis_end = end;
      p.axis_size = static_cast<uint32_t>(shape.check.extents[0]);
      p.updates_word_offset = static_cast<uint32_t>(updates_lead / 4);
      p.out_word_offset = static_cast<uint32_t>(output_lead / 4);
      p.indices_word_offset = static_cast<uint32_t>(indices_lead / 4);
      p.axis_dim = shape.axis_dim;
      for (size_t d = 0; d < shape.dims.size(); ++d) {
        p.extents[d] = static_cast<uint32_t>(shape.dims[d].extent);
        p.data_strides[d] = static_cast<uint32_t>(shape.dims[d].data_stride);
      }
      pass.kernel = Kernel::kScatterElements;
      pass.spec = {workgroup, index_words,        element_bytes,
                   reduction, shape.element_kind, static_cast<uint32_t>(shape.dims.size())};
      setPush(pass, p);
    } else {
      abi::ScatterNDParams p{};
      p.slice_elements = static_cast<uint32_t>(shape.slice_elements);
      p.first_tuple = first;
      p.end_tuple = end;
      p.updates_word_offset = static_cast<uint32_t>(updates_lead / 4);
      p.out_word_offset = static_cast<uint32_t>(output_lead / 4);
      p.indices_word_offset = static_cast<uint32_t>(indices_lead / 4);
      std::copy(shape.check.extents.begin(), shape.check.extents.end(), p.extents);
      pass.kernel = Kernel::kScatterND;
      pass.spec = {workgroup, index_words,        element_bytes,
                   reduction, shape.element_kind, static_cast<uint32_t>(shape.check.extents.size())};
      setPush(pass, p);
    }
    pass.wait_for.clear();
    if (wait_for_checks) waitForChecks(pass);
    wait_for_checks = false;
    // Out of place the first pass reads what the copy wrote; every later pass, what the last one wrote.
    if (!in_place || begin > 0) pass.wait_for.push_back({Role::kOutput, output_window});
    plan.steps.push_back(pass);
  }
  return plan;
}

}  // namespace vkindex::plan
