#include "plan/scatter_fold_plan.hpp"

#include <algorithm>

#include "common/clear_words_params.h"
#include "common/scatter_buckets_params.h"
#include "plan/index_checks.hpp"

namespace vkindex::plan {
namespace {

// The most scratch memory the fold takes (counts, cursors, targets and buckets: two words per data
// element and two per update); beyond it the walk in index order needs none.
constexpr uint64_t kMaxFoldScratchBytes = uint64_t(128) << 20;

// Light targets an invocation folds in one pass: each may sort a bucket of VKINDEX_MAX_BUCKET
// positions (496 inner steps), and llvmpipe ends a shader's loops after 65535 iterations.
constexpr uint32_t kMaxTargetsPerInvocation = 64;

uint32_t word(uint64_t bytes) { return static_cast<uint32_t>(bytes / 4); }

// Workgroups for `items` items, `per_invocation` of them per invocation.
uint64_t groupsFor(uint64_t items, uint32_t workgroup, uint32_t per_invocation) {
  const uint64_t per_group = uint64_t(workgroup) * std::max<uint32_t>(1, per_invocation);
  return (items + per_group - 1) / per_group;
}

}  // namespace

std::optional<FoldLayout> foldLayout(uint64_t target_count, uint64_t update_count, const DeviceInfo& device) {
  const uint64_t align = bindingAlignment(device);
  FoldLayout layout;
  layout.target_count = target_count;
  layout.update_count = update_count;
  layout.counts = {0, (target_count + 2) * 4};
  layout.cursors = {alignUp(layout.counts.size, align), target_count * 4};
  layout.targets = {alignUp(layout.cursors.offset + layout.cursors.size, align), update_count * 4};
  layout.buckets = {alignUp(layout.targets.offset + layout.targets.size, align), update_count * 4};
  layout.scratch_bytes = layout.buckets.offset + layout.buckets.size;
  if (layout.scratch_bytes > kMaxFoldScratchBytes || layout.scratch_bytes > device.max_storage_buffer_range) {
    return std::nullopt;
  }
  return layout;
}

void appendFoldPasses(OpPlan& plan, const FoldLayout& layout, Step count, Kernel fold_kernel,
                      const SpecValues& fold_spec, const FoldTensors& tensors, bool wait_for_checks,
                      bool output_written, const DeviceInfo& device) {
  const uint32_t workgroup = fold_spec[kSpecWorkgroupSize];
  const Window scratch{0, layout.scratch_bytes};
  plan.scratch_bytes = layout.scratch_bytes;

  Step clear;
  clear.kernel = Kernel::kClearWords;
  clear.spec = {workgroup, 0, 0, 0, 0, 0};
  clear.bindings = std::vector<Binding>{{Role::kScratch, layout.counts}};
  abi::ClearWordsParams clear_params{};
  clear_params.word_count = word(layout.counts.size);
  setPush(clear, clear_params);
  clear.groups = groupsFor(clear_params.word_count, workgroup, 1);
  plan.steps.push_back(clear);

  if (wait_for_checks) waitForChecks(count);
  count.wait_for.push_back({Role::kScratch, scratch});
  plan.steps.push_back(count);

  abi::BucketParams params{};
  params.target_count = static_cast<uint32_t>(layout.target_count);
  params.update_count = static_cast<uint32_t>(layout.update_count);
  params.counts_at = word(layout.counts.offset);
  params.cursors_at = word(layout.cursors.offset);
  params.targets_at = word(layout.targets.offset);
  params.buckets_at = word(layout.buckets.offset);
  params.updates_word_offset = tensors.updates_word;
  params.out_word_offset = tensors.output_word;
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
  plan.steps.push_back(bucketPass(Kernel::kBucketAlloc, groupsFor(layout.target_count, workgroup, device.row_items)));
  plan.steps.push_back(bucketPass(Kernel::kBucketFill, groupsFor(layout.update_count, workgroup, device.row_items)));

  // The fold and the heavy walk write the output (after the copy of data, if any, and each other:
  // their targets differ, but sub-word targets may share a word).
  const auto foldPass = [&](uint64_t groups) {
    Step pass = bucketPass(fold_kernel, groups);
    pass.bindings = std::vector<Binding>{{Role::kUpdates, tensors.updates},
                                         {Role::kOutput, tensors.output},
                                         {Role::kScratch, scratch},
                                         {Role::kStatus, {}}};
    if (output_written) pass.wait_for.push_back({Role::kOutput, tensors.output});
    output_written = true;
    return pass;
  };
  const uint32_t targets_per_invocation = std::min(device.row_items, kMaxTargetsPerInvocation);
  plan.steps.push_back(foldPass(groupsFor(layout.target_count, workgroup, targets_per_invocation)));
  for (uint64_t begin = 0; begin < layout.update_count; begin += kMaxWalk) {
    params.walk_begin = static_cast<uint32_t>(begin);
    params.walk_end = static_cast<uint32_t>(std::min(layout.update_count, begin + kMaxWalk));
    plan.steps.push_back(foldPass(1));
  }
}

}  // namespace vkindex::plan
