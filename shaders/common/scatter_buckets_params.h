// Push constants of the bucket kernels (bucket_count.comp, bucket_alloc.comp, bucket_fill.comp,
// scatter_fold.comp). A reduction whose walk in index order would leave the device idle (a vector,
// narrow ScatterND slices) sorts its updates into one bucket per target element instead, and one
// owner per target folds its bucket in index order (DESIGN.md, "Duplicates and reductions"). Every
// pass runs over update positions, never over the data: a few updates into a large tensor cost what
// the updates do. Scratch words, at word offsets from the start of the scratch binding:
//   counts[target_count + VKINDEX_BUCKET_CONTROL_WORDS]: updates per target element, zeroed for the
//     updates' targets only by the locate passes (scatter_elements_locate.comp,
//     scatter_nd_locate.comp) and counted by bucket_count.comp (other targets' words are never read);
//     then control words from [target_count]:
//       VKINDEX_HEAVY_GROUPS: 1 when some target is heavy (more than VKINDEX_MAX_BUCKET updates),
//         else 0, followed by two words of 1: the heavy walk's VkDispatchIndirectCommand, so that
//         its passes dispatch nothing where no target is heavy;
//       VKINDEX_BUCKET_CURSOR: the next free slot of `buckets`;
//       VKINDEX_OWNER_COUNT: the number of `owners`;
//       VKINDEX_HEAVY_COUNT: the number of heavy targets;
//   cursors[target_count]: a light target's next free slot in `buckets`, its bucket's end once filled;
//     a heavy target's heavy id, its place in [0, heavy count): the walk gives heavy id h to lane
//     h % min(heavy count, lanes), so that no lane scans the walk for nothing;
//   targets[update_count]: the target element of every update position (the locate passes), with
//     VKINDEX_TARGET_LEADER set on the one position per target that counted first (bucket_count.comp):
//     the leader allocates its target's bucket and lists it among the owners, so that no pass visits
//     every target;
//   buckets[update_count]: light targets' update positions, target by target, unordered within one;
//   owners[min(target_count, update_count)]: the light targets, in no order, so that the fold keeps
//     every invocation busy with a target (leaders alone would leave most lanes idle where targets
//     have many updates each).
// Heavy targets are left out of the buckets: an owner sorts its bucket before the fold, which only a
// short bucket keeps cheap, and a duplicate-heavy target needs its updates in order anyway; they are
// walked in index order instead (scatter_fold.comp's walk mode).
#ifndef VKINDEX_SCATTER_BUCKETS_PARAMS_H
#define VKINDEX_SCATTER_BUCKETS_PARAMS_H
#include "abi.h"

// The longest bucket an owner sorts (insertion sort: at most 496 compare-and-moves).
#define VKINDEX_MAX_BUCKET 32u

// The leader mark in targets[]. Target elements stay below 2^31: the fold's scratch, a counts word per
// target among the rest, is at most 128 MiB (src/plan/scatter_fold_plan.cpp).
#define VKINDEX_TARGET_LEADER 0x80000000u

// The control words after the counts, at counts_at + target_count + these.
#define VKINDEX_HEAVY_GROUPS 0u
#define VKINDEX_BUCKET_CURSOR 3u
#define VKINDEX_OWNER_COUNT 4u
#define VKINDEX_HEAVY_COUNT 5u
#define VKINDEX_BUCKET_CONTROL_WORDS 6u

VKINDEX_PUSH_BLOCK_BEGIN(BucketParams)
  uint status_slot;          // the check pass's status slot; a set slot means "write nothing"
  uint target_count;         // data elements: the targets an update can address
  uint update_count;         // update elements, positions [0, update_count) in index order
  uint counts_at;            // where the scratch arrays start, in words
  uint cursors_at;
  uint targets_at;
  uint buckets_at;
  uint owners_at;
  uint updates_word_offset;  // scatter_fold.comp: where updates start in their binding, in words
  uint out_word_offset;      // scatter_fold.comp: where the output starts in its binding, in words
  uint walk_begin;           // scatter_fold.comp: equal, fold the light buckets; else walk update
  uint walk_end;             // positions [walk_begin, walk_end) in order for the heavy targets
VKINDEX_PUSH_BLOCK_END(BucketParams)

#endif
