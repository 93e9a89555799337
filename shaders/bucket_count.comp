#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, second pass (common/scatter_buckets_params.h): every update position counts itself at
// its target, and the position that finds the count still zero marks itself its target's leader. Which
// position leads changes from run to run; what the fold makes of it does not.
#include "common/spec_ids.h"
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/status_gate.glsl"

void main() {
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  if (badIndexFound()) return;
  // The control words, zeroed by one invocation: no other touches them in this pass.
  uint control = pc.counts_at + pc.target_count;
  if (first == 0u) {
    for (uint word = 0u; word < VKINDEX_BUCKET_CONTROL_WORDS; ++word) scratch[control + word] = 0u;
  }
  for (uint position = first; position < pc.update_count; position += stride) {
    uint target = scratch[pc.targets_at + position];
    if (target == VKINDEX_TARGET_SKIPPED) continue;  // counts nowhere, leads nothing
    if (atomicAdd(scratch[pc.counts_at + target], 1u) == 0u) {
      scratch[pc.targets_at + position] = target | VKINDEX_TARGET_LEADER;
    }
  }
}
