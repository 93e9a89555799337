// Sorting a chunk of a light bucket's update positions (at most 32, all distinct) in registers, for
// bucket_sort.comp: a bitonic network whose compare-exchanges all have fixed places.
// The network is spelled out by macros that nest rather than loop, so that every array index is a
// constant: the keys stay in registers, and every lane of a SIMD device runs the same instructions
// whatever its bucket holds. Loops, or functions on the array (an inout parameter or a private
// global), keep it in memory or copy it per call: slower to run or to compile on lavapipe
// (docs/reductions.md).
// The including shader declares `uint keys[kBucketSlots]` where it expands the macros.
#ifndef VKINDEX_BUCKET_NETWORK_GLSL
#define VKINDEX_BUCKET_NETWORK_GLSL

// The network's width, which VKINDEX_SORT32 spells out: a bucket up to VKINDEX_MAX_BUCKET sorts in
// chunks of it.
const uint kBucketSlots = VKINDEX_REGISTER_BUCKET;

// F(slot) for every slot, 0 to kBucketSlots - 1.
#define VKINDEX_EACH_SLOT4(F, first) F(first) F((first) + 1) F((first) + 2) F((first) + 3)
#define VKINDEX_EACH_SLOT(F)                                                                      \
  VKINDEX_EACH_SLOT4(F, 0) VKINDEX_EACH_SLOT4(F, 4) VKINDEX_EACH_SLOT4(F, 8) VKINDEX_EACH_SLOT4(F, 12) \
  VKINDEX_EACH_SLOT4(F, 16) VKINDEX_EACH_SLOT4(F, 20) VKINDEX_EACH_SLOT4(F, 24) VKINDEX_EACH_SLOT4(F, 28)

// Puts keys[low] and keys[high] in order: ascending (the smaller at `low`) or descending.
#define VKINDEX_ORDER(low, high, ascending)                               \
  {                                                                       \
    uint low_key = keys[low], high_key = keys[high];                      \
    keys[low] = (ascending) ? min(low_key, high_key) : max(low_key, high_key); \
    keys[high] = (ascending) ? max(low_key, high_key) : min(low_key, high_key); \
  }

// Orders the pairs (first + i, first + i + gap) for i < n: the first step of a bitonic merge.
#define VKINDEX_PAIRS1(first, gap, up) VKINDEX_ORDER(first, (first) + (gap), up)
#define VKINDEX_PAIRS2(first, gap, up) VKINDEX_PAIRS1(first, gap, up) VKINDEX_PAIRS1((first) + 1, gap, up)
#define VKINDEX_PAIRS4(first, gap, up) VKINDEX_PAIRS2(first, gap, up) VKINDEX_PAIRS2((first) + 2, gap, up)
#define VKINDEX_PAIRS8(first, gap, up) VKINDEX_PAIRS4(first, gap, up) VKINDEX_PAIRS4((first) + 4, gap, up)
#define VKINDEX_PAIRS16(first, gap, up) VKINDEX_PAIRS8(first, gap, up) VKINDEX_PAIRS8((first) + 8, gap, up)

// Sorts keys[first, first + n), a bitonic sequence (one that rises then falls), ascending (up true)
// or descending: n / 2 pairs, then both halves.
#define VKINDEX_MERGE2(first, up) VKINDEX_PAIRS1(first, 1, up)
#define VKINDEX_MERGE4(first, up) \
  VKINDEX_PAIRS2(first, 2, up) VKINDEX_MERGE2(first, up) VKINDEX_MERGE2((first) + 2, up)
#define VKINDEX_MERGE8(first, up) \
  VKINDEX_PAIRS4(first, 4, up) VKINDEX_MERGE4(first, up) VKINDEX_MERGE4((first) + 4, up)
#define VKINDEX_MERGE16(first, up) \
  VKINDEX_PAIRS8(first, 8, up) VKINDEX_MERGE8(first, up) VKINDEX_MERGE8((first) + 8, up)
#define VKINDEX_MERGE32(first, up) \
  VKINDEX_PAIRS16(first, 16, up) VKINDEX_MERGE16(first, up) VKINDEX_MERGE16((first) + 16, up)

// Sorts keys[first, first + n): the halves sorted in opposite directions make a bitonic sequence,
// which the merge sorts.
#define VKINDEX_SORT2(first, up) VKINDEX_MERGE2(first, up)
#define VKINDEX_SORT4(first, up) \
  VKINDEX_SORT2(first, true) VKINDEX_SORT2((first) + 2, false) VKINDEX_MERGE4(first, up)
#define VKINDEX_SORT8(first, up) \
  VKINDEX_SORT4(first, true) VKINDEX_SORT4((first) + 4, false) VKINDEX_MERGE8(first, up)
#define VKINDEX_SORT16(first, up) \
  VKINDEX_SORT8(first, true) VKINDEX_SORT8((first) + 8, false) VKINDEX_MERGE16(first, up)
#define VKINDEX_SORT32(first, up) \
  VKINDEX_SORT16(first, true) VKINDEX_SORT16((first) + 16, false) VKINDEX_MERGE32(first, up)

// Sorts keys[0, count) ascending, count at most kBucketSlots, with the narrowest network that holds
// them (8 keys: 24 compare-exchanges, 16: 80, 32: 240); slots from `count` on must hold keys above
// every sorted one. `merge_only`: the keys are a bitonic sequence already, and only the network's
// last merge runs (8 keys: 12, 16: 32, 32: 80): the wider merges' first pairs would reach only slots
// from `count` on, and leave them as they are. One macro for both, so that the long buckets' pass of
// bucket_sort.comp holds one copy of the network.
#define VKINDEX_SORT_BUCKET(count, merge_only)                 \
  if ((count) <= 8u) {                                         \
    if (!(merge_only)) {                                       \
      VKINDEX_SORT4(0, true) VKINDEX_SORT4(4, false)           \
    }                                                          \
    VKINDEX_MERGE8(0, true)                                    \
  } else if ((count) <= 16u) {                                 \
    if (!(merge_only)) {                                       \
      VKINDEX_SORT8(0, true) VKINDEX_SORT8(8, false)           \
    }                                                          \
    VKINDEX_MERGE16(0, true)                                   \
  } else {                                                     \
    if (!(merge_only)) {                                       \
      VKINDEX_SORT16(0, true) VKINDEX_SORT16(16, false)        \
    }                                                          \
    VKINDEX_MERGE32(0, true)                                   \
  }

#endif
