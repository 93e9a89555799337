// The fold by owner's passes (shaders/common/scatter_buckets_params.h): a reduction whose walk in
// index order would keep only a few invocations busy (ScatterElements on few lines, ScatterND with
// narrow slices) sorts its updates into one bucket per target element, and one owner per target folds
// its bucket in index order. The operator's locate pass, which needs its own index math, is built in
// scatter_fold_passes.cpp; the rest is the same for both operators.
#pragma once

#include <cstdint>
#include <optional>

#include "plan/op_plan.hpp"
#include "plan/tuning.hpp"
#include "plan/windows.hpp"

namespace vkindex::plan {

// Where the fold's arrays lie in scratch memory. The locate pass binds `targets` and `counts` as
// windows of their own; the other passes bind all of scratch and find the arrays by word offset.
struct FoldLayout {
  uint64_t target_count = 0;  // data elements
  uint64_t update_count = 0;  // update elements
  Window counts, cursors, targets, buckets, owners;
  // The light targets whose buckets are longer than the register network sorts, a word each, at most
  // update_count / (VKINDEX_REGISTER_BUCKET + 1) (empty where no target can have more than
  // VKINDEX_REGISTER_BUCKET updates), which bucket_sort.comp's second pass sorts in chunks and merges.
  Window long_owners;
  // The heavy sort (empty where no target can be heavy: too few updates): runs, heavy ids' targets,
  // the sorted positions of odd digit passes (even ones use the end of `buckets`), the heavy ids of
  // even ones (odd ones use `targets`), tile counts and the heavy passes' indirect commands.
  uint64_t most_heavy = 0;      // heavy targets there can be: min(targets, updates / (VKINDEX_MAX_BUCKET + 1))
  uint32_t sort_workgroup = 0;  // the sort passes' workgroup size
  uint64_t tile_count = 0;
  uint32_t digit_passes = 0;
  // Where a call has at most most_group_runs heavy targets (Tuning::most_workgroup_runs), a
  // workgroup takes each heavy run (scatter_fold.comp, which heavy_plan.comp sizes for it): max and
  // min reduce it chunk by chunk, other reductions stage it in shared memory for one invocation to
  // fold (staged_runs). Else one invocation walks each run.
  uint32_t most_group_runs = 0;
  bool staged_runs = false;  // most_group_runs > 0, for a reduction other than max and min
  uint64_t walk_items = 0;   // items of a heavy run one pass applies: DeviceInfo::max_walk_steps
  uint64_t fold_passes = 0;  // passes of walk_items over the heavy runs
  Window runs, heavy_targets, sorted, keys, tiles, commands;
  uint64_t scratch_bytes = 0;
};

// The layout for `target_count` data elements and `update_count` updates, or nothing where its
// scratch memory would be more than the fold is worth, or more than one binding holds.
// `ordered`: the reduction is max or min, which a workgroup reduces (FoldLayout::most_group_runs).
std::optional<FoldLayout> foldLayout(uint64_t target_count, uint64_t update_count, const DeviceInfo& device,
                                     const Tuning& tuning, bool ordered);

// The tensors the fold writes from and into: windows and where the tensors start in them, in words.
struct FoldTensors {
  Window updates, output;
  uint32_t updates_word = 0, output_word = 0;
};

// Appends the operator's `locate` pass (kernel, specialization, bindings, push block and groups
// filled in) and the fold's passes after it: the count, bucket allocation, the fill, the light
// buckets' fold and the heavy targets' walk, with `fold_kernel` (a kScatterFold variant) and
// `fold_spec` (element size, reduction, element kind) for the last two. Every pass is sized by the
// updates. `wait_for_checks`: the locate pass must wait for the index checks; `output_written`: for
// an earlier write of the output.
void appendFoldPasses(OpPlan& plan, const FoldLayout& layout, Step locate, Kernel fold_kernel,
                      const SpecValues& fold_spec, const FoldTensors& tensors, bool wait_for_checks,
                      bool output_written, const Tuning& tuning);

}  // namespace vkindex::plan
