#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, third pass (common/scatter_buckets_params.h): every light target's leader gets its
// target a bucket, a range of `buckets` as long as its count, and a place among the owners; every
// heavy target's leader gets its target a heavy id and records its count in `runs`. An invocation
// reserves the buckets, owner places and heavy ids of all its leaders with one atomic each, so that
// the shared cursors are not contended atomics per target.
// Where buckets, owners and heavy ids lie changes from run to run; what the fold makes of them does not.
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = 0) in;
#include "common/grid.glsl"

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

void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  uint control = pc.counts_at + pc.target_count;
  uint light_updates = 0u, light_targets = 0u, heavy_targets = 0u, heavy_updates = 0u, heavy_most = 0u;
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
    }
  }
  if (light_targets + heavy_targets == 0u) return;
  uint slot = 0u, owner = 0u, heavy_id = 0u;
  if (light_targets > 0u) {
    slot = atomicAdd(scratch[control + VKINDEX_BUCKET_CURSOR], light_updates);
    owner = atomicAdd(scratch[control + VKINDEX_OWNER_COUNT], light_targets);
  }
  if (heavy_targets > 0u) {
    heavy_id = atomicAdd(scratch[control + VKINDEX_HEAVY_COUNT], heavy_targets);
    atomicAdd(scratch[control + VKINDEX_HEAVY_UPDATES], heavy_updates);
    atomicMax(scratch[control + VKINDEX_HEAVY_MOST], heavy_most);
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
    }
  }
}
