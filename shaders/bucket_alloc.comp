#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, third pass (common/scatter_buckets_params.h): every light target's leader gets its
// target a bucket, a range of `buckets` as long as its count, and a place among the owners (and
// among the long owners, where its bucket is longer than VKINDEX_REGISTER_BUCKET); every heavy
// target's leader gets its target a heavy id and records its count in `runs`. An invocation
// reserves the buckets, owner places and heavy ids of all its leaders at once: with one atomic on
// each shared cursor, or, with GROUP_RESERVE (Tuning::group_reserved_cursors: GPUs), from its
// workgroup's share with shared atomics, one invocation reserving that share on the cursors. Reserved
// per invocation, a GPU's atomics queue on two words; on lavapipe the share's barriers cost more than
// they save (docs/tuning.md).
// Where buckets, owners and heavy ids lie changes from run to run; what the fold makes of them does not.
#include "common/spec_ids.h"
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
layout(constant_id = VKINDEX_SPEC_GROUP_RESERVE) const uint GROUP_RESERVE = 0;

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/status_gate.glsl"

// The target that update `position` leads and its count, or target_count (count 0) where it leads none.
uint ledTarget(uint position, out uint count) {
  uint marked = scratch[pc.targets_at + position];
  count = 0u;
  if ((marked & VKINDEX_TARGET_LEADER) == 0u) return pc.target_count;
  uint target = marked & ~VKINDEX_TARGET_LEADER;
  count = scratch[pc.counts_at + target];
  return target;
}

// GROUP_RESERVE: the workgroup's totals, then (after the second barrier) where its share starts.
shared uint group_light_updates, group_light_targets, group_long_targets, group_heavy_targets, group_heavy_updates,
    group_heavy_most;

void main() {
  if (badIndexFound()) return;  // the whole dispatch or none of it: the status is not written here
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  uint control = pc.counts_at + pc.target_count;
  uint light_updates = 0u, light_targets = 0u, long_targets = 0u, heavy_targets = 0u, heavy_updates = 0u,
       heavy_most = 0u;
  for (uint position = first; position < pc.update_count; position += stride) {
    uint count;
    if (ledTarget(position, count) == pc.target_count) continue;
    if (count > VKINDEX_MAX_BUCKET) {
      ++heavy_targets;
      heavy_updates += count;
      heavy_most = max(heavy_most, count);
    } else {
      light_updates += count;
      ++light_targets;
      if (count > VKINDEX_REGISTER_BUCKET) ++long_targets;
    }
  }
  uint slot = 0u, owner = 0u, long_owner = 0u, heavy_id = 0u;
  if (GROUP_RESERVE == 0u) {
    if (light_targets + heavy_targets == 0u) return;
    if (light_targets > 0u) {
      slot = atomicAdd(scratch[control + VKINDEX_BUCKET_CURSOR], light_updates);
      owner = atomicAdd(scratch[control + VKINDEX_OWNER_COUNT], light_targets);
    }
    if (long_targets > 0u) long_owner = atomicAdd(scratch[control + VKINDEX_LONG_OWNER_COUNT], long_targets);
    if (heavy_targets > 0u) {
      heavy_id = atomicAdd(scratch[control + VKINDEX_HEAVY_COUNT], heavy_targets);
      atomicAdd(scratch[control + VKINDEX_HEAVY_UPDATES], heavy_updates);
      atomicMax(scratch[control + VKINDEX_HEAVY_MOST], heavy_most);
    }
  } else {
    if (gl_LocalInvocationIndex == 0u) {
      group_light_updates = 0u;
      group_light_targets = 0u;
      group_long_targets = 0u;
      group_heavy_targets = 0u;
      group_heavy_updates = 0u;
      group_heavy_most = 0u;
    }
    barrier();
    if (light_targets > 0u) {
      slot = atomicAdd(group_light_updates, light_updates);
      owner = atomicAdd(group_light_targets, light_targets);
    }
    if (long_targets > 0u) long_owner = atomicAdd(group_long_targets, long_targets);
    if (heavy_targets > 0u) {
      heavy_id = atomicAdd(group_heavy_targets, heavy_targets);
      atomicAdd(group_heavy_updates, heavy_updates);
      atomicMax(group_heavy_most, heavy_most);
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
      if (group_light_targets > 0u) {
        group_light_updates = atomicAdd(scratch[control + VKINDEX_BUCKET_CURSOR], group_light_updates);
        group_light_targets = atomicAdd(scratch[control + VKINDEX_OWNER_COUNT], group_light_targets);
      }
      if (group_long_targets > 0u) {
        group_long_targets = atomicAdd(scratch[control + VKINDEX_LONG_OWNER_COUNT], group_long_targets);
      }
      if (group_heavy_targets > 0u) {
        group_heavy_targets = atomicAdd(scratch[control + VKINDEX_HEAVY_COUNT], group_heavy_targets);
        atomicAdd(scratch[control + VKINDEX_HEAVY_UPDATES], group_heavy_updates);
        atomicMax(scratch[control + VKINDEX_HEAVY_MOST], group_heavy_most);
      }
    }
    barrier();
    if (light_targets + heavy_targets == 0u) return;
    slot += group_light_updates;
    owner += group_light_targets;
    long_owner += group_long_targets;
    heavy_id += group_heavy_targets;
  }
  for (uint position = first; position < pc.update_count; position += stride) {
    uint count;
    uint target = ledTarget(position, count);
    if (target == pc.target_count) continue;
    if (count > VKINDEX_MAX_BUCKET) {
      scratch[pc.cursors_at + target] = heavy_id;
      scratch[pc.runs_at + heavy_id] = count;
      scratch[pc.heavy_targets_at + heavy_id] = target;
      ++heavy_id;
    } else {
      scratch[pc.cursors_at + target] = slot;
      slot += count;
      scratch[pc.owners_at + owner] = target;
      ++owner;
      if (count > VKINDEX_REGISTER_BUCKET) {
        scratch[pc.long_owners_at + long_owner] = target;
        ++long_owner;
      }
    }
  }
}
