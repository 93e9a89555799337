// The winner table's passes: clear, claim, write (scatter_passes.hpp).
#include <initializer_list>

#include "common/clear_words_params.h"
#include "plan/scatter_passes.hpp"
#include "plan/segments.hpp"

namespace vkindex::plan {
namespace {

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

}  // namespace

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

}  // namespace vkindex::plan
