#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, the heavy sort's exclusive scans (common/scatter_buckets_params.h), in place, by
// one workgroup: with pass VKINDEX_NO_PASS the runs (update counts by heavy id become each run's
// start in the sorted positions); else digit pass `pass`'s tile counts (digit-major, so each tile's
// items of a digit go after every earlier tile's and every smaller digit's). Each invocation sums a
// contiguous share, invocation 0 scans the shares, and each invocation writes its share's prefixes.
#include "common/spec_ids.h"
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/heavy_sort.glsl"
#include "common/status_gate.glsl"

shared uint share_sums[gl_WorkGroupSize.x];

void main() {
  if (badIndexFound()) return;  // the same for the whole workgroup: the barriers stay uniform
  bool runs = pc.pass == VKINDEX_NO_PASS;
  uint at = runs ? pc.runs_at : pc.tiles_at;
  uint count = runs ? bucketControl(VKINDEX_HEAVY_COUNT) : VKINDEX_SORT_DIGITS * pc.tile_count;
  uint lane = gl_LocalInvocationID.x;
  uint share = divideRoundingUp(count, gl_WorkGroupSize.x);
  uint begin = min(count, lane * share), end = min(count, begin + share);
  uint sum = 0u;
  for (uint i = begin; i < end; ++i) sum += scratch[at + i];
  share_sums[lane] = sum;
  barrier();
  if (lane == 0u) {
    uint running = 0u;
    for (uint l = 0u; l < gl_WorkGroupSize.x; ++l) {
      uint next = running + share_sums[l];
      share_sums[l] = running;
      running = next;
    }
  }
  barrier();
  uint running = share_sums[lane];
  for (uint i = begin; i < end; ++i) {
    uint value = scratch[at + i];
    scratch[at + i] = running;
    running += value;
  }
}
