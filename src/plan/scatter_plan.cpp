#include "plan/scatter_plan.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>

#include "common/clear_words_params.h"
#include "common/copy_words_params.h"
#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"
#include "plan/element_blocks.hpp"
#include "plan/scatter_fold_plan.hpp"
#include "plan/scatter_windows.hpp"
#include "plan/segments.hpp"

namespace vkindex::plan {
namespace {

// The largest winner table (one word per data row) ScatterND's last-wins passes use; beyond it (rows
// of a few elements in a huge tensor) the walk in index order needs no scratch memory.
constexpr uint64_t kMaxWinnerTableBytes = uint64_t(64) << 20;

// scatter_combine.glsl's ELEMENT_KIND codes (common/spec_ids.h, which the shaders read too).
enum ElementKind : uint32_t {
  kMove = VKINDEX_KIND_MOVE,
  kInt32 = VKINDEX_KIND_INT32,
  kUInt32 = VKINDEX_KIND_UINT32,
  kFloat32 = VKINDEX_KIND_FLOAT32,
  kInt64 = VKINDEX_KIND_INT64,
  kUInt64 = VKINDEX_KIND_UINT64,
  kInt8 = VKINDEX_KIND_INT8,
  kUInt8 = VKINDEX_KIND_UINT8,
  kInt16 = VKINDEX_KIND_INT16,
  kUInt16 = VKINDEX_KIND_UINT16,
  kFloat16 = VKINDEX_KIND_FLOAT16,
  kBFloat16 = VKINDEX_KIND_BFLOAT16,
  kFloat64 = VKINDEX_KIND_FLOAT64,
  kComplex64 = VKINDEX_KIND_COMPLEX64,
  kComplex128 = VKINDEX_KIND_COMPLEX128,
};

// Which reductions this type admits, and the kernel's arithmetic for it. ONNX defines add, mul, max
// and min on numeric tensors; max and min need an order, which bool, string and complex lack, and
// bool and string have no arithmetic either.
StatusOr<uint32_t> elementKind(const std::string& op, Reduction reduction, DataType type) {
  if (static_cast<unsigned>(reduction) > static_cast<unsigned>(Reduction::kMin)) {
    return invalidArgument(op + ": unknown reduction " + std::to_string(static_cast<int>(reduction)) +
                           " (allowed none, add, mul, max, min)");
  }
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

// Entries of the winner table when the last-wins passes serve this call, else 0 (walk instead): one
// word per data row for ScatterND, per data element for ScatterElements.
// ScatterND: the walk runs one invocation per slice element, each reading every tuple; the table
// reads each tuple once per row segment and moves whole units, so it wins whatever the slice width
// (docs/scatter-strategies.md).
uint64_t winnerTableEntries(const ScatterShape& shape, const DeviceInfo& device, const Tuning& tuning) {
  if (shape.reduction != Reduction::kNone) return 0;
  // One update (a KV-cache row update) cannot collide with another: the walk is one dispatch, where the
  // table would add a clear and a claim pass and a scratch buffer.
  if (shape.check.tuple_count <= 1) return 0;
  const bool elements = shape.kind == ScatterKind::kElements;
  // ScatterElements walks lines in order where there are enough of them (Tuning::min_walk_lines),
  // but for a single line of many updates (Tuning::max_single_line_walk_updates).
  const bool long_single_line = shape.lines == 1 && shape.check.tuple_count > tuning.max_single_line_walk_updates;
  if (elements && shape.lines >= tuning.min_walk_lines && !long_single_line) return 0;
  uint64_t entries = 1;  // data elements bound it: no overflow
  if (elements) {
    for (int64_t extent : shape.output_shape) entries *= static_cast<uint64_t>(extent);
  } else {
    for (uint64_t extent : shape.check.extents) entries *= extent;
  }
  const uint64_t bytes = entries * 4;
  return bytes <= kMaxWinnerTableBytes && bytes <= device.max_storage_buffer_range ? entries : 0;
}

// A pass's binding of the index tuples of `run`. Tuples of no components (ScatterND with k = 0) read
// no index, and their indices may hold no byte to bind: the kernels' read-only indices slot gets the
// run's updates instead, and never reads them.
Binding indicesBinding(const ScatterShape& shape, const SourceRun& run) {
  if (shape.check.extents.empty()) return {Role::kUpdates, run.updates.window};
  return {Role::kIndices, run.indices.window};
}

// The dims a ScatterElements kernel sees: the shape's coalesced ones, or a peeled block's
// (plan/element_blocks.hpp), whose lines count from the data element and update position given here.
struct ElementView {
  const std::vector<ElementDim>* dims = nullptr;
  uint32_t axis_dim = 0;
  uint64_t data_base = 0, update_base = 0;
};

// Where the scatter passes read and write.
struct PassLayout {
  const ScatterShape& shape;
  std::vector<SourceRun> runs;
  std::vector<TargetRange> targets;
  uint32_t workgroup;
  ElementView view;  // ScatterElements
};

abi::ScatterNDParams ndParams(const ScatterShape& shape, const SourceRun& run, const TargetRange& target,
                              uint64_t first_tuple, uint64_t end_tuple) {
  abi::ScatterNDParams p{};
  p.slice_elements = static_cast<uint32_t>(shape.slice_elements);
  p.first_tuple = static_cast<uint32_t>(first_tuple);
  p.end_tuple = static_cast<uint32_t>(end_tuple);
  p.updates_word_offset = run.updates.word;
  p.out_word_offset = target.output.word;
  p.indices_word_offset = run.indices.word;
  p.target_begin = static_cast<uint32_t>(target.begin);
  p.target_end = static_cast<uint32_t>(target.end);
  std::copy(shape.check.extents.begin(), shape.check.extents.end(), p.extents);
  return p;
}

abi::ScatterElementsParams elementsParams(const PassLayout& layout, const SourceRun& run, const TargetRange& target,
                                          uint64_t axis_begin, uint64_t axis_end) {
  const ElementView& view = layout.view;
  abi::ScatterElementsParams p{};
  p.first_line = static_cast<uint32_t>(run.line_begin);
  p.line_count = static_cast<uint32_t>(run.line_end - run.line_begin);
  p.axis_extent = static_cast<uint32_t>((*view.dims)[view.axis_dim].extent);
  p.axis_begin = static_cast<uint32_t>(axis_begin);
  p.axis_end = static_cast<uint32_t>(axis_end);
  p.axis_size = static_cast<uint32_t>(layout.shape.check.extents[0]);
  p.updates_word_offset = run.updates.word;
  p.out_word_offset = target.output.word;
  p.indices_word_offset = run.indices.word;
  p.axis_dim = view.axis_dim;
  p.target_begin = static_cast<uint32_t>(target.begin);
  p.target_end = static_cast<uint32_t>(target.end);
  p.data_element_base = static_cast<uint32_t>(view.data_base);
  p.update_element_base = static_cast<uint32_t>(view.update_base);
  for (size_t d = 0; d < view.dims->size(); ++d) {
    p.extents[d] = static_cast<uint32_t>((*view.dims)[d].extent);
    p.data_strides[d] = static_cast<uint32_t>((*view.dims)[d].data_stride);
  }
  return p;
}

SpecValues scatterSpec(const ScatterShape& shape, uint32_t workgroup, uint32_t dims) {
  return {workgroup,
          shape.check.index_type == DataType::kInt64 ? 2u : 1u,
          static_cast<uint32_t>(shape.element_bytes),
          static_cast<uint32_t>(shape.reduction),
          shape.element_kind,
          dims};
}

// One walk kernel's variants (scatter_apply.glsl): the arithmetic compiled into each.
struct WalkKernels {
  Kernel move, plain, float32, float64, float32_add, float32_add_native, half_add, float64_add, order32, int32,
      integers;
};

constexpr WalkKernels kElementsWalk = {
    Kernel::kScatterElementsMove,    Kernel::kScatterElements,           Kernel::kScatterElementsFloat32,
    Kernel::kScatterElementsFloat64, Kernel::kScatterElementsFloat32Add, Kernel::kScatterElementsFloat32AddNative,
    Kernel::kScatterElementsHalfAdd, Kernel::kScatterElementsFloat64Add, Kernel::kScatterElementsOrder32,
    Kernel::kScatterElementsInt32,   Kernel::kScatterElementsIntegers};
constexpr WalkKernels kNDWalk = {
    Kernel::kScatterNDMove,    Kernel::kScatterND,           Kernel::kScatterNDFloat32,
    Kernel::kScatterNDFloat64, Kernel::kScatterNDFloat32Add, Kernel::kScatterNDFloat32AddNative,
    Kernel::kScatterNDHalfAdd, Kernel::kScatterNDFloat64Add, Kernel::kScatterNDOrder32,
    Kernel::kScatterNDInt32,   Kernel::kScatterNDIntegers};

// The walk kernel variant with the arithmetic this call needs and no more: none without a reduction;
// for integers, add and mul alone for 32-bit ones, max and min alone for 4-byte elements, and the
// integer arithmetic without float compares for the others; for floats, each width's add alone
// (float32 and complex64, float16 and bfloat16, float64 and complex128), max and min alone for
// float32, and the whole soft float of the width for mul. Complex numbers have no max or min. float32
// and complex64 add take the device's adder where exact, on devices that allow it (`native_add`:
// Tuning::native_float32_add).
Kernel walkKernel(const ScatterShape& shape, const WalkKernels& kernels, bool native_add) {
  if (shape.reduction == Reduction::kNone) return kernels.move;
  const bool ordered = shape.reduction == Reduction::kMax || shape.reduction == Reduction::kMin;
  const bool add = shape.reduction == Reduction::kAdd;
  const Kernel float32_add = native_add ? kernels.float32_add_native : kernels.float32_add;
  switch (shape.element_kind) {
    case kInt32:
    case kUInt32: return ordered ? kernels.order32 : kernels.int32;
    case kFloat32: return ordered ? kernels.order32 : add ? float32_add : kernels.float32;
    case kComplex64: return add ? float32_add : kernels.float32;
    case kFloat16:
    case kBFloat16: return ordered ? kernels.plain : add ? kernels.half_add : kernels.float32;
    case kFloat64: return ordered ? kernels.plain : add ? kernels.float64_add : kernels.float64;
    case kComplex128: return add ? kernels.float64_add : kernels.float64;
    default: return kernels.integers;  // 8-, 16- and 64-bit integers
  }
}

// Orders a pass after the check passes (the first pass, when nothing waited for them yet) and after
// every earlier write of its output window: the copy of data, and earlier passes, whose windows may
// share a word or a few alignment bytes with this one's.
void orderPass(Step& pass, const Window& output, bool& wait_for_checks, bool& output_written) {
  if (wait_for_checks) waitForChecks(pass);
  wait_for_checks = false;
  if (output_written) pass.wait_for.push_back({Role::kOutput, output});
  output_written = true;
}

// The walk in index order (every reduction, and ScatterElements): one invocation per line (per slice
// element for ScatterND) applies its updates in order, cut into passes of at most `max_walk` steps
// (DeviceInfo::max_walk_steps) that run one after another, one pass per output window for each.
void appendWalkPasses(OpPlan& plan, const PassLayout& layout, const DeviceInfo& device, const Tuning& tuning,
                      bool wait_for_checks, bool output_written) {
  const ScatterShape& shape = layout.shape;
  const uint64_t max_walk = device.max_walk_steps;
  const bool elements = shape.kind == ScatterKind::kElements;
  for (const SourceRun& run : layout.runs) {
    for (uint64_t begin = run.walk_begin; begin < run.walk_end; begin += max_walk) {
      const uint64_t end = std::min(run.walk_end, begin + max_walk);
      for (const TargetRange& target : layout.targets) {
        Step pass;
        // Bindings are built and moved in, here and below: GCC 12 at -O3 (the arm64 cross build) takes
        // an initializer-list assignment's copy for a memmove from null (-Werror=nonnull).
        pass.bindings = std::vector<Binding>{{Role::kUpdates, run.updates.window},
                                             indicesBinding(shape, run),
                                             {Role::kOutput, target.output.window},
                                             {Role::kStatus, {}}};
        pass.groups = groupsForItems(run.line_end - run.line_begin, layout.workgroup);
        if (elements) {
          pass.kernel = walkKernel(shape, kElementsWalk, tuning.native_float32_add);
          pass.spec = scatterSpec(shape, layout.workgroup, static_cast<uint32_t>(layout.view.dims->size()));
          setPush(pass, elementsParams(layout, run, target, begin, end));
        } else {
          pass.kernel = walkKernel(shape, kNDWalk, tuning.native_float32_add);
          pass.spec = scatterSpec(shape, layout.workgroup, static_cast<uint32_t>(shape.check.extents.size()));
          setPush(pass, ndParams(shape, run, target, begin, end));
        }
        orderPass(pass, target.output.window, wait_for_checks, output_written);
        plan.steps.push_back(pass);
      }
    }
  }
}

// ScatterElements beyond VKINDEX_MAX_ELEMENT_DIMS coalesced dims runs a block at a time
// (plan/element_blocks.hpp). A block's updates (and indices) are a contiguous range from
// update_element_base: where they are larger than one binding, more dims are peeled until each
// block's range fits one window (at most kMaxPeeledBlocks blocks).
StatusOr<ElementBlocks> peeledBlocks(const ScatterShape& shape, const Placement& updates, const Placement& indices,
                                     const Placement& output, const DeviceInfo& device) {
  const uint64_t update_bytes = std::max<uint64_t>(shape.element_bytes, tupleBytes(shape.check));
  const bool windowed = !fitsOneBinding(updates, device) || !fitsOneBinding(indices, device);
  for (size_t peel = 0;; ++peel) {
    StatusOr<ElementBlocks> blocks =
        elementBlocks(scatterName(shape.kind), shape.dims, shape.axis_dim, shape.check.extents[0],
                      shape.check.tuple_count, output.bytes / shape.element_bytes, peel);
    if (!blocks.ok() && peel > 0) break;  // more blocks than kMaxPeeledBlocks to fit the windows
    VKINDEX_RETURN_IF_ERROR(blocks.status());
    if (!windowed || blocks->elements * update_bytes <= windowCapacity(device)) return blocks;
  }
  return unsupported(scatterName(shape.kind) + ": the tensors coalesce to " + std::to_string(shape.dims.size()) +
                     " dims, more than " + std::to_string(VKINDEX_MAX_ELEMENT_DIMS) +
                     ", and run a block at a time; blocks whose updates each fit one storage-buffer binding of this "
                     "device (maxStorageBufferRange " +
                     std::to_string(device.max_storage_buffer_range) + ") would be more than " +
                     std::to_string(kMaxPeeledBlocks));
}

// The walk of `blocks` (appendWalkPasses), a block at a time: one run of the block's lines, bound to
// its updates and indices. A block's targets lie within its reach from its data base: one output
// window where that fits (any target, no per-update window test), else a target range per window.
// Every pass waits for the output writes of the one before: blocks that peel the axis hold one axis
// position each, and this order applies a line's updates in index order across them.
void appendPeeledWalkPasses(OpPlan& plan, const ScatterShape& shape, const ElementBlocks& blocks,
                            const Placement& updates, const Placement& indices, const Placement& output,
                            const DeviceInfo& device, const Tuning& tuning, bool wait_for_checks, bool output_written) {
  const uint64_t E = shape.element_bytes, index_bytes = tupleBytes(shape.check);
  const uint64_t axis_extent = blocks.kernel_dims[blocks.kernel_axis_dim].extent;
  const bool one_window = blocks.reach * E <= windowCapacity(device);
  const uint64_t targets_per_range = one_window ? blocks.reach : windowCapacity(device) / E;
  for (uint64_t block = 0; block < blocks.count; ++block) {
    const uint64_t first_update = block * blocks.elements, first_target = blockBase(blocks, block);
    PassLayout layout{shape,
                      {},
                      {},
                      tuning.workgroup_size,
                      {&blocks.kernel_dims, blocks.kernel_axis_dim, first_target, first_update}};
    const uint64_t update_end = first_update + blocks.elements;
    layout.runs.push_back({0, blocks.elements / axis_extent, 0, axis_extent,
                           bindBytes(updates, first_update * E, update_end * E, device),
                           bindBytes(indices, first_update * index_bytes, update_end * index_bytes, device)});
    for (uint64_t t0 = first_target; t0 < first_target + blocks.reach; t0 += targets_per_range) {
      const uint64_t t1 = std::min(first_target + blocks.reach, t0 + targets_per_range);
      const Bound window = bindBytes(output, t0 * E, t1 * E, device);
      layout.targets.push_back(one_window ? TargetRange{0, kMax32, window} : TargetRange{t0, t1, window});
    }
    appendWalkPasses(plan, layout, device, tuning, wait_for_checks, output_written);
    wait_for_checks = false;
    output_written = true;
  }
}

// The updates of `run` that one winner pass covers: its lines times its axis positions
// (ScatterElements), or its tuples (ScatterND).
uint64_t runUpdates(const ScatterShape& shape, const SourceRun& run) {
  if (shape.kind == ScatterKind::kElements) return (run.line_end - run.line_begin) * (run.walk_end - run.walk_begin);
  return run.walk_end - run.walk_begin;
}

// The update elements of `run`: its updates, times the slice's elements for ScatterND, whose element
// passes (scatter_nd_locate.comp, scatter_nd_write.comp) take one element per item. Sized by tuples,
// a locate pass of 4096 slices of 1024 floats ran in 4 workgroups, leaving a GPU idle
// (docs/scatter-strategies.md).
uint64_t runUpdateElements(const ScatterShape& shape, const SourceRun& run) {
  return shape.kind == ScatterKind::kElements ? runUpdates(shape, run) : runUpdates(shape, run) * shape.slice_elements;
}

// Workgroups for a pass of one update per item, row_items of them per invocation (CPU drivers: 256,
// GPUs: items_per_invocation): lavapipe ran the table fastest with 256 (docs/tuning.md).
uint64_t perUpdateGroups(uint64_t updates, uint32_t workgroup, const Tuning& tuning) {
  return groupsForItems(updates, workgroup, tuning.row_items);
}

// A winner pass's specialization and push block: the whole of `run`, writing into `target`.
void setWinnerPass(Step& pass, const PassLayout& layout, const SourceRun& run, const TargetRange& target) {
  const ScatterShape& shape = layout.shape;
  if (shape.kind == ScatterKind::kElements) {
    pass.spec = scatterSpec(shape, layout.workgroup, static_cast<uint32_t>(shape.dims.size()));
    setPush(pass, elementsParams(layout, run, target, run.walk_begin, run.walk_end));
  } else {
    pass.spec = scatterSpec(shape, layout.workgroup, static_cast<uint32_t>(shape.check.extents.size()));
    setPush(pass, ndParams(shape, run, target, run.walk_begin, run.walk_end));
  }
}

// Sets the target range's end in a pass's push block (either scatter operator's) to `count` targets past
// its begin.
template <typename Params>
void setTargetEnd(Step& pass, uint64_t count) {
  Params params = pushOf<Params>(pass);
  params.target_end = static_cast<uint32_t>(params.target_begin + count);
  setPush(pass, params);
}

// The bindings of a winner table's write passes: `run`'s updates and indices, `target`'s output window,
// the table.
std::vector<Binding> winnerWriteBindings(const ScatterShape& shape, const SourceRun& run, const TargetRange& target,
                                         const Window& table) {
  return {{Role::kUpdates, run.updates.window},
          indicesBinding(shape, run),
          {Role::kOutput, target.output.window},
          {Role::kScratch, table},
          {Role::kStatus, {}}};
}

// The write pass of a table zeroed whole, where one pass holds every update and target: one
// invocation per data element (scatter_elements_write.comp's and scatter_nd_write.comp's by-target
// modules), over the `entries` targets of the table (ScatterND: their slices' elements), which the
// push block's target range becomes.
Step winnerWriteByTarget(const PassLayout& layout, const SourceRun& run, const TargetRange& target, const Window& table,
                         uint64_t entries, const Tuning& tuning) {
  const ScatterShape& shape = layout.shape;
  Step write;
  setWinnerPass(write, layout, run, target);
  write.bindings = winnerWriteBindings(shape, run, target, table);
  const bool elements = shape.kind == ScatterKind::kElements;
  const uint64_t targets = elements ? entries : entries * shape.slice_elements;
  if (elements) {
    setTargetEnd<abi::ScatterElementsParams>(write, targets);
    write.kernel = Kernel::kScatterElementsWriteByTarget;
  } else {
    setTargetEnd<abi::ScatterNDParams>(write, targets);
    write.kernel = Kernel::kScatterNDWriteByTarget;
  }
  write.groups = perUpdateGroups(targets, layout.workgroup, tuning);
  return write;
}

// A write pass of the winner table: the winning updates of `run` whose targets lie in `target`.
// ScatterElements: one invocation per update (scatter_elements_write.comp). ScatterND: slices of
// whole words move in the widest unit dividing the slice and both offsets, in row segments
// (scatter_nd_rows.comp, laid out as the row gathers: up to the device's row_lanes invocations per
// segment of row_items units); other slices one element per invocation (scatter_nd_write.comp).
Step winnerWrite(const PassLayout& layout, const SourceRun& run, const TargetRange& target, const Window& table,
                 const Placement& updates, const Placement& output, const Tuning& tuning) {
  const ScatterShape& shape = layout.shape;
  Step write;
  setWinnerPass(write, layout, run, target);
  write.bindings = winnerWriteBindings(shape, run, target, table);
  if (shape.kind == ScatterKind::kElements) {
    write.kernel = Kernel::kScatterElementsWrite;
    write.groups = perUpdateGroups(runUpdates(shape, run), layout.workgroup, tuning);
    return write;
  }
  const uint64_t slice_bytes = shape.slice_elements * shape.element_bytes;
  const uint64_t tuples = run.walk_end - run.walk_begin;
  // Windows start at multiples of 16 bytes, so a tensor's offset in any window is as aligned as its offset.
  const uint32_t unit = largestUnit(slice_bytes | updates.offset | output.offset);
  if (unit < 4) {
    write.kernel = Kernel::kScatterNDWrite;
    write.groups = groupsForItems(tuples * shape.slice_elements, layout.workgroup);
    return write;
  }
  write.kernel = scatterNDRowsKernel(unit, tuning.int64_units);
  const uint64_t slice_units = slice_bytes / unit;
  const SegmentLayout segments = segmentLayout(tuning, layout.workgroup, slice_units);
  write.spec[kSpecItems] = segments.items;
  write.spec[kSpecRowLanes] = segments.lanes;
  write.groups = segments.groupsFor(tuples * segments.segmentsOf(slice_units), layout.workgroup);
  return write;
}

// Reduction none through a winner table of one word per target (a ScatterND data row, a
// ScatterElements data element): zero it, let every update claim its target (the highest position
// wins, whatever the order), then write every winning update at once. A table with more words than
// there are updates is zeroed only where the updates will claim it, by passes like the claims.
void appendWinnerPasses(OpPlan& plan, const PassLayout& layout, uint64_t entries, const Placement& updates,
                        const Placement& output, bool wait_for_checks, bool output_written, const Tuning& tuning) {
  const ScatterShape& shape = layout.shape;
  const bool elements = shape.kind == ScatterKind::kElements;
  const Window table{0, entries * 4};
  plan.scratch_bytes = table.size;

  uint64_t claims = 0;
  for (const SourceRun& run : layout.runs) claims += runUpdates(shape, run);
  // Scratch is new to this recording (ops/op_runner.cpp): the table's first pass waits for nothing.
  bool table_written = false;
  // Passes over each run of updates in turn, each after the last (the table's words are still written
  // in order); with claim_by_store, the store pass then the fixup pass of each run. These passes write
  // only the table: the target range in their push blocks goes unread.
  const auto appendClaimPasses = [&](std::initializer_list<Kernel> kernels) {
    for (const SourceRun& run : layout.runs) {
      for (const Kernel kernel : kernels) {
        Step claim;
        claim.kernel = kernel;
        setWinnerPass(claim, layout, run, layout.targets.front());
        claim.bindings = std::vector<Binding>{indicesBinding(shape, run), {Role::kScratch, table}, {Role::kStatus, {}}};
        claim.groups = perUpdateGroups(runUpdates(shape, run), layout.workgroup, tuning);
        if (wait_for_checks) waitForChecks(claim);
        wait_for_checks = false;
        if (table_written) claim.wait_for.push_back({Role::kScratch, table});
        table_written = true;
        plan.steps.push_back(claim);
      }
    }
  };
  const bool whole_table = claims >= entries;
  if (!whole_table) {
    appendClaimPasses({elements ? Kernel::kScatterElementsClearClaims : Kernel::kScatterNDClearClaims});
  } else {
    Step clear;
    clear.kernel = Kernel::kClearWords;
    clear.spec = {layout.workgroup, 0, 0, 0, 0, 0};
    clear.bindings = std::vector<Binding>{{Role::kScratch, table}};
    abi::ClearWordsParams clear_params{};
    clear_params.word_count = static_cast<uint32_t>(entries);
    setPush(clear, clear_params);
    clear.groups = groupsForItems(entries, layout.workgroup);
    plan.steps.push_back(clear);
    table_written = true;
  }
  if (!tuning.claim_by_store) {
    appendClaimPasses({elements ? Kernel::kScatterElementsClaim : Kernel::kScatterNDClaim});
  } else if (elements) {
    appendClaimPasses({Kernel::kScatterElementsClaimStore, Kernel::kScatterElementsClaimFixup});
  } else {
    appendClaimPasses({Kernel::kScatterNDClaimStore, Kernel::kScatterNDClaimFixup});
  }

  // With the table zeroed whole and one pass, the write reads it in order instead of per update; for
  // ScatterND only where slices are at most one 16-byte unit, which the rows kernel would move one
  // short segment per tuple (the bench's scatternd-1d-perm).
  const bool narrow = elements || shape.slice_elements * shape.element_bytes <= 16;
  const bool by_target = narrow && whole_table && layout.runs.size() == 1 && layout.targets.size() == 1;
  for (const SourceRun& run : layout.runs) {
    for (const TargetRange& target : layout.targets) {
      Step write = by_target ? winnerWriteByTarget(layout, run, target, table, entries, tuning)
                             : winnerWrite(layout, run, target, table, updates, output, tuning);
      write.wait_for.push_back({Role::kScratch, table});
      orderPass(write, target.output.window, wait_for_checks, output_written);
      plan.steps.push_back(write);
    }
  }
}

constexpr WalkKernels kFold = {
    Kernel::kScatterFold,        Kernel::kScatterFold,           Kernel::kScatterFoldFloat32,
    Kernel::kScatterFoldFloat64, Kernel::kScatterFoldFloat32Add, Kernel::kScatterFoldFloat32AddNative,
    Kernel::kScatterFoldHalfAdd, Kernel::kScatterFoldFloat64Add, Kernel::kScatterFoldOrder32,
    Kernel::kScatterFoldInt32,   Kernel::kScatterFoldIntegers};

// Whether the reduction's walk runs soft-float arithmetic beyond float32 add (DeviceInfo::
// min_soft_float_walk_lines): the modules that carry f32Mul, float64, the widening and narrowing of
// half floats, or their compares.
bool softFloatWalk(const ScatterShape& shape) {
  const Kernel kernel = walkKernel(shape, kElementsWalk, false);
  return kernel == kElementsWalk.plain || kernel == kElementsWalk.float32 || kernel == kElementsWalk.float64 ||
         kernel == kElementsWalk.half_add || kernel == kElementsWalk.float64_add;
}

// The invocations a walk keeps busy: ScatterElements' lines, ScatterND's slice elements.
uint64_t walkersOf(const ScatterShape& shape) {
  return shape.kind == ScatterKind::kElements ? shape.lines : shape.slice_elements;
}

// Whether a reduction's walk would keep fewer than `min_walkers` invocations busy where its updates
// can collide: then atomics or the fold by owner serve it. One update, or one tuple, cannot collide:
// its walk is a single short dispatch.
bool fewWalkers(const ScatterShape& shape, uint64_t min_walkers) {
  return shape.reduction != Reduction::kNone && shape.check.tuple_count > 1 && walkersOf(shape) < min_walkers;
}

// Integer reductions that give the same bits in any order and one 32-bit atomic per word applies
// (DESIGN.md: order-independent folds may use atomics): int32 and uint32 add, max and min, and int64
// and uint64 add. Below Tuning::min_walk_lines walkers (min_atomic_walk_lines where larger) they
// go through atomics instead of the fold by owner, which sorts what needs no order.
bool atomicReduction(const ScatterShape& shape) {
  switch (shape.element_kind) {
    case kInt32:
    case kUInt32: return shape.reduction != Reduction::kNone && shape.reduction != Reduction::kMul;
    case kInt64:
    case kUInt64: return shape.reduction == Reduction::kAdd;
    default: return false;
  }
}

// Every update applied at once with atomics (scatter_elements_write.comp and scatter_nd_write.comp's
// *_atomic modules), one pass per run of updates and window of the output.
void appendAtomicPasses(OpPlan& plan, const PassLayout& layout, bool wait_for_checks, bool output_written,
                        const Tuning& tuning) {
  const ScatterShape& shape = layout.shape;
  for (const SourceRun& run : layout.runs) {
    for (const TargetRange& target : layout.targets) {
      Step pass;
      pass.kernel = shape.kind == ScatterKind::kElements ? Kernel::kScatterElementsAtomic : Kernel::kScatterNDAtomic;
      setWinnerPass(pass, layout, run, target);
      pass.bindings = std::vector<Binding>{{Role::kUpdates, run.updates.window},
                                           indicesBinding(shape, run),
                                           {Role::kOutput, target.output.window},
                                           {Role::kStatus, {}}};
      pass.groups = perUpdateGroups(runUpdateElements(shape, run), layout.workgroup, tuning);
      orderPass(pass, target.output.window, wait_for_checks, output_written);
      plan.steps.push_back(pass);
    }
  }
}

// Whether a float32 or complex64 add by the soft-float adder has a single walker with at least
// Tuning::min_float32_add_fold_duplicates updates per element of its line.
bool duplicateRichSoftAdd(const ScatterShape& shape, const Placement& updates, const Placement& output,
                          const Tuning& tuning) {
  if (tuning.min_float32_add_fold_duplicates == 0 || tuning.native_float32_add) return false;
  if (walkersOf(shape) != 1 || walkKernel(shape, kElementsWalk, false) != kElementsWalk.float32_add) return false;
  // One walker: the line is the whole output.
  return updates.bytes / shape.element_bytes / tuning.min_float32_add_fold_duplicates >=
         output.bytes / shape.element_bytes;
}

// The fold by owner's scratch layout where it serves this call, else nothing (walk instead). It
// serves a reduction whose walk would keep fewer invocations busy than Tuning::min_walk_lines
// (lines for ScatterElements, slice elements for ScatterND; min_soft_float_walk_lines where that is
// larger and the arithmetic is soft float), or a duplicate-rich soft-float add on one walker
// (duplicateRichSoftAdd), where each tensor fits one binding.
std::optional<FoldLayout> foldByOwnerLayout(const ScatterShape& shape, const PassLayout& layout,
                                            const Placement& updates, const Placement& output, const DeviceInfo& device,
                                            const Tuning& tuning) {
  const uint64_t min_walkers =
      softFloatWalk(shape) ? std::max(tuning.min_walk_lines, tuning.min_soft_float_walk_lines) : tuning.min_walk_lines;
  if (!fewWalkers(shape, min_walkers) && !duplicateRichSoftAdd(shape, updates, output, tuning)) return std::nullopt;
  // Where each walker owns one target (a one-element vector), the fold would fold the same chains
  // after a sort, and lose to the walk by the sort's time (docs/reductions.md).
  if (output.bytes / shape.element_bytes <= walkersOf(shape)) return std::nullopt;
  if (layout.runs.size() != 1 || layout.targets.size() != 1) return std::nullopt;
  const bool ordered = shape.reduction == Reduction::kMax || shape.reduction == Reduction::kMin;
  return foldLayout(output.bytes / shape.element_bytes, updates.bytes / shape.element_bytes, device, tuning, ordered);
}

// A reduction by the fold by owner: this operator's locate pass (each update records the data element
// it addresses), then the passes common to both operators (src/plan/scatter_fold_plan).
void appendFoldByOwner(OpPlan& plan, const PassLayout& layout, const FoldLayout& fold, bool wait_for_checks,
                       bool output_written, const Tuning& tuning) {
  const ScatterShape& shape = layout.shape;
  const SourceRun& run = layout.runs.front();
  const TargetRange& target = layout.targets.front();
  Step locate;
  locate.kernel = shape.kind == ScatterKind::kElements ? Kernel::kScatterElementsLocate : Kernel::kScatterNDLocate;
  setWinnerPass(locate, layout, run, target);
  locate.bindings = std::vector<Binding>{
      indicesBinding(shape, run), {Role::kScratch, fold.targets}, {Role::kScratch, fold.counts}, {Role::kStatus, {}}};
  locate.groups = perUpdateGroups(runUpdateElements(shape, run), layout.workgroup, tuning);
  const FoldTensors tensors{run.updates.window, target.output.window, run.updates.word, target.output.word};
  appendFoldPasses(plan, fold, std::move(locate), walkKernel(shape, kFold, tuning.native_float32_add),
                   scatterSpec(shape, layout.workgroup, 0), tensors, wait_for_checks, output_written, tuning);
}

// Copies below this stay one word-per-invocation pass: the bulk pass would add a dispatch for little.
constexpr uint64_t kMinBulkCopyBytes = uint64_t(64) << 10;

// The gated copy of data into an out-of-place output, a window of each at a time: where both start
// 16-byte aligned and the copy is large, its whole 16-byte units in row segments (copy_words_16, the
// row gathers' layout for this device), then any tail word by word (copy_words, which also keeps a
// last partial word's other bytes).
void appendDataCopy(OpPlan& plan, const Placement& data, const Placement& output, const DeviceInfo& device,
                    const Tuning& tuning, bool wait_for_checks) {
  const uint32_t workgroup = tuning.workgroup_size;
  const bool aligned = data.offset % 16 == 0 && output.offset % 16 == 0;
  // Chunks of whole 16-byte units keep each chunk's offsets as aligned as the tensors'.
  const bool whole = fitsOneBinding(data, device) && fitsOneBinding(output, device);
  const uint64_t chunk = whole ? output.bytes : alignDown(windowCapacity(device), 16);
  for (uint64_t from = 0; from < output.bytes; from += chunk) {
    const uint64_t bytes = std::min(chunk, output.bytes - from);
    uint64_t data_lead = 0, output_lead = 0;
    const Window data_window = windowFor(data.offset + from, data.offset + from + bytes, device, &data_lead);
    const Window output_window = windowFor(output.offset + from, output.offset + from + bytes, device, &output_lead);
    const auto addCopy = [&](Kernel kernel, uint64_t skip, uint64_t count, SpecValues spec, uint64_t groups) {
      abi::CopyWordsParams p{};
      p.byte_count = static_cast<uint32_t>(count);
      p.source_word_offset = static_cast<uint32_t>((data_lead + skip) / 4);
      p.target_word_offset = static_cast<uint32_t>((output_lead + skip) / 4);
      Step copy;
      copy.kernel = kernel;
      copy.spec = spec;
      copy.bindings =
          std::vector<Binding>{{Role::kData, data_window}, {Role::kOutput, output_window}, {Role::kStatus, {}}};
      setPush(copy, p);
      copy.groups = groups;
      if (wait_for_checks) waitForChecks(copy);
      // Neighbouring chunks' windows may share alignment bytes.
      if (from > 0) copy.wait_for.push_back({Role::kOutput, output_window});
      plan.steps.push_back(copy);
    };
    uint64_t bulk = 0;
    if (bytes >= kMinBulkCopyBytes && aligned) {
      bulk = bytes / 16 * 16;
      const uint64_t units = bulk / 16;
      const SegmentLayout layout = segmentLayout(tuning, workgroup, units);
      addCopy(bulkCopyKernel(tuning.int64_units), 0, bulk, {workgroup, 0, 0, layout.items, layout.lanes, 0},
              layout.groupsFor(layout.segmentsOf(units), workgroup));
    }
    if (bulk < bytes) {
      const uint64_t words = alignUp(bytes - bulk, 4) / 4;
      addCopy(Kernel::kCopyWords, bulk, bytes - bulk, {workgroup, 0, 0, 0, 0, 0}, groupsForItems(words, workgroup));
    }
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

std::string scatterName(ScatterKind kind) { return kind == ScatterKind::kElements ? "ScatterElements" : "ScatterND"; }

StatusOr<ScatterShape> inferScatterElementsShape(const Shape& data_shape, DataType data_type,
                                                 const Shape& indices_shape, DataType index_type,
                                                 const Shape& updates_shape, DataType updates_type, int64_t axis,
                                                 Reduction reduction) {
  const ScatterKind kind = ScatterKind::kElements;
  const std::string op = scatterName(kind);
  VKINDEX_RETURN_IF_ERROR(checkElementRanksAndAxis(op, data_shape, indices_shape, index_type, axis));
  VKINDEX_RETURN_IF_ERROR(checkUpdatesType(op, data_type, updates_type));
  if (updates_shape != indices_shape) {
    return invalidArgument(op + ": input 'updates' has shape " + shapeString(updates_shape) +
                           " but input 'indices' has shape " + shapeString(indices_shape) + "; they must be equal");
  }
  VKINDEX_RETURN_IF_ERROR(checkElementExtents(op, data_shape, indices_shape, axis));
  ScatterShape shape;
  shape.kind = kind;
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
  const ScatterKind kind = ScatterKind::kND;
  const std::string op = scatterName(kind);
  if (index_type != DataType::kInt32 && index_type != DataType::kInt64) {
    return invalidArgument(op + ": input 'indices' has type " + dataTypeName(index_type) +
                           "; allowed types are int32 and int64");
  }
  const int64_t r = static_cast<int64_t>(data_shape.size());
  if (r == 0) return invalidArgument(op + ": input 'data' must have rank >= 1, got a scalar (rank 0)");
  if (indices_shape.empty())
    return invalidArgument(op + ": input 'indices' must have rank >= 1, got a scalar (rank 0)");
  // k = 0 is valid (ONNX bounds k by r only; GatherND's k >= 1 is GatherND's own rule): every tuple is
  // empty and addresses the whole of data, so updates holds one data-shaped slice per tuple.
  const int64_t k = indices_shape.back();
  if (k < 0 || k > r) {
    return invalidArgument(op + ": the last dim of input 'indices' is " + str(k) +
                           ", the length of each index tuple, which must lie in [0, " + str(r) + "] (data's rank " +
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
  shape.kind = kind;
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
                             const Placement& updates, const Placement& output, bool in_place, const DeviceInfo& device,
                             const Tuning& tuning) {
  OpPlan plan;
  plan.report = shape.report;
  // Tuples of no components (ScatterND, k = 0) hold no index to check.
  bool checked = false;
  if (!shape.check.extents.empty()) {
    VKINDEX_ASSIGN_OR_RETURN(checked,
                             appendIndexChecks(plan, shape.check, indices, device, tuning, scatterName(shape.kind)));
  }
  const bool elements = shape.kind == ScatterKind::kElements;
  // The kernels number elements and update positions in 32 bits.
  const uint64_t updates_elements = updates.bytes / shape.element_bytes;
  if (output.bytes / shape.element_bytes > kMax32 || updates_elements > kMax32 || shape.check.tuple_count >= kMax32) {
    return unsupported(scatterName(shape.kind) + ": tensors of 2^32 or more elements are not supported");
  }
  const bool windowed = !fitsOneBinding(data, device) || !fitsOneBinding(output, device) ||
                        !fitsOneBinding(updates, device) || !fitsOneBinding(indices, device);
  if (windowed && windowCapacity(device) < 16) {
    return unsupported(scatterName(shape.kind) +
                       ": tensors larger than one binding are bound a window at a time, and bindings of " +
                       std::to_string(device.max_storage_buffer_range) + " bytes at an offset alignment of " +
                       std::to_string(bindingAlignment(device)) + " leave no room for one");
  }
  const uint64_t work = elements ? shape.lines : shape.slice_elements;
  const bool scatters = shape.check.tuple_count > 0 && work > 0 && output.bytes > 0;
  // Blocks beyond the kernels' dims, before any pass is planned: a refusal costs nothing.
  std::optional<ElementBlocks> peeled;
  if (scatters && elements && shape.dims.size() > VKINDEX_MAX_ELEMENT_DIMS) {
    VKINDEX_ASSIGN_OR_RETURN(peeled, peeledBlocks(shape, updates, indices, output, device));
  }
  bool wait_for_checks = checked, output_written = false;
  if (!in_place && output.bytes > 0) {
    appendDataCopy(plan, data, output, device, tuning, wait_for_checks);
    wait_for_checks = false;
    output_written = true;
  }
  if (!scatters) return plan;
  if (peeled) {
    appendPeeledWalkPasses(plan, shape, *peeled, updates, indices, output, device, tuning, wait_for_checks,
                           output_written);
    return plan;
  }
  PassLayout layout{shape, {}, {}, tuning.workgroup_size, {&shape.dims, shape.axis_dim}};
  VKINDEX_ASSIGN_OR_RETURN(layout.targets, targetRanges(shape, output, device));
  VKINDEX_ASSIGN_OR_RETURN(
      layout.runs, elements ? lineRuns(shape, updates, indices, device) : tupleRuns(shape, updates, indices, device));
  const uint64_t entries = winnerTableEntries(shape, device, tuning);
  if (entries > 0) {
    appendWinnerPasses(plan, layout, entries, updates, output, wait_for_checks, output_written, tuning);
  } else if (atomicReduction(shape) &&
             fewWalkers(shape, std::max(tuning.min_walk_lines, tuning.min_atomic_walk_lines))) {
    appendAtomicPasses(plan, layout, wait_for_checks, output_written, tuning);
  } else if (std::optional<FoldLayout> fold = foldByOwnerLayout(shape, layout, updates, output, device, tuning)) {
    appendFoldByOwner(plan, layout, *fold, wait_for_checks, output_written, tuning);
  } else {
    appendWalkPasses(plan, layout, device, tuning, wait_for_checks, output_written);
    // A few tuples in place (a KV-cache row update) in one dispatch.
    if (plan.steps.size() == 3 && plan.steps[2].kernel == Kernel::kScatterNDMove) {
      fuseSmallChecks(plan, shape.check, Kernel::kScatterNDMoveChecked);
    }
  }
  return plan;
}

}  // namespace vkindex::plan
