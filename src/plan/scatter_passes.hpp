// The scatter planner's internals: what the pass builders of every strategy share (where passes read
// and write, the push blocks and specialization, the walk kernels per arithmetic) and the builders
// themselves, one file each (scatter_walk_passes.cpp, scatter_winner_passes.cpp,
// scatter_atomic_passes.cpp, scatter_fold_passes.cpp). planScatter (scatter_plan.cpp) picks one
// through chooseScatterStrategy (scatter_strategy.hpp). Not for use outside src/plan.
#pragma once

#include <cstdint>
#include <vector>

#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"
#include "plan/element_blocks.hpp"
#include "plan/scatter_fold_plan.hpp"
#include "plan/scatter_plan.hpp"
#include "plan/scatter_windows.hpp"

namespace vkindex::plan {

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

// ScatterND's push block for tuples [first_tuple, end_tuple) of `run`, writing into `target`.
abi::ScatterNDParams ndParams(const ScatterShape& shape, const SourceRun& run, const TargetRange& target,
                              uint64_t first_tuple, uint64_t end_tuple);

// ScatterElements' push block for axis positions [axis_begin, axis_end) of `run`'s lines, as the
// layout's view sees them, writing into `target`.
abi::ScatterElementsParams elementsParams(const PassLayout& layout, const SourceRun& run, const TargetRange& target,
                                          uint64_t axis_begin, uint64_t axis_end);

// A scatter kernel's specialization: workgroup, index words, element size, reduction, element kind
// and `dims` (the kernel's dim count or tuple length).
SpecValues scatterSpec(const ScatterShape& shape, uint32_t workgroup, uint32_t dims);

// One walk kernel's variants (scatter_apply.glsl): the arithmetic compiled into each.
struct WalkKernels {
  Kernel move, plain, float32, float64, float32_add, float32_add_native, half_add, float64_add, order32, int32,
      integers;
};

inline constexpr WalkKernels kElementsWalk = {
    Kernel::kScatterElementsMove,    Kernel::kScatterElements,           Kernel::kScatterElementsFloat32,
    Kernel::kScatterElementsFloat64, Kernel::kScatterElementsFloat32Add, Kernel::kScatterElementsFloat32AddNative,
    Kernel::kScatterElementsHalfAdd, Kernel::kScatterElementsFloat64Add, Kernel::kScatterElementsOrder32,
    Kernel::kScatterElementsInt32,   Kernel::kScatterElementsIntegers};
inline constexpr WalkKernels kNDWalk = {
    Kernel::kScatterNDMove,    Kernel::kScatterND,           Kernel::kScatterNDFloat32,
    Kernel::kScatterNDFloat64, Kernel::kScatterNDFloat32Add, Kernel::kScatterNDFloat32AddNative,
    Kernel::kScatterNDHalfAdd, Kernel::kScatterNDFloat64Add, Kernel::kScatterNDOrder32,
    Kernel::kScatterNDInt32,   Kernel::kScatterNDIntegers};
inline constexpr WalkKernels kFold = {
    Kernel::kScatterFold,        Kernel::kScatterFold,           Kernel::kScatterFoldFloat32,
    Kernel::kScatterFoldFloat64, Kernel::kScatterFoldFloat32Add, Kernel::kScatterFoldFloat32AddNative,
    Kernel::kScatterFoldHalfAdd, Kernel::kScatterFoldFloat64Add, Kernel::kScatterFoldOrder32,
    Kernel::kScatterFoldInt32,   Kernel::kScatterFoldIntegers};

// The walk kernel variant with the arithmetic this call needs and no more: none without a reduction;
// for integers, add and mul alone for 32-bit ones, max and min alone for 4-byte elements, and the
// integer arithmetic without float compares for the others; for floats, each width's add alone
// (float32 and complex64, float16 and bfloat16, float64 and complex128), max and min alone for
// float32, and the whole soft float of the width for mul. Complex numbers have no max or min. float32
// and complex64 add take the device's adder where exact, on devices that allow it (`native_add`:
// Tuning::native_float32_add).
Kernel walkKernel(const ScatterShape& shape, const WalkKernels& kernels, bool native_add);

// A pass's binding of the index tuples of `run`. Tuples of no components (ScatterND with k = 0) read
// no index, and their indices may hold no byte to bind: the kernels' read-only indices slot gets the
// run's updates instead, and never reads them.
Binding indicesBinding(const ScatterShape& shape, const SourceRun& run);

// Orders a pass after the check passes (the first pass, when nothing waited for them yet) and after
// every earlier write of its output window: the copy of data, and earlier passes, whose windows may
// share a word or a few alignment bytes with this one's.
void orderPass(Step& pass, const Window& output, bool& wait_for_checks, bool& output_written);

// The updates of `run` that one pass of the winner table, atomics or the fold covers: its lines times
// its axis positions (ScatterElements), or its tuples (ScatterND).
uint64_t runUpdates(const ScatterShape& shape, const SourceRun& run);

// The update elements of `run`: its updates, times the slice's elements for ScatterND, whose element
// passes (scatter_nd_locate.comp, scatter_nd_write.comp) take one element per item. Sized by tuples,
// a locate pass of 4096 slices of 1024 floats ran in 4 workgroups, leaving a GPU idle
// (docs/scatter-strategies.md).
uint64_t runUpdateElements(const ScatterShape& shape, const SourceRun& run);

// Workgroups for a pass of one update per item, row_items of them per invocation (CPU drivers: 256,
// GPUs: items_per_invocation): lavapipe ran the table fastest with 256 (docs/tuning.md).
uint64_t perUpdateGroups(uint64_t updates, uint32_t workgroup, const Tuning& tuning);

// The specialization and push block of a pass over the whole of `run` (winner table, atomics, the
// fold's locate pass), writing into `target`.
void setWinnerPass(Step& pass, const PassLayout& layout, const SourceRun& run, const TargetRange& target);

// The walk in index order (every reduction, and ScatterElements): one invocation per line (per slice
// element for ScatterND) applies its updates in order, cut into passes of at most `max_walk` steps
// (DeviceInfo::max_walk_steps) that run one after another, one pass per output window for each.
// `wait_for_checks`: the first pass waits for the index checks; `output_written`: the output has an
// earlier write (the copy of data) to wait for. The same two flags in every builder below.
void appendWalkPasses(OpPlan& plan, const PassLayout& layout, const DeviceInfo& device, const Tuning& tuning,
                      bool wait_for_checks, bool output_written);

// ScatterElements beyond VKINDEX_MAX_ELEMENT_DIMS coalesced dims runs a block at a time
// (plan/element_blocks.hpp). A block's updates (and indices) are a contiguous range from
// update_element_base: where they are larger than one binding, more dims are peeled until each
// block's range fits one window (at most kMaxPeeledBlocks blocks).
StatusOr<ElementBlocks> peeledBlocks(const ScatterShape& shape, const Placement& updates, const Placement& indices,
                                     const Placement& output, const DeviceInfo& device);

// The walk of `blocks` (appendWalkPasses), a block at a time: one run of the block's lines, bound to
// its updates and indices. A block's targets lie within its reach from its data base: one output
// window where that fits (any target, no per-update window test), else a target range per window.
// Every pass waits for the output writes of the one before: blocks that peel the axis hold one axis
// position each, and this order applies a line's updates in index order across them.
void appendPeeledWalkPasses(OpPlan& plan, const ScatterShape& shape, const ElementBlocks& blocks,
                            const Placement& updates, const Placement& indices, const Placement& output,
                            const DeviceInfo& device, const Tuning& tuning, bool wait_for_checks, bool output_written);

// Reduction none through a winner table of one word per target (a ScatterND data row, a
// ScatterElements data element): zero it, let every update claim its target (the highest position
// wins, whatever the order), then write every winning update at once. A table with more words than
// there are updates is zeroed only where the updates will claim it, by passes like the claims.
void appendWinnerPasses(OpPlan& plan, const PassLayout& layout, uint64_t entries, const Placement& updates,
                        const Placement& output, bool wait_for_checks, bool output_written, const Tuning& tuning);

// Every update applied at once with atomics (scatter_elements_write.comp and scatter_nd_write.comp's
// *_atomic modules), one pass per run of updates and window of the output.
void appendAtomicPasses(OpPlan& plan, const PassLayout& layout, bool wait_for_checks, bool output_written,
                        const Tuning& tuning);

// A reduction by the fold by owner: this operator's locate pass (each update records the data element
// it addresses), then the passes common to both operators (src/plan/scatter_fold_plan). The layout
// has one run and one target range.
void appendFoldByOwner(OpPlan& plan, const PassLayout& layout, const FoldLayout& fold, bool wait_for_checks,
                       bool output_written, const Tuning& tuning);

}  // namespace vkindex::plan
