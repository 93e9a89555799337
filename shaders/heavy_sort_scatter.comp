#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, the heavy sort's digit pass `pass`, second half (common/scatter_buckets_params.h):
// each workgroup moves its tile's heavy positions to where their digits go, stably. heavy_scan.comp
// left where each (digit, tile) starts; within a tile, an invocation's items of a digit go after the
// earlier invocations' (their counts scanned in shared memory) and in order among its own
// VKINDEX_SORT_RUN consecutive items. So positions of one heavy target stay in index order, pass
// after pass. Dispatched as heavy_sort_count.comp is.
// An invocation reads its items once and keeps them in registers from counting to moving: reading
// them again for the move made this kernel about 1.7x heavy_sort_count.comp's time on lavapipe, and
// holding them about 1.2x (the bench's 4M float adds at 40 per target: 830-855 -> 650-735 ms).
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
  uint positions[VKINDEX_SORT_RUN], item_digits[VKINDEX_SORT_RUN];
  uint next[VKINDEX_SORT_DIGITS];  // this invocation's count of each digit, then where its next goes
  for (uint d = 0u; d < VKINDEX_SORT_DIGITS; ++d) next[d] = 0u;
  uint items = sortItems(pc.pass), source_at = sortSourceAt(pc.pass);
  for (uint i = 0u; i < VKINDEX_SORT_RUN; ++i) {
    item_digits[i] = 0u;
    positions[i] = first + i < items ? sortItem(pc.pass, source_at, first + i, item_digits[i]) : VKINDEX_NO_PASS;
    if (positions[i] != VKINDEX_NO_PASS) ++next[item_digits[i]];
  }
  for (uint w = 0u; w < kPairs; ++w) lane_digits[w * lanes + lane] = next[2u * w] | (next[2u * w + 1u] << 16);
  barrier();
  // Exclusive prefix sums over the invocations, one digit pair per scanning invocation.
  for (uint w = lane; w < kPairs; w += lanes) {
    uint running = 0u;
    for (uint l = 0u; l < lanes; ++l) {
      uint count = lane_digits[w * lanes + l];
      lane_digits[w * lanes + l] = running;
      running += count;
    }
  }
  barrier();
  for (uint d = 0u; d < VKINDEX_SORT_DIGITS; ++d) {
    uint earlier = (lane_digits[(d / 2u) * lanes + lane] >> (16u * (d % 2u))) & 0xFFFFu;
    next[d] = scratch[pc.tiles_at + d * pc.tile_count + groupIndex()] + earlier;
  }
  uint sorted = sortedAt(pc.pass);
  for (uint i = 0u; i < VKINDEX_SORT_RUN; ++i) {
    if (positions[i] == VKINDEX_NO_PASS) continue;
    scratch[sorted + next[item_digits[i]]] = positions[i];
    ++next[item_digits[i]];
  }
}
