#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, the heavy sort's digit pass `pass`, first half (common/scatter_buckets_params.h):
// each workgroup counts the digits of its tile's items (VKINDEX_SORT_RUN consecutive items per
// invocation) into tiles[digit * tile_count + tile]. Dispatched with one workgroup per tile, or none
// where the call's heavy ids have no such digit.
#include "common/spec_ids.h"
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/heavy_sort.glsl"
#include "common/status_gate.glsl"

// The tile's digit counts, two a word as digitPair() packs them: a tile holds at most
// VKINDEX_SORT_RUN x VKINDEX_SORT_MAX_WORKGROUP = 4096 items, so the low half never carries into the
// high one, and half as many shared atomics as digits.
const uint kPairs = VKINDEX_SORT_DIGITS / 2u;
shared uint tile_pairs[kPairs];

void main() {
  if (badIndexFound()) return;  // the same for the whole workgroup: the barriers stay uniform
  uint lane = gl_LocalInvocationID.x;
  for (uint w = lane; w < kPairs; w += gl_WorkGroupSize.x) tile_pairs[w] = 0u;
  barrier();
  uvec4 counts = countDigits(pc.pass, firstSortItem());
  for (uint w = 0u; w < kPairs; ++w) {
    uint pair = digitPair(counts, w);
    if (pair != 0u) atomicAdd(tile_pairs[w], pair);
  }
  barrier();
  for (uint d = lane; d < VKINDEX_SORT_DIGITS; d += gl_WorkGroupSize.x) {
    scratch[pc.tiles_at + d * pc.tile_count + groupIndex()] = (tile_pairs[d / 2u] >> (16u * (d % 2u))) & 0xFFFFu;
  }
}
