// Which strategy a scatter call takes, and why (docs/scatter-strategies.md): the walk in index order
// (whole, or a peeled block at a time), the winner table, atomics, or the fold by owner. The choice
// reads the shape, the tensors' sizes, the device's limits and plan::Tuning's thresholds; planScatter
// (scatter_plan.cpp) then builds that strategy's passes.
#pragma once

#include <cstdint>
#include <optional>

#include "plan/scatter_fold_plan.hpp"
#include "plan/scatter_plan.hpp"

namespace vkindex::plan {

enum class ScatterStrategy : uint8_t {
  kWalk,         // one invocation per line (ScatterND: slice element) applies its updates in order
  kPeeledWalk,   // the walk, a block of ScatterElements' peeled dims at a time (element_blocks.hpp)
  kWinnerTable,  // reduction none: every update claims its target, the last in order wins
  kAtomics,      // an integer reduction whose bits no order changes, one atomic per update
  kFoldByOwner,  // updates sorted into one bucket per target, each folded in order by its owner
};

// The strategy, the reason for it in a short phrase (for tests and review; it names the deciding
// Tuning field where one decides), and what its passes need.
struct ScatterStrategyChoice {
  ScatterStrategy strategy = ScatterStrategy::kWalk;
  const char* reason = "";
  uint64_t table_entries = 0;      // kWinnerTable: the table's words, one per target
  std::optional<FoldLayout> fold;  // kFoldByOwner: its scratch layout
};

// Whether the call walks a block at a time (kPeeledWalk): ScatterElements whose tensors coalesce to
// more dims than a kernel's push block holds (VKINDEX_MAX_ELEMENT_DIMS).
bool needsPeeledWalk(const ScatterShape& shape);

// The invocations a walk keeps busy: ScatterElements' lines, ScatterND's slice elements.
uint64_t walkersOf(const ScatterShape& shape);

// The strategy for a call of `shape` with these updates and output, which scatters at least one
// update into a non-empty output. `one_run_one_target`: the call's updates (with their indices) are one
// run and its output one target range (scatter_windows.hpp: no tensor bound a window at a time);
// only the fold needs it, and the peeled walk ignores it.
ScatterStrategyChoice chooseScatterStrategy(const ScatterShape& shape, const Placement& updates,
                                            const Placement& output, bool one_run_one_target, const DeviceInfo& device,
                                            const Tuning& tuning);

}  // namespace vkindex::plan
