#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, last passes (common/scatter_buckets_params.h), in one of two modes:
//   - light buckets (pass VKINDEX_NO_PASS): one invocation per owner (bucket_alloc.comp) applies its
//     target's bucket of update positions, which bucket_sort.comp sorted, so duplicates fold in index
//     order as a walk would, with every target at once;
//   - heavy runs (pass k): one invocation per heavy target applies items [k walk_items,
//     (k + 1) walk_items) of its run of sorted positions (heavy_sort_scatter.comp), which are in
//     index order. Passes run in order; they are indirect dispatches that heavy_plan.comp sizes to
//     the heavy targets, and to none past the heaviest run.
// Owners never share a target; sub-word elements share words, which common/scatter_apply.glsl
// changes with atomics.
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = 0) in;
#include "common/grid.glsl"

layout(binding = 0, std430) readonly buffer Updates { uint updates_words[]; };
layout(binding = 1, std430) buffer Out { uint out_words[]; };
layout(binding = 2, std430) buffer Scratch { uint scratch[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/heavy_sort.glsl"
#include "common/scatter_apply.glsl"
#include "common/status_gate.glsl"

void foldLightBuckets() {
  uint stride = invocationStride();
  uint owners = bucketControl(VKINDEX_OWNER_COUNT);
  for (uint owner = firstInvocationItem(); owner < owners; owner += stride) {
    uint target = scratch[pc.owners_at + owner];
    uint count = scratch[pc.counts_at + target];
    uint begin = pc.buckets_at + scratch[pc.cursors_at + target] - count;
    for (uint i = begin; i < begin + count; ++i) applyElement(target, scratch[i]);
  }
}

void foldHeavyRuns() {
  uint heavy = bucketControl(VKINDEX_HEAVY_COUNT);
  uint sorted = sortedAt(digitPassesNeeded(heavy) - 1u);
  uint stride = invocationStride();
  for (uint heavy_id = firstInvocationItem(); heavy_id < heavy; heavy_id += stride) {
    uint run_end = heavy_id + 1u < heavy ? scratch[pc.runs_at + heavy_id + 1u] : bucketControl(VKINDEX_HEAVY_UPDATES);
    uint begin = scratch[pc.runs_at + heavy_id] + pc.pass * pc.walk_items;
    if (begin >= run_end) continue;
    uint end = min(run_end, begin + pc.walk_items);
    uint target = scratch[pc.heavy_targets_at + heavy_id];
    for (uint i = begin; i < end; ++i) applyElement(target, scratch[sorted + i]);
  }
}

void main() {
  if (badIndexFound()) return;
  if (pc.pass == VKINDEX_NO_PASS) {
    foldLightBuckets();
  } else {
    foldHeavyRuns();
  }
}
