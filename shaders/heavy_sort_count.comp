#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, the heavy sort's digit pass `pass`, first half (common/scatter_buckets_params.h):
// each workgroup counts the digits of its tile's items (VKINDEX_SORT_RUN consecutive items per
// invocation) into tiles[digit * tile_count + tile]. Dispatched with one workgroup per tile, or none
// where the call's heavy ids have no such digit.
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = 0) in;
#include "common/grid.glsl"

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/heavy_sort.glsl"
#include "common/status_gate.glsl"

shared uint tile_digits[VKINDEX_SORT_DIGITS];

void main() {
  if (badIndexFound()) return;  // the same for the whole workgroup: the barriers stay uniform
  uint lane = gl_LocalInvocationID.x;
  for (uint d = lane; d < VKINDEX_SORT_DIGITS; d += gl_WorkGroupSize.x) tile_digits[d] = 0u;
  barrier();
  uint digits[VKINDEX_SORT_DIGITS];
  countDigits(pc.pass, firstSortItem(), digits);
  for (uint d = 0u; d < VKINDEX_SORT_DIGITS; ++d) {
    if (digits[d] != 0u) atomicAdd(tile_digits[d], digits[d]);
  }
  barrier();
  for (uint d = lane; d < VKINDEX_SORT_DIGITS; d += gl_WorkGroupSize.x) {
    scratch[pc.tiles_at + d * pc.tile_count + groupIndex()] = tile_digits[d];
  }
}
