#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, before the light fold (common/scatter_buckets_params.h): every light target's owner
// sorts its bucket of update positions ascending, in place, so that scatter_fold.comp applies them in
// index order. A kernel of its own rather than the fold's first step: the sorting network is most of
// the code, and the fold is specialized per element type and reduction while this is not: inside the
// fold, the CPU drivers compiled the network once per fold variant, slowly; here, once per device
// (docs/reductions.md).
//
// Two passes, by LONG_BUCKETS: the first sorts the buckets of up to VKINDEX_REGISTER_BUCKET (32)
// positions, in registers (common/bucket_network.glsl); the second the longer ones, up to
// VKINDEX_MAX_BUCKET, with a bitonic sort in the same places: each chunk of 32 sorts in registers,
// then every merge level (64, 128, ... positions) orders pairs in memory until they are 32 apart, and
// each chunk finishes the merge in registers. Every pair is ordered ascending (the level's first step
// pairs each position with its mirror in the block), so the positions past the bucket's end act as
// keys above every position and any pair that reaches them is left alone. Two pipelines rather than a
// branch in one: with the long buckets' loops around the network, lavapipe sorted short buckets far
// slower, whether or not any bucket was long (docs/reductions.md).
#include "common/spec_ids.h"
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

// 0: the buckets of up to VKINDEX_REGISTER_BUCKET positions, among all owners; 1: the longer ones,
// whose owners bucket_alloc.comp lists apart (a pass over all owners that skipped the short buckets
// costs time where owners are many and short: docs/reductions.md).
layout(constant_id = VKINDEX_SPEC_LONG_BUCKETS) const uint LONG_BUCKETS = 0;

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/bucket_network.glsl"
#include "common/heavy_sort.glsl"
#include "common/status_gate.glsl"

// The key in registers of slot `slot` of the chunk scratch[at, at + count): past `count`, 0xFFFFFFFF,
// above every position, and never stored.
#define VKINDEX_LOAD_KEY(slot)   \
  keys[slot] = 0xFFFFFFFFu;      \
  if ((slot) < count) keys[slot] = scratch[at + (slot)];
#define VKINDEX_STORE_KEY(slot) \
  if ((slot) < count) scratch[at + (slot)] = keys[slot];

// Sorts the chunk scratch[at, at + count) ascending, count at most kBucketSlots; `merging`: finishes
// a merge level there, where it is a bitonic sequence once the pairs 32 and more apart are in order.
void orderChunk(uint at, uint count, bool merging) {
  uint keys[kBucketSlots];
  VKINDEX_EACH_SLOT(VKINDEX_LOAD_KEY)
  VKINDEX_SORT_BUCKET(count, merging)
  VKINDEX_EACH_SLOT(VKINDEX_STORE_KEY)
}

// Puts scratch[low] and scratch[high] in ascending order.
void orderPair(uint low, uint high) {
  uint low_key = scratch[low], high_key = scratch[high];
  if (low_key > high_key) {
    scratch[low] = high_key;
    scratch[high] = low_key;
  }
}

// Sorts the bucket scratch[begin, begin + count) ascending, count above kBucketSlots: the first level
// sorts each chunk, and each level after it merges pairs of sorted blocks of half its size, up to the
// power of two that holds the bucket. One call of orderChunk, in one loop, for both.
void sortLongBucket(uint begin, uint count) {
  for (uint level = kBucketSlots; level < 2u * count; level *= 2u) {
    bool merging = level > kBucketSlots;
    if (merging) {
      // Each block's first half against its second, mirrored: two sorted halves become two bitonic ones.
      for (uint block = 0u; block + level / 2u < count; block += level) {
        for (uint high = block + level / 2u; high < min(count, block + level); ++high) {
          orderPair(begin + 2u * block + level - 1u - high, begin + high);
        }
      }
      // Then pairs gap apart, from a quarter of the level down to a chunk.
      for (uint gap = level / 4u; gap >= kBucketSlots; gap /= 2u) {
        for (uint half_block = 0u; half_block + gap < count; half_block += 2u * gap) {
          for (uint high = half_block + gap; high < min(count, half_block + 2u * gap); ++high) {
            orderPair(begin + high - gap, begin + high);
          }
        }
      }
    }
    for (uint chunk = 0u; chunk < count; chunk += kBucketSlots) {
      orderChunk(begin + chunk, min(count - chunk, kBucketSlots), merging);
    }
  }
}

void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint owners = bucketControl(LONG_BUCKETS == 0u ? VKINDEX_OWNER_COUNT : VKINDEX_LONG_OWNER_COUNT);
  for (uint owner = firstInvocationItem(); owner < owners; owner += stride) {
    uint first, end;
    if (LONG_BUCKETS == 0u) {
      lightBucket(owner, first, end);
      if (end - first <= kBucketSlots) orderChunk(first, end - first, false);
    } else {
      targetBucket(scratch[pc.long_owners_at + owner], first, end);
      sortLongBucket(first, end - first);
    }
  }
}
