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
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  // The heavy flag, the bucket cursor and the owner count: no other invocation touches them here.
  if (first == 0u) {
    scratch[pc.counts_at + pc.target_count] = 0u;
    scratch[pc.counts_at + pc.target_count + 1u] = 0u;
    scratch[pc.counts_at + pc.target_count + 2u] = 0u;
  }
  for (uint position = first; position < pc.update_count; position += stride) {
    uint target = scratch[pc.targets_at + position];
    if (atomicAdd(scratch[pc.counts_at + target], 1u) == 0u) {
      scratch[pc.targets_at + position] = target | VKINDEX_TARGET_LEADER;
    }
  }
}
