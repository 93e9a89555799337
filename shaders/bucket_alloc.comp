#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, second pass (common/scatter_buckets_params.h): every light target gets its bucket, a
// range of `buckets` as long as its count; heavy targets raise the heavy flag instead. An invocation
// reserves the buckets of all its targets with one atomic, so that the shared cursor is not one
// contended atomic per target. Where the buckets lie changes from run to run; what the fold makes of
// them does not.
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
  uint heavy_flag = pc.counts_at + pc.target_count;
  uint light_total = 0u;
  for (uint t = first; t < pc.target_count; t += stride) {
    uint count = scratch[pc.counts_at + t];
    if (count > VKINDEX_MAX_BUCKET) {
      scratch[heavy_flag] = 1u;
    } else {
      light_total += count;
    }
  }
  if (light_total == 0u) return;
  uint slot = atomicAdd(scratch[heavy_flag + 1u], light_total);
  for (uint t = first; t < pc.target_count; t += stride) {
    uint count = scratch[pc.counts_at + t];
    if (count == 0u || count > VKINDEX_MAX_BUCKET) continue;
    scratch[pc.cursors_at + t] = slot;
    slot += count;
  }
}
