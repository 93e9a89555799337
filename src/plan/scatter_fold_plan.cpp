#include "plan/scatter_fold_plan.hpp"

#include <algorithm>

#include "common/scatter_buckets_params.h"
#include "plan/index_checks.hpp"
#include "plan/segments.hpp"

namespace vkindex::plan {
namespace {

// The most scratch memory the fold takes (counts, cursors, targets, buckets and owners: two words per
// data element and up to three per update); beyond it the walk in index order needs none. It also
// keeps target elements below 2^31, under the leader mark (VKINDEX_TARGET_LEADER).
constexpr uint64_t kMaxFoldScratchBytes = uint64_t(128) << 20;

// Light targets an invocation folds in one pass: each may sort a bucket of VKINDEX_MAX_BUCKET
// positions (496 inner steps), and llvmpipe ends a shader's loops after 65535 iterations.
constexpr uint32_t kMaxTargetsPerInvocation = 64;

uint32_t word(uint64_t bytes) { return static_cast<uint32_t>(bytes / 4); }

}  // namespace

std::optional<FoldLayout> foldLayout(uint64_t target_count, uint64_t update_count, const DeviceInfo& device) {
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
  if (layout.scratch_bytes > kMaxFoldScratchBytes || layout.scratch_bytes > device.max_storage_buffer_range) {
    return std::nullopt;
  }
  return layout;
}

void appendFoldPasses(OpPlan& plan, const FoldLayout& layout, Step locate, Kernel fold_kernel,
                      const SpecValues& fold_spec, const FoldTensors& tensors, bool wait_for_checks,
                      bool output_written, const DeviceInfo& device) {
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
  const uint64_t per_update_groups = groupsForItems(layout.update_count, workgroup, device.row_items);
  plan.steps.push_back(bucketPass(Kernel::kBucketCount, per_update_groups));
  plan.steps.push_back(bucketPass(Kernel::kBucketAlloc, per_update_groups));
  plan.steps.push_back(bucketPass(Kernel::kBucketFill, per_update_groups));

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
  const uint64_t most_owners = layout.owners.size / 4;
  const uint32_t targets_per_invocation = std::min(device.row_items, kMaxTargetsPerInvocation);
  plan.steps.push_back(foldPass(groupsForItems(most_owners, workgroup, targets_per_invocation)));
  // The heavy walk's passes dispatch the group count bucket_alloc.comp leaves: 1 where some target
  // is heavy, else 0, so that a call without heavy targets runs none of them.
  const uint64_t heavy_groups_at = layout.counts.offset + (layout.target_count + VKINDEX_HEAVY_GROUPS) * 4;
  for (uint64_t begin = 0; begin < layout.update_count; begin += kMaxWalk) {
    params.walk_begin = static_cast<uint32_t>(begin);
    params.walk_end = static_cast<uint32_t>(std::min(layout.update_count, begin + kMaxWalk));
    Step pass = foldPass(1);
    pass.indirect_scratch_offset = heavy_groups_at;
    plan.steps.push_back(pass);
  }
}

}  // namespace vkindex::plan
