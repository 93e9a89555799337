#include "plan/scatter_plan.hpp"

#include <algorithm>

#include "common/clear_words_params.h"
#include "common/copy_words_params.h"
#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"
#include "plan/segments.hpp"

namespace vkindex::plan {
namespace {

std::string str(int64_t value) { return std::to_string(value); }

// Updates one invocation applies in one pass. A walk in index order is one loop in the kernel, and
// llvmpipe ends any shader loop nest after 65535 iterations (its guard against endless loops), which
// silently dropped later updates; longer walks are cut into passes that run in order.
constexpr uint64_t kMaxWalk = 16384;

// The largest winner table (one word per data row) ScatterND's last-wins passes use; beyond it (rows
// of a few elements in a huge tensor) the walk in index order needs no scratch memory.
constexpr uint64_t kMaxWinnerTableBytes = uint64_t(64) << 20;

// scatter_combine.glsl's ELEMENT_KIND codes.
enum ElementKind : uint32_t {
  kMove = 0,
  kInt32 = 1,
  kUInt32 = 2,
  kFloat32 = 3,
  kInt64 = 4,
  kUInt64 = 5,
  kInt8 = 6,
  kUInt8 = 7,
  kInt16 = 8,
  kUInt16 = 9,
  kFloat16 = 10,
  kBFloat16 = 11,
  kFloat64 = 12,
  kComplex64 = 13,
  kComplex128 = 14,
};

// Which reductions this type admits, and the kernel's arithmetic for it. ONNX defines add, mul, max
// and min on numeric tensors; max and min need an order, which bool, string and complex lack, and
// bool and string have no arithmetic either.
StatusOr<uint32_t> elementKind(const std::string& op, Reduction reduction, DataType type) {
  if (reduction == Reduction::kNone) return uint32_t(kMove);
  const bool ordered = reduction == Reduction::kMax || reduction == Reduction::kMin;
  switch (type) {
    case DataType::kInt32: return uint32_t(kInt32);
    case DataType::kUInt32: return uint32_t(kUInt32);
    case DataType::kFloat32: return uint32_t(kFloat32);
    case DataType::kInt64: return uint32_t(kInt64);
    case DataType::kUInt64: return uint32_t(kUInt64);
    case DataType::kInt8: return uint32_t(kInt8);
    case DataType::kUInt8: return uint32_t(kUInt8);
    case DataType::kInt16: return uint32_t(kInt16);
    case DataType::kUInt16: return uint32_t(kUInt16);
    case DataType::kFloat16: return uint32_t(kFloat16);
    case DataType::kBFloat16: return uint32_t(kBFloat16);
    case DataType::kFloat64: return uint32_t(kFloat64);
    case DataType::kComplex64:
      if (!ordered) return uint32_t(kComplex64);
      break;
    case DataType::kComplex128:
      if (!ordered) return uint32_t(kComplex128);
      break;
    case DataType::kBool:
    case DataType::kString: break;
  }
  return invalidArgument(op + ": reduction '" + reductionName(reduction) + "' is not defined for " +
                         dataTypeName(type));
}

// Rows of ScatterND's winner table when the last-wins passes serve this call, else 0 (walk instead).
// The walk runs one invocation per slice element, each reading every tuple; the table reads each
// tuple once per row segment and moves whole units, so it wins whatever the slice width (`vkindex
// bench`, 4096 rows of 4 KiB in place: lavapipe 33.6 -> 4.3 ms, SwiftShader 103 -> 5.4 ms).
uint64_t winnerTableRows(const ScatterShape& shape, const DeviceInfo& device) {
  if (shape.op != "ScatterND" || shape.reduction != Reduction::kNone) return 0;
  // One tuple (a KV-cache row update) cannot collide with another: the walk is one dispatch, where the
  // table would add a clear and a claim pass and a scratch buffer.
  if (shape.check.tuple_count <= 1) return 0;
  uint64_t rows = 1;
  for (uint64_t extent : shape.check.extents) rows *= extent;  // data elements bound it: no overflow
  const uint64_t bytes = rows * 4;
  return bytes <= kMaxWinnerTableBytes && bytes <= device.max_storage_buffer_range ? rows : 0;
}

// What the scatter passes bind and where each tensor starts in its window.
struct PassInputs {
  const ScatterShape& shape;
  Window updates_window, indices_window, output_window;
  uint64_t updates_word, indices_word, output_word;  // word offsets within the windows
  uint32_t workgroup;
};

abi::ScatterNDParams ndParams(const PassInputs& in, uint64_t first_tuple, uint64_t end_tuple) {
  abi::ScatterNDParams p{};
  p.slice_elements = static_cast<uint32_t>(in.shape.slice_elements);
  p.first_tuple = static_cast<uint32_t>(first_tuple);
  p.end_tuple = static_cast<uint32_t>(end_tuple);
  p.updates_word_offset = static_cast<uint32_t>(in.updates_word);
  p.out_word_offset = static_cast<uint32_t>(in.output_word);
  p.indices_word_offset = static_cast<uint32_t>(in.indices_word);
  std::copy(in.shape.check.extents.begin(), in.shape.check.extents.end(), p.extents);
  return p;
}

SpecValues scatterSpec(const PassInputs& in, uint32_t dims) {
  const ScatterShape& shape = in.shape;
  return {in.workgroup,
          shape.check.index_type == DataType::kInt64 ? 2u : 1u,
          static_cast<uint32_t>(shape.element_bytes),
          static_cast<uint32_t>(shape.reduction),
          shape.element_kind,
          dims};
}

// One walk kernel's variants (scatter_apply.glsl): the arithmetic compiled into each.
struct WalkKernels {
  Kernel move, plain, float32, float64, float32_add, order32;
};

constexpr WalkKernels kElementsWalk = {Kernel::kScatterElementsMove,       Kernel::kScatterElements,
                                       Kernel::kScatterElementsFloat32,    Kernel::kScatterElementsFloat64,
                                       Kernel::kScatterElementsFloat32Add, Kernel::kScatterElementsOrder32};
constexpr WalkKernels kNDWalk = {Kernel::kScatterNDMove,    Kernel::kScatterND,           Kernel::kScatterNDFloat32,
                                 Kernel::kScatterNDFloat64, Kernel::kScatterNDFloat32Add, Kernel::kScatterNDOrder32};

// The walk kernel variant with the arithmetic this call needs and no more: none without a reduction,
// float32 add alone for float and complex64 add, max and min alone for 4-byte elements, soft float
// only for float add and mul.
Kernel walkKernel(const ScatterShape& shape, const WalkKernels& kernels) {
  if (shape.reduction == Reduction::kNone) return kernels.move;
  if (shape.reduction == Reduction::kAdd && (shape.element_kind == kFloat32 || shape.element_kind == kComplex64)) {
    return kernels.float32_add;
  }
  if (shape.reduction == Reduction::kMax || shape.reduction == Reduction::kMin) {
    const bool four_bytes =
        shape.element_kind == kInt32 || shape.element_kind == kUInt32 || shape.element_kind == kFloat32;
    return four_bytes ? kernels.order32 : kernels.plain;
  }
  switch (shape.element_kind) {
    case kFloat32:
    case kFloat16:
    case kBFloat16:
    case kComplex64: return kernels.float32;
    case kFloat64:
    case kComplex128: return kernels.float64;
    default: return kernels.plain;
  }
}

// The walk in index order (every reduction, and ScatterElements): one invocation per line (per slice
// element for ScatterND) applies its updates in order, cut into passes of at most kMaxWalk steps that
// run one after another.
void appendWalkPasses(OpPlan& plan, const PassInputs& in, bool wait_for_checks, bool in_place) {
  const ScatterShape& shape = in.shape;
  const bool elements = shape.op == "ScatterElements";
  Step pass;
  pass.bindings = {{Role::kUpdates, in.updates_window},
                   {Role::kIndices, in.indices_window},
                   {Role::kOutput, in.output_window},
                   {Role::kStatus, {}}};
  pass.groups = ((elements ? shape.lines : shape.slice_elements) + in.workgroup - 1) / in.workgroup;
  const uint64_t walk = elements ? shape.axis_extent : shape.check.tuple_count;
  for (uint64_t begin = 0; begin < walk; begin += kMaxWalk) {
    const uint64_t end = std::min(walk, begin + kMaxWalk);
    if (elements) {
      abi::ScatterElementsParams p{};
      p.line_count = static_cast<uint32_t>(shape.lines);
      p.axis_extent = static_cast<uint32_t>(shape.axis_extent);
      p.axis_begin = static_cast<uint32_t>(begin);
      p.axis_end = static_cast<uint32_t>(end);
      p.axis_size = static_cast<uint32_t>(shape.check.extents[0]);
      p.updates_word_offset = static_cast<uint32_t>(in.updates_word);
      p.out_word_offset = static_cast<uint32_t>(in.output_word);
      p.indices_word_offset = static_cast<uint32_t>(in.indices_word);
      p.axis_dim = shape.axis_dim;
      for (size_t d = 0; d < shape.dims.size(); ++d) {
        p.extents[d] = static_cast<uint32_t>(shape.dims[d].extent);
        p.data_strides[d] = static_cast<uint32_t>(shape.dims[d].data_stride);
      }
      pass.kernel = walkKernel(shape, kElementsWalk);
      pass.spec = scatterSpec(in, static_cast<uint32_t>(shape.dims.size()));
      setPush(pass, p);
    } else {
      pass.kernel = walkKernel(shape, kNDWalk);
      pass.spec = scatterSpec(in, static_cast<uint32_t>(shape.check.extents.size()));
      setPush(pass, ndParams(in, begin, end));
    }
    pass.wait_for.clear();
    if (wait_for_checks) waitForChecks(pass);
    wait_for_checks = false;
    // Out of place the first pass reads what the copy wrote; every later pass, what the last one wrote.
    if (!in_place || begin > 0) pass.wait_for.push_back({Role::kOutput, in.output_window});
    plan.steps.push_back(pass);
  }
}

// The write pass of the winner table: every winning tuple's slice at once. Slices of whole words move
// in the widest unit dividing the slice and both offsets, in row segments (scatter_nd_rows.comp, laid
// out as the row gathers: up to the device's row_lanes invocations per segment of row_items units);
// other slices one element per invocation (scatter_nd_write.comp).
Step winnerWrite(const PassInputs& in, const Window& table, const DeviceInfo& device) {
  const ScatterShape& shape = in.shape;
  const uint64_t slice_bytes = shape.slice_elements * shape.element_bytes;
  const uint32_t unit = largestUnit(slice_bytes | (in.updates_word * 4) | (in.output_word * 4));
  Step write;
  write.spec = scatterSpec(in, static_cast<uint32_t>(shape.check.extents.size()));
  write.bindings = {{Role::kUpdates, in.updates_window},
                    {Role::kIndices, in.indices_window},
                    {Role::kOutput, in.output_window},
                    {Role::kScratch, table},
                    {Role::kStatus, {}}};
  setPush(write, ndParams(in, 0, shape.check.tuple_count));
  if (unit < 4) {
    write.kernel = Kernel::kScatterNDWrite;
    write.groups = (shape.check.tuple_count * shape.slice_elements + in.workgroup - 1) / in.workgroup;
    return write;
  }
  write.kernel = unit == 16 ? Kernel::kScatterNDRows : unit == 8 ? Kernel::kScatterNDRows8 : Kernel::kScatterNDRows4;
  const uint64_t slice_units = slice_bytes / unit;
  const SegmentLayout layout = segmentLayout(device, in.workgroup, slice_units);
  write.spec[kSpecItems] = layout.items;
  write.spec[kSpecRowLanes] = layout.lanes;
  write.groups = layout.groupsFor(shape.check.tuple_count * layout.segmentsOf(slice_units), in.workgroup);
  return write;
}

// ScatterND with reduction none: zero a winner table of one word per data row, let every tuple claim
// its row (the highest position wins, whatever the order), then write every winning update at once.
void appendWinnerPasses(OpPlan& plan, const PassInputs& in, uint64_t rows, bool wait_for_checks, bool in_place,
                        const DeviceInfo& device) {
  const ScatterShape& shape = in.shape;
  const Window table{0, rows * 4};
  plan.scratch_bytes = table.size;
  const uint32_t k = static_cast<uint32_t>(shape.check.extents.size());

  Step clear;
  clear.kernel = Kernel::kClearWords;
  clear.spec = {in.workgroup, 0, 0, 0, 0, 0};
  clear.bindings = {{Role::kScratch, table}};
  abi::ClearWordsParams clear_params{};
  clear_params.word_count = static_cast<uint32_t>(rows);
  setPush(clear, clear_params);
  clear.groups = (rows + in.workgroup - 1) / in.workgroup;
  plan.steps.push_back(clear);

  Step claim;
  claim.kernel = Kernel::kScatterNDClaim;
  claim.spec = scatterSpec(in, k);
  claim.bindings = {{Role::kIndices, in.indices_window}, {Role::kScratch, table}, {Role::kStatus, {}}};
  setPush(claim, ndParams(in, 0, shape.check.tuple_count));
  claim.groups = (shape.check.tuple_count + in.workgroup - 1) / in.workgroup;
  if (wait_for_checks) waitForChecks(claim);
  claim.wait_for.push_back({Role::kScratch, table});
  plan.steps.push_back(claim);

  Step write = winnerWrite(in, table, device);
  write.wait_for.push_back({Role::kScratch, table});
  if (!in_place) write.wait_for.push_back({Role::kOutput, in.output_window});  // the copy of data
  plan.steps.push_back(write);
}

// A tensor's window and where the tensor starts in it (bytes).
struct Bound {
  Window window;
  uint64_t lead;
};

// Copies below this stay one word-per-invocation pass: the bulk pass would add a dispatch for little.
constexpr uint64_t kMinBulkCopyBytes = uint64_t(64) << 10;

// The gated copy of data into an out-of-place output: where both start 16-byte aligned and the copy
// is large, its whole 16-byte units in row segments (copy_words_16, the row gathers' layout for this
// device), then any tail word by word (copy_words, which also keeps a last partial word's other bytes).
void appendDataCopy(OpPlan& plan, const Bound& data, const Bound& output, uint64_t bytes, const DeviceInfo& device,
                    bool wait_for_checks) {
  const uint32_t workgroup = device.workgroup_size;
  const auto addCopy = [&](Kernel kernel, uint64_t from, uint64_t count, SpecValues spec, uint64_t groups) {
    abi::CopyWordsParams p{};
    p.byte_count = static_cast<uint32_t>(count);
    p.source_word_offset = static_cast<uint32_t>((data.lead + from) / 4);
    p.target_word_offset = static_cast<uint32_t>((output.lead + from) / 4);
    Step copy;
    copy.kernel = kernel;
    copy.spec = spec;
    copy.bindings = {{Role::kData, data.window}, {Role::kOutput, output.window}, {Role::kStatus, {}}};
    setPush(copy, p);
    copy.groups = groups;
    if (wait_for_checks) waitForChecks(copy);
    plan.steps.push_back(copy);
  };
  uint64_t bulk = 0;
  if (bytes >= kMinBulkCopyBytes && data.lead % 16 == 0 && output.lead % 16 == 0) {
    bulk = bytes / 16 * 16;
    const uint64_t units = bulk / 16;
    const SegmentLayout layout = segmentLayout(device, workgroup, units);
    addCopy(Kernel::kCopyWords16, 0, bulk, {workgroup, 0, 0, layout.items, layout.lanes, 0},
            layout.groupsFor(layout.segmentsOf(units), workgroup));
  }
  if (bulk < bytes) {
    const uint64_t words = alignUp(bytes - bulk, 4) / 4;
    addCopy(Kernel::kCopyWords, bulk, bytes - bulk, {workgroup, 0, 0, 0, 0, 0}, (words + workgroup - 1) / workgroup);
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
  bool wait_for_checks = checked;
  if (!in_place && output.bytes > 0) {
    appendDataCopy(plan, {data_window, data_lead}, {output_window, output_lead}, output.bytes, device, wait_for_checks);
    wait_for_checks = false;
  }
  const uint64_t work = elements ? shape.lines : shape.slice_elements;
  if (shape.check.tuple_count == 0 || work == 0 || output.bytes == 0) return plan;

  const PassInputs inputs{shape,           updates_window,       indices_window,
                          output_window,   updates_lead / 4,     indices_lead / 4,
                          output_lead / 4, device.workgroup_size};
  const uint64_t rows = winnerTableRows(shape, device);
  if (rows > 0) {
    appendWinnerPasses(plan, inputs, rows, wait_for_checks, in_place, device);
  } else {
    appendWalkPasses(plan, inputs, wait_for_checks, in_place);
    // A few tuples in place (a KV-cache row update) in one dispatch.
    if (plan.steps.size() == 3 && plan.steps[2].kernel == Kernel::kScatterNDMove) {
      fuseSmallChecks(plan, shape.check, Kernel::kScatterNDMoveChecked);
    }
  }
  return plan;
}

}  // namespace vkindex::plan
