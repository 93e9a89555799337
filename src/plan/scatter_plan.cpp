#include "plan/scatter_plan.hpp"

#include <algorithm>
#include <optional>

#include "common/copy_words_params.h"
#include "plan/scatter_passes.hpp"
#include "plan/scatter_strategy.hpp"
#include "plan/segments.hpp"

namespace vkindex::plan {
namespace {

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

// A few updates in place without a reduction (a KV-cache row update) in one self-checking dispatch: the
// move-only walk in index order, which needs no table for duplicates (last wins), does the check and
// report passes' work itself (fuseSmallChecks); for ScatterND slices of whole words,
// scatter_nd_rows_checked* moves rows in the widest unit dividing the slice and both offsets in the
// device's row segments (a tuple writes its row only if no later tuple addresses it).
void fuseSmallMove(OpPlan& plan, const ScatterShape& shape, const Placement& updates, const Placement& output,
                   const DeviceInfo& device, const Tuning& tuning) {
  const bool elements = shape.kind == ScatterKind::kElements;
  const Kernel checked = elements ? Kernel::kScatterElementsMoveChecked : Kernel::kScatterNDMoveChecked;
  if (!fuseSmallChecks(plan, shape.check, checked) || elements) return;
  const uint64_t slice_bytes = shape.slice_elements * shape.element_bytes;
  const uint32_t unit = largestUnit(slice_bytes | updates.offset | output.offset);
  if (unit < 4) return;
  Step& step = plan.steps[0];
  // The walk's group was fitted to its lines: the rows take the device's workgroup, then their own fit.
  const uint32_t workgroup = tuning.workgroup_size;
  const uint64_t slice_units = slice_bytes / unit;
  const SegmentLayout segments = segmentLayout(tuning, workgroup, slice_units);
  const uint64_t segment_count = shape.check.tuple_count * segments.segmentsOf(slice_units);
  const uint64_t groups = segments.groupsFor(segment_count, workgroup);
  // fuseSmallChecks' bound on the redundant reads: every invocation reads every component.
  if (shape.check.tuple_count * shape.check.extents.size() * groups > kMaxSelfCheckedWork) return;
  step.kernel = scatterNDRowsCheckedKernel(unit);
  step.spec[kSpecWorkgroupSize] = workgroup;
  step.spec[kSpecItems] = segments.items;
  step.spec[kSpecRowLanes] = segments.lanes;
  step.groups = groups;
  fitOneGroup(step, segment_count * segments.lanes, segments.lanes, device);
}

// planScatter with the strategy given (`walk`: the walk whatever the call would otherwise take).
StatusOr<OpPlan> planScatterWith(const ScatterShape& shape, const Placement& data, const Placement& indices,
                                 const Placement& updates, const Placement& output, bool in_place,
                                 const DeviceInfo& device, const Tuning& tuning, bool walk) {
  const std::string op = scatterName(shape.kind);
  OpPlan plan;
  plan.report = shape.report;
  // Tuples of no components (ScatterND, k = 0) hold no index to check.
  bool checked = false;
  if (!shape.check.extents.empty()) {
    VKINDEX_ASSIGN_OR_RETURN(checked, appendIndexChecks(plan, shape.check, indices, device, tuning, op));
  }
  // The kernels number elements and update positions in 32 bits.
  const uint64_t updates_elements = updates.bytes / shape.element_bytes;
  if (output.bytes / shape.element_bytes > kMax32 || updates_elements > kMax32 || shape.check.tuple_count >= kMax32) {
    return unsupported(op + ": tensors of 2^32 or more elements are not supported");
  }
  const bool windowed = !fitsOneBinding(data, device) || !fitsOneBinding(output, device) ||
                        !fitsOneBinding(updates, device) || !fitsOneBinding(indices, device);
  if (windowed && windowCapacity(device) < 16) {
    return unsupported(op + ": tensors larger than one binding are bound a window at a time, and bindings of " +
                       std::to_string(device.max_storage_buffer_range) + " bytes at an offset alignment of " +
                       std::to_string(bindingAlignment(device)) + " leave no room for one");
  }
  const bool scatters = shape.check.tuple_count > 0 && walkersOf(shape) > 0 && output.bytes > 0;
  // Where the passes read and write, and the strategy, before any pass is planned: a refusal costs
  // nothing. Peeled blocks bind their own runs and target ranges.
  PassLayout layout{shape, {}, {}, tuning.workgroup_size, {&shape.dims, shape.axis_dim}};
  std::optional<ElementBlocks> peeled;
  ScatterStrategyChoice choice;
  if (scatters) {
    if (needsPeeledWalk(shape)) {
      VKINDEX_ASSIGN_OR_RETURN(peeled, peeledBlocks(shape, updates, indices, output, device));
    } else {
      VKINDEX_ASSIGN_OR_RETURN(layout.targets, targetRanges(shape, output, device));
      VKINDEX_ASSIGN_OR_RETURN(layout.runs, shape.kind == ScatterKind::kElements
                                                ? lineRuns(shape, updates, indices, device)
                                                : tupleRuns(shape, updates, indices, device));
    }
    const bool one_run_one_target = layout.runs.size() == 1 && layout.targets.size() == 1;
    choice = walk && !peeled ? ScatterStrategyChoice{ScatterStrategy::kWalk, "a few updates in place: one dispatch"}
                             : chooseScatterStrategy(shape, updates, output, one_run_one_target, device, tuning);
  }
  bool wait_for_checks = checked, output_written = false;
  if (!in_place && output.bytes > 0) {
    appendDataCopy(plan, data, output, device, tuning, wait_for_checks);
    wait_for_checks = false;
    output_written = true;
  }
  if (!scatters) {
    applyIndexPolicy(plan, shape.check.policy);
    return plan;
  }
  switch (choice.strategy) {
    case ScatterStrategy::kPeeledWalk:
      appendPeeledWalkPasses(plan, shape, *peeled, updates, indices, output, device, tuning, wait_for_checks,
                             output_written);
      break;
    case ScatterStrategy::kWinnerTable:
      appendWinnerPasses(plan, layout, choice.table_entries, updates, output, wait_for_checks, output_written, tuning);
      break;
    case ScatterStrategy::kAtomics: appendAtomicPasses(plan, layout, wait_for_checks, output_written, tuning); break;
    case ScatterStrategy::kFoldByOwner:
      appendFoldByOwner(plan, layout, *choice.fold, wait_for_checks, output_written, tuning);
      break;
    case ScatterStrategy::kWalk:
      appendWalkPasses(plan, layout, device, tuning, wait_for_checks, output_written);
      // A few updates in place in one dispatch; under the skip policy there is no check to fuse, and
      // out of place the copy of data must wait for the checks.
      if (checked && shape.reduction == Reduction::kNone && plan.steps.size() == 3) {
        fuseSmallMove(plan, shape, updates, output, device, tuning);
      }
      break;
  }
  // The passes that read indices skip as the policy says (no check pass ran under kSkip).
  applyIndexPolicy(plan, shape.check.policy);
  return plan;
}

}  // namespace

StatusOr<OpPlan> planScatter(const ScatterShape& shape, const Placement& data, const Placement& indices,
                             const Placement& updates, const Placement& output, bool in_place, const DeviceInfo& device,
                             const Tuning& tuning) {
  StatusOr<OpPlan> plan = planScatterWith(shape, data, indices, updates, output, in_place, device, tuning, false);
  // A few updates in place without a reduction under the error policy that the winner table served in
  // several passes: the walk instead, where it fuses into one self-checking dispatch.
  const uint64_t components = shape.check.tuple_count * shape.check.extents.size();
  if (!plan.ok() || plan->writes_own_status || !in_place || shape.reduction != Reduction::kNone ||
      shape.check.policy != IndexPolicy::kError || components == 0 || components > kMaxSelfCheckedComponents) {
    return plan;
  }
  StatusOr<OpPlan> walk = planScatterWith(shape, data, indices, updates, output, in_place, device, tuning, true);
  return walk.ok() && walk->writes_own_status ? walk : plan;
}

}  // namespace vkindex::plan
