#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, the heavy sort's digit pass `pass`, second half (common/scatter_buckets_params.h):
// each workgroup moves its tile's heavy positions, with their heavy ids beside them (but in the last
// pass a call runs), to where their digits go, stably. heavy_scan.comp
// left where each (digit, tile) starts; within a tile, an invocation's items of a digit go after the
// earlier invocations' (their counts scanned in shared memory) and in order among its own
// VKINDEX_SORT_RUN consecutive items. So positions of one heavy target stay in index order, pass
// after pass. Dispatched as heavy_sort_count.comp is.
// An invocation reads its items once and keeps them in registers from counting to moving: reading
// them again for the move cost lavapipe far more than holding them (docs/reductions.md). Its
// digit counts stay in registers too (countDigit), and each item's destination is its tile start and
// earlier invocations' count, from shared memory, plus its rank among its own.
#include "common/spec_ids.h"
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
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

// Where each digit's items of this tile start (heavy_scan.comp's tiles), read once per workgroup.
shared uint tile_starts[VKINDEX_SORT_DIGITS];

void main() {
  if (badIndexFound()) return;  // the same for the whole workgroup: the barriers stay uniform
  uint lane = gl_LocalInvocationID.x, lanes = gl_WorkGroupSize.x;
  for (uint d = lane; d < VKINDEX_SORT_DIGITS; d += lanes) {
    tile_starts[d] = scratch[pc.tiles_at + d * pc.tile_count + groupIndex()];
  }
  // Each item's position and heavy id, and its rank among this invocation's earlier items of its
  // digit: where it goes, but for the earlier invocations' items.
  uint positions[VKINDEX_SORT_RUN], heavy_ids[VKINDEX_SORT_RUN], ranks[VKINDEX_SORT_RUN];
  uvec4 counts = uvec4(0u);
  uint first = firstSortItem(), items = sortItems(pc.pass), source_at = sortSourceAt(pc.pass);
  for (uint i = 0u; i < VKINDEX_SORT_RUN; ++i) {
    heavy_ids[i] = 0u;
    positions[i] = first + i < items ? sortItem(pc.pass, source_at, first + i, heavy_ids[i]) : VKINDEX_NO_PASS;
    uint digit = sortDigit(pc.pass, heavy_ids[i]);
    ranks[i] = digitCount(counts, digit);
    if (positions[i] != VKINDEX_NO_PASS) counts = countDigit(counts, digit);
  }
  for (uint w = 0u; w < kPairs; ++w) lane_digits[w * lanes + lane] = digitPair(counts, w);
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
  uint sorted = sortedAt(pc.pass), keys = keysAt(pc.pass);
  // The last pass's ids would go unread: the fold finds a run's target by its heavy id.
  bool carry_ids = pc.pass + 1u < digitPassesNeeded(bucketControl(VKINDEX_HEAVY_COUNT));
  for (uint i = 0u; i < VKINDEX_SORT_RUN; ++i) {
    if (positions[i] == VKINDEX_NO_PASS) continue;
    uint digit = sortDigit(pc.pass, heavy_ids[i]);
    uint earlier = (lane_digits[(digit / 2u) * lanes + lane] >> (16u * (digit % 2u))) & 0xFFFFu;
    uint place = tile_starts[digit] + earlier + ranks[i];
    scratch[sorted + place] = positions[i];
    if (carry_ids) scratch[keys + place] = heavy_ids[i];
  }
}
