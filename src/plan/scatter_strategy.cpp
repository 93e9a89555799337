#include "plan/scatter_strategy.hpp"

#include <algorithm>

#include "common/abi.h"
#include "common/spec_ids.h"
#include "plan/scatter_passes.hpp"

namespace vkindex::plan {
namespace {

// The largest winner table (one word per data row) ScatterND's last-wins passes use; beyond it (rows
// of a few elements in a huge tensor) the walk in index order needs no scratch memory.
constexpr uint64_t kMaxWinnerTableBytes = uint64_t(64) << 20;

// Whether the reduction's walk runs soft-float arithmetic beyond float32 add (DeviceInfo::
// min_soft_float_walk_lines): the modules that carry f32Mul, float64, the widening and narrowing of
// half floats, or their compares.
bool softFloatWalk(const ScatterShape& shape) {
  const Kernel kernel = walkKernel(shape, kElementsWalk, false);
  return kernel == kElementsWalk.plain || kernel == kElementsWalk.float32 || kernel == kElementsWalk.float64 ||
         kernel == kElementsWalk.half_add || kernel == kElementsWalk.float64_add;
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
    case VKINDEX_KIND_INT32:
    case VKINDEX_KIND_UINT32: return shape.reduction != Reduction::kNone && shape.reduction != Reduction::kMul;
    case VKINDEX_KIND_INT64:
    case VKINDEX_KIND_UINT64: return shape.reduction == Reduction::kAdd;
    default: return false;
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

// Reduction none: the winner table of one word per ScatterND data row or ScatterElements data
// element where it serves the call, else the walk. ScatterND: the walk runs one invocation per slice
// element, each reading every tuple; the table reads each tuple once per row segment and moves whole
// units, so it wins whatever the slice width (docs/scatter-strategies.md).
ScatterStrategyChoice lastWinsStrategy(const ScatterShape& shape, const DeviceInfo& device, const Tuning& tuning) {
  // One update (a KV-cache row update) cannot collide with another: the walk is one dispatch, where the
  // table would add a clear and a claim pass and a scratch buffer.
  if (shape.check.tuple_count <= 1) return {ScatterStrategy::kWalk, "one update"};
  const bool elements = shape.kind == ScatterKind::kElements;
  // ScatterElements walks lines in order where there are enough of them (Tuning::min_walk_lines),
  // but for a single line of many updates (Tuning::max_single_line_walk_updates).
  const bool long_single_line = shape.lines == 1 && shape.check.tuple_count > tuning.max_single_line_walk_updates;
  if (elements && shape.lines >= tuning.min_walk_lines && !long_single_line) {
    return {ScatterStrategy::kWalk, "enough lines (min_walk_lines)"};
  }
  uint64_t entries = 1;  // data elements bound it: no overflow
  if (elements) {
    for (int64_t extent : shape.output_shape) entries *= static_cast<uint64_t>(extent);
  } else {
    for (uint64_t extent : shape.check.extents) entries *= extent;
  }
  const uint64_t bytes = entries * 4;
  if (bytes > kMaxWinnerTableBytes || bytes > device.max_storage_buffer_range) {
    return {ScatterStrategy::kWalk, "winner table too large"};
  }
  const char* reason = !elements          ? "ScatterND none"
                       : long_single_line ? "one long line (max_single_line_walk_updates)"
                                          : "few lines (min_walk_lines)";
  return {ScatterStrategy::kWinnerTable, reason, entries};
}

// A reduction: atomics or the fold by owner where the walk would keep few invocations busy, else the
// walk. The fold serves a reduction whose walk would keep fewer invocations busy than
// Tuning::min_walk_lines (min_soft_float_walk_lines where that is larger and the arithmetic is soft
// float), or a duplicate-rich soft-float add on one walker (duplicateRichSoftAdd), where each tensor
// fits one binding and its scratch memory is worth it.
ScatterStrategyChoice reductionStrategy(const ScatterShape& shape, const Placement& updates, const Placement& output,
                                        bool one_run_one_target, const DeviceInfo& device, const Tuning& tuning) {
  if (atomicReduction(shape) && fewWalkers(shape, std::max(tuning.min_walk_lines, tuning.min_atomic_walk_lines))) {
    return {ScatterStrategy::kAtomics, "order-free integer reduction, few walkers (min_atomic_walk_lines)"};
  }
  const uint64_t min_walkers =
      softFloatWalk(shape) ? std::max(tuning.min_walk_lines, tuning.min_soft_float_walk_lines) : tuning.min_walk_lines;
  const bool few_walkers = fewWalkers(shape, min_walkers);
  if (!few_walkers && !duplicateRichSoftAdd(shape, updates, output, tuning)) {
    return {ScatterStrategy::kWalk, shape.check.tuple_count <= 1 ? "one update" : "enough walkers (min_walk_lines)"};
  }
  // Where each walker owns one target (a one-element vector), the fold would fold the same chains
  // after a sort, and lose to the walk by the sort's time (docs/reductions.md).
  if (output.bytes / shape.element_bytes <= walkersOf(shape)) {
    return {ScatterStrategy::kWalk, "one target per walker"};
  }
  if (!one_run_one_target) return {ScatterStrategy::kWalk, "tensors bound a window at a time"};
  const bool ordered = shape.reduction == Reduction::kMax || shape.reduction == Reduction::kMin;
  const std::optional<FoldLayout> fold =
      foldLayout(output.bytes / shape.element_bytes, updates.bytes / shape.element_bytes, device, tuning, ordered);
  if (!fold) return {ScatterStrategy::kWalk, "fold scratch too large"};
  return {ScatterStrategy::kFoldByOwner,
          few_walkers ? "few walkers (min_walk_lines)" : "duplicate-rich soft add (min_float32_add_fold_duplicates)", 0,
          fold};
}

}  // namespace

bool needsPeeledWalk(const ScatterShape& shape) {
  return shape.kind == ScatterKind::kElements && shape.dims.size() > VKINDEX_MAX_ELEMENT_DIMS;
}

uint64_t walkersOf(const ScatterShape& shape) {
  return shape.kind == ScatterKind::kElements ? shape.lines : shape.slice_elements;
}

ScatterStrategyChoice chooseScatterStrategy(const ScatterShape& shape, const Placement& updates,
                                            const Placement& output, bool one_run_one_target, const DeviceInfo& device,
                                            const Tuning& tuning) {
  if (needsPeeledWalk(shape)) return {ScatterStrategy::kPeeledWalk, "more coalesced dims than the kernels take"};
  if (shape.reduction == Reduction::kNone) return lastWinsStrategy(shape, device, tuning);
  return reductionStrategy(shape, updates, output, one_run_one_target, device, tuning);
}

}  // namespace vkindex::plan
