#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, last pass (common/scatter_buckets_params.h), in one of two modes:
//   - light buckets (walk_begin == walk_end): one invocation per owner (bucket_alloc.comp) sorts its
//     target's bucket of update positions and applies them in that order, so duplicates fold in
//     index order as the walk would, with every target at once;
//   - heavy targets: a pass over update positions [walk_begin, walk_end) in order, each heavy target
//     owned by one invocation (its heavy id modulo the invocations that own any), one workgroup in
//     all; the others leave at once, which on a CPU driver skips their whole SIMD rows. Passes run in
//     order, so every heavy target sees its updates in index order. These passes are indirect
//     dispatches of the group count bucket_alloc.comp leaves: none where no target is heavy.
// Owners never share a target; sub-word elements share words, which common/scatter_apply.glsl
// changes with atomics.
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = 0) in;
#include "common/grid.glsl"

layout(binding = 0, std430) readonly buffer Updates { uint updates_words[]; };
layout(binding = 1, std430) buffer Out { uint out_words[]; };
layout(binding = 2, std430) buffer Scratch { uint scratch[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/scatter_apply.glsl"
#include "common/status_gate.glsl"

// Sorts scratch[begin, end) ascending: a light bucket, at most VKINDEX_MAX_BUCKET distinct positions.
void sortBucket(uint begin, uint end) {
  for (uint i = begin + 1u; i < end; ++i) {
    uint position = scratch[i];
    uint j = i;
    for (; j > begin && scratch[j - 1u] > position; --j) scratch[j] = scratch[j - 1u];
    scratch[j] = position;
  }
}

void foldLightBuckets() {
  uint stride = invocationStride();
  uint owners = scratch[pc.counts_at + pc.target_count + VKINDEX_OWNER_COUNT];
  for (uint owner = firstInvocationItem(); owner < owners; owner += stride) {
    uint target = scratch[pc.owners_at + owner];
    uint count = scratch[pc.counts_at + target];
    uint end = pc.buckets_at + scratch[pc.cursors_at + target];
    uint begin = end - count;
    sortBucket(begin, end);
    for (uint i = begin; i < end; ++i) applyElement(target, scratch[i]);
  }
}

void walkHeavyTargets() {
  uint lane = firstInvocationItem();
  uint lanes = min(scratch[pc.counts_at + pc.target_count + VKINDEX_HEAVY_COUNT], invocationStride());
  if (lane >= lanes) return;
  for (uint position = pc.walk_begin; position < pc.walk_end; ++position) {
    uint target = scratch[pc.targets_at + position] & ~VKINDEX_TARGET_LEADER;
    if (scratch[pc.counts_at + target] > VKINDEX_MAX_BUCKET && scratch[pc.cursors_at + target] % lanes == lane) {
      applyElement(target, position);
    }
  }
}

void main() {
  if (badIndexFound()) return;
  if (pc.walk_begin == pc.walk_end) {
    foldLightBuckets();
  } else {
    walkHeavyTargets();
  }
}
