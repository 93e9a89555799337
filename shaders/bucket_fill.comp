#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, fourth pass (common/scatter_buckets_params.h): every update position of a light
// target takes the next slot of its target's bucket. Slots are taken in whatever order the
// invocations run; the owner sorts its bucket before it folds.
#include "common/spec_ids.h"
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/status_gate.glsl"

void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  for (uint position = firstInvocationItem(); position < pc.update_count; position += stride) {
    uint marked = scratch[pc.targets_at + position];
    if (marked == VKINDEX_TARGET_SKIPPED) continue;  // in no bucket and no heavy run
    uint target = marked & ~VKINDEX_TARGET_LEADER;
    if (scratch[pc.counts_at + target] > VKINDEX_MAX_BUCKET) {
      scratch[pc.targets_at + position] = scratch[pc.cursors_at + target] | VKINDEX_TARGET_HEAVY;
      continue;
    }
    uint slot = atomicAdd(scratch[pc.cursors_at + target], 1u);
    scratch[pc.buckets_at + slot] = position;
  }
}
