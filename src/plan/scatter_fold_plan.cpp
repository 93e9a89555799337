#include "plan/scatter_fold_plan.hpp"

#include <algorithm>

#include "common/scatter_buckets_params.h"
#include "plan/index_checks.hpp"
#include "plan/segments.hpp"

namespace vkindex::plan {
namespace {

// The most scratch memory the fold takes (counts and cursors: two words per data element; targets,
// buckets, owners and the heavy sort's positions and ids: about five per update); beyond it the walk in
// index order needs none. It also keeps target elements and heavy ids below 2^30, under the marks
// in targets[] (VKINDEX_TARGET_LEADER, VKINDEX_TARGET_HEAVY).
constexpr uint64_t kMaxFoldScratchBytes = uint64_t(128) << 20;

// Light targets an invocation sorts or folds in one pass: each has up to VKINDEX_MAX_BUCKET updates
// (sorted by a network without loops), and llvmpipe ends a shader's loops after 65535 iterations.
constexpr uint32_t kMaxTargetsPerInvocation = 64;

// The groups in x every device dispatches (maxComputeWorkGroupCount's minimum).
constexpr uint64_t kMaxIndirectGroups = 65535;

uint32_t word(uint64_t bytes) { return static_cast<uint32_t>(bytes / 4); }

}  // namespace

std::optional<FoldLayout> foldLayout(uint64_t target_count, uint64_t update_count, const DeviceInfo& device,
                                     const Tuning& tuning, bool ordered) {
  const uint64_t align = bindingAlignment(device);
  FoldLayout layout;
  layout.target_count = target_count;
  layout.update_count = update_count;
  layout.counts = {0, (target_count + VKINDEX_BUCKET_CONTROL_WORDS) * 4};
  layout.cursors = {alignUp(layout.counts.size, align), target_count * 4};
  layout.targets = {alignUp(layout.cursors.offset + layout.cursors.size, align), update_count * 4};
  layout.buckets = {alignUp(layout.targets.offset + layout.targets.size, align), update_count * 4};
  layout.owners = {alignUp(layout.buckets.offset + layout.buckets.size, align),
                   std::min(target_count, update_count) * 4};
  layout.scratch_bytes = layout.owners.offset + layout.owners.size;
  // Addressed in words through the whole-scratch binding, as every array after it: no alignment needed.
  layout.long_owners = {layout.scratch_bytes, update_count / (VKINDEX_REGISTER_BUCKET + 1) * 4};
  layout.scratch_bytes += layout.long_owners.size;
  layout.most_heavy = std::min(target_count, update_count / (VKINDEX_MAX_BUCKET + 1));
  if (layout.most_heavy > 0) {
    layout.sort_workgroup = std::min(tuning.workgroup_size, VKINDEX_SORT_MAX_WORKGROUP);
    layout.tile_count = groupsForItems(update_count, layout.sort_workgroup, VKINDEX_SORT_RUN);
    layout.digit_passes = 1;
    while (layout.digit_passes * VKINDEX_SORT_DIGIT_BITS < 32 &&
           (layout.most_heavy - 1) >> (layout.digit_passes * VKINDEX_SORT_DIGIT_BITS) != 0) {
      ++layout.digit_passes;
    }
    layout.most_group_runs = tuning.most_workgroup_runs;
    layout.staged_runs = layout.most_group_runs > 0 && !ordered;
    // The steps of one invocation that walks or folds a staged run; reduced, an invocation's chunk.
    layout.walk_items = device.max_walk_steps;
    layout.fold_passes = (update_count + layout.walk_items - 1) / layout.walk_items;
    const uint64_t commands = VKINDEX_FOLD_COMMAND(uint64_t{layout.digit_passes}, layout.fold_passes);
    // Every array is addressed in words through the whole-scratch binding: no alignment needed.
    layout.runs = {layout.scratch_bytes, layout.most_heavy * 4};
    layout.heavy_targets = {layout.runs.offset + layout.runs.size, layout.most_heavy * 4};
    layout.sorted = {layout.heavy_targets.offset + layout.heavy_targets.size, update_count * 4};
    layout.keys = {layout.sorted.offset + layout.sorted.size, update_count * 4};
    layout.tiles = {layout.keys.offset + layout.keys.size, VKINDEX_SORT_DIGITS * layout.tile_count * 4};
    layout.commands = {layout.tiles.offset + layout.tiles.size, commands * 3 * 4};
    layout.scratch_bytes = layout.commands.offset + layout.commands.size;
    // One workgroup per tile, in x alone (an indirect dispatch cannot spill into y): at most the
    // 65535 groups every device takes. heavy_scan.comp's invocations each scan a share of the tile
    // counts or runs in one loop, which llvmpipe would end after 65535 iterations.
    const uint64_t longest_scan = std::max(VKINDEX_SORT_DIGITS * layout.tile_count, layout.most_heavy);
    if (layout.tile_count > kMaxIndirectGroups ||
        groupsForItems(longest_scan, tuning.workgroup_size) > device.max_walk_steps) {
      return std::nullopt;
    }
  }
  if (layout.scratch_bytes > kMaxFoldScratchBytes || layout.scratch_bytes > device.max_storage_buffer_range) {
    return std::nullopt;
  }
  return layout;
}

void appendFoldPasses(OpPlan& plan, const FoldLayout& layout, Step locate, Kernel fold_kernel,
                      const SpecValues& fold_spec, const FoldTensors& tensors, bool wait_for_checks,
                      bool output_written, const Tuning& tuning) {
  const uint32_t workgroup = fold_spec[kSpecWorkgroupSize];
  const Window scratch{0, layout.scratch_bytes};
  plan.scratch_bytes = layout.scratch_bytes;

  // Scratch is new to this recording (ops/op_runner.cpp): the locate pass writes it first.
  if (wait_for_checks) waitForChecks(locate);
  plan.steps.push_back(locate);

  abi::BucketParams params{};
  params.target_count = static_cast<uint32_t>(layout.target_count);
  params.update_count = static_cast<uint32_t>(layout.update_count);
  params.counts_at = word(layout.counts.offset);
  params.cursors_at = word(layout.cursors.offset);
  params.targets_at = word(layout.targets.offset);
  params.buckets_at = word(layout.buckets.offset);
  params.owners_at = word(layout.owners.offset);
  params.updates_word_offset = tensors.updates_word;
  params.out_word_offset = tensors.output_word;
  params.runs_at = word(layout.runs.offset);
  params.heavy_targets_at = word(layout.heavy_targets.offset);
  params.sorted_at = word(layout.sorted.offset);
  params.keys_at = word(layout.keys.offset);
  params.tiles_at = word(layout.tiles.offset);
  params.commands_at = word(layout.commands.offset);
  params.tile_count = static_cast<uint32_t>(layout.tile_count);
  params.digit_passes = layout.digit_passes;
  params.command_count = static_cast<uint32_t>(layout.commands.size / 12);
  params.walk_items = static_cast<uint32_t>(layout.walk_items);
  params.most_group_runs = layout.most_group_runs;
  params.long_owners_at = word(layout.long_owners.offset);
  params.pass = VKINDEX_NO_PASS;
  const auto bucketPass = [&](Kernel kernel, uint64_t groups) {
    Step pass;
    pass.kernel = kernel;
    pass.spec = fold_spec;
    pass.bindings = std::vector<Binding>{{Role::kScratch, scratch}, {Role::kStatus, {}}};
    setPush(pass, params);
    pass.groups = groups;
    pass.wait_for.push_back({Role::kScratch, scratch});
    return pass;
  };
  // A heavy pass: dispatched indirectly, with the groups heavy_plan.comp wrote in command `command`
  // (at most `groups`).
  const auto heavyPass = [&](Kernel kernel, uint64_t groups, uint64_t command) {
    Step pass = bucketPass(kernel, groups);
    pass.indirect_scratch_offset = layout.commands.offset + command * 12;
    return pass;
  };
  const uint64_t per_update_groups = groupsForItems(layout.update_count, workgroup, tuning.row_items);
  plan.steps.push_back(bucketPass(Kernel::kBucketCount, per_update_groups));
  Step alloc = bucketPass(Kernel::kBucketAlloc, per_update_groups);
  alloc.spec[kSpecGroupReserve] = tuning.group_reserved_cursors ? 1u : 0u;  // bucket_alloc.comp's GROUP_RESERVE
  plan.steps.push_back(alloc);
  plan.steps.push_back(bucketPass(Kernel::kBucketFill, per_update_groups));
  const bool heavy = layout.most_heavy > 0;
  if (heavy) {
    // The commands, then the heavy positions sorted by heavy id, digit by digit, in index order
    // within each heavy target; the runs' starts come from a scan of their counts.
    plan.steps.push_back(bucketPass(Kernel::kHeavyPlan, 1));
    plan.steps.push_back(heavyPass(Kernel::kHeavyScan, 1, VKINDEX_RUNS_SCAN_COMMAND));
    SpecValues sort_spec = fold_spec;
    sort_spec[kSpecWorkgroupSize] = layout.sort_workgroup;
    for (uint32_t digit = 0; digit < layout.digit_passes; ++digit) {
      params.pass = digit;
      for (const Kernel kernel : {Kernel::kHeavySortCount, Kernel::kHeavyScan, Kernel::kHeavySortScatter}) {
        const bool scan = kernel == Kernel::kHeavyScan;
        Step pass = heavyPass(kernel, scan ? 1 : layout.tile_count,
                              scan ? VKINDEX_TILE_SCAN_COMMAND(digit) : VKINDEX_SORT_COMMAND(digit));
        if (!scan) pass.spec = sort_spec;
        plan.steps.push_back(pass);
      }
    }
    params.pass = VKINDEX_NO_PASS;
  }

  // The folds write the output (after the copy of data, if any, and each other: their targets
  // differ, but sub-word targets may share a word).
  const auto foldPass = [&](Step pass) {
    pass.bindings = std::vector<Binding>{{Role::kUpdates, tensors.updates},
                                         {Role::kOutput, tensors.output},
                                         {Role::kScratch, scratch},
                                         {Role::kStatus, {}}};
    if (output_written) pass.wait_for.push_back({Role::kOutput, tensors.output});
    output_written = true;
    return pass;
  };
  const uint64_t most_owners = layout.owners.size / 4;
  const uint32_t targets_per_invocation = std::min(tuning.row_items, kMaxTargetsPerInvocation);
  const uint64_t owner_groups = groupsForItems(most_owners, workgroup, targets_per_invocation);
  plan.steps.push_back(bucketPass(Kernel::kBucketSort, owner_groups));
  const uint64_t most_long_owners = layout.long_owners.size / 4;
  if (most_long_owners > 0) {
    // The buckets longer than the register network, where a target can have that many updates: a
    // pipeline of their own (bucket_sort.comp's LONG_BUCKETS) over the long owners.
    Step long_buckets =
        bucketPass(Kernel::kBucketSort, groupsForItems(most_long_owners, workgroup, targets_per_invocation));
    long_buckets.spec[kSpecLongBuckets] = 1;
    plan.steps.push_back(long_buckets);
  }
  plan.steps.push_back(foldPass(bucketPass(fold_kernel, owner_groups)));
  if (!heavy) return;
  // One invocation per heavy target, or where they are few one workgroup each (at most the groups an
  // indirect dispatch takes), a pass per walk_items of the heaviest run: at most the larger.
  const uint64_t group_runs = std::min({layout.most_heavy, uint64_t{layout.most_group_runs}, kMaxIndirectGroups});
  const uint64_t heavy_groups = std::max(group_runs, groupsForItems(layout.most_heavy, workgroup));
  for (uint64_t fold = 0; fold < layout.fold_passes; ++fold) {
    params.pass = static_cast<uint32_t>(fold);
    Step pass =
        foldPass(heavyPass(fold_kernel, heavy_groups, VKINDEX_FOLD_COMMAND(uint64_t{layout.digit_passes}, fold)));
    pass.spec[kSpecStagedRuns] = layout.staged_runs ? 1u : 0u;  // scatter_fold.comp's STAGED_RUNS
    plan.steps.push_back(pass);
  }
}

}  // namespace vkindex::plan
