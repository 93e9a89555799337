#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, the heavy sort's digit pass `pass`, second half (common/scatter_buckets_params.h):
// each workgroup moves its tile's heavy positions to where their digits go, stably. heavy_scan.comp
// left where each (digit, tile) starts; within a tile, an invocation's items of a digit go after the
// earlier invocations' (their counts scanned in shared memory) and in order among its own
// VKINDEX_SORT_RUN consecutive items. So positions of one heavy target stay in index order, pass
// after pass. Dispatched as heavy_sort_count.comp is.
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = 0) in;
#include "common/grid.glsl"

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/heavy_sort.glsl"
#include "common/status_gate.glsl"

// Each invocation's digit counts, two 16-bit counts a word: digits 2w and 2w + 1 of invocation l at
// [w * workgroup + l]. A tile holds at most VKINDEX_SORT_RUN x VKINDEX_SORT_MAX_WORKGROUP = 4096
// items, so neither half of a prefix sum carries into the other.
const uint kPairs = VKINDEX_SORT_DIGITS / 2u;
shared uint lane_digits[kPairs * gl_WorkGroupSize.x];

void main() {
  if (badIndexFound()) return;  // the same for the whole workgroup: the barriers stay uniform
  uint lane = gl_LocalInvocationID.x, lanes = gl_WorkGroupSize.x;
  uint first = firstSortItem();
  uint digits[VKINDEX_SORT_DIGITS];
  countDigits(pc.pass, first, digits);
  for (uint w = 0u; w < kPairs; ++w) lane_digits[w * lanes + lane] = digits[2u * w] | (digits[2u * w + 1u] << 16);
  barrier();
  // Exclusive prefix sums over the invocations, one digit pair per scanning invocation.
  for (uint w = lane; w < kPairs; w += lanes) {
    uint running = 0u;
    for (uint l = 0u; l < lanes; ++l) {
      uint next = running + lane_digits[w * lanes + l];
      lane_digits[w * lanes + l] = running;
      running = next;
    }
  }
  barrier();
  uint next[VKINDEX_SORT_DIGITS];
  for (uint d = 0u; d < VKINDEX_SORT_DIGITS; ++d) {
    uint earlier = (lane_digits[(d / 2u) * lanes + lane] >> (16u * (d % 2u))) & 0xFFFFu;
    next[d] = scratch[pc.tiles_at + d * pc.tile_count + groupIndex()] + earlier;
  }
  uint items = sortItems(pc.pass), source_at = sortSourceAt(pc.pass);
  uint sorted = sortedAt(pc.pass);
  for (uint item = first; item < min(items, first + VKINDEX_SORT_RUN); ++item) {
    uint digit;
    uint position = sortItem(pc.pass, source_at, item, digit);
    if (position == VKINDEX_NO_PASS) continue;
    scratch[sorted + next[digit]] = position;
    ++next[digit];
  }
}
