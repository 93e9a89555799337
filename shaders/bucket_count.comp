#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, second pass (common/scatter_buckets_params.h): every update position counts itself at
// its target, and the position that finds the count still zero marks itself its target's leader. Which
// position leads changes from run to run; what the fold makes of it does not.
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = 0) in;
#include "common/grid.glsl"

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/status_gate.glsl"

void main() {
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  // The control words: no other invocation touches them here. The heavy walk's group counts are
  // written even after a bad index, since its passes are dispatched whatever the status.
  uint control = pc.counts_at + pc.target_count;
  if (first == 0u) {
    scratch[control + VKINDEX_HEAVY_GROUPS] = 0u;
    scratch[control + VKINDEX_HEAVY_GROUPS + 1u] = 1u;
    scratch[control + VKINDEX_HEAVY_GROUPS + 2u] = 1u;
    scratch[control + VKINDEX_BUCKET_CURSOR] = 0u;
    scratch[control + VKINDEX_OWNER_COUNT] = 0u;
    scratch[control + VKINDEX_HEAVY_COUNT] = 0u;
  }
  if (badIndexFound()) return;
  for (uint position = first; position < pc.update_count; position += stride) {
    uint target = scratch[pc.targets_at + position];
    if (atomicAdd(scratch[pc.counts_at + target], 1u) == 0u) {
      scratch[pc.targets_at + position] = target | VKINDEX_TARGET_LEADER;
    }
  }
}
