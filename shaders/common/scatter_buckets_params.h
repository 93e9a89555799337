// Push constants of the bucket kernels (bucket_alloc.comp, bucket_fill.comp, scatter_fold.comp). A
// reduction whose walk in index order would leave the device idle (a vector, narrow ScatterND slices)
// sorts its updates into one bucket per target element instead, and one owner per target folds its
// bucket in index order (DESIGN.md, "Duplicates and reductions"). Scratch words, at word offsets from
// the start of the scratch binding:
//   counts[target_count + 2]: updates per target element (the count passes,
//     scatter_elements_count.comp and scatter_nd_count.comp); then [target_count], nonzero when some
//     target is heavy (more than VKINDEX_MAX_BUCKET updates), and [target_count + 1], the next free
//     slot of `buckets`;
//   cursors[target_count]: a light target's next free slot in `buckets`, its bucket's end once filled;
//   targets[update_count]: the target element of every update position (the count passes);
//   buckets[update_count]: light targets' update positions, target by target, unordered within one.
// Heavy targets are left out of the buckets: an owner sorts its bucket before the fold, which only a
// short bucket keeps cheap, and a duplicate-heavy target needs its updates in order anyway; they are
// walked in index order instead (scatter_fold.comp's walk mode).
#ifndef VKINDEX_SCATTER_BUCKETS_PARAMS_H
#define VKINDEX_SCATTER_BUCKETS_PARAMS_H
#include "abi.h"

// The longest bucket an owner sorts (insertion sort: at most 496 compare-and-moves).
#define VKINDEX_MAX_BUCKET 32u

VKINDEX_PUSH_BLOCK_BEGIN(BucketParams)
  uint status_slot;          // the check pass's status slot; a set slot means "write nothing"
  uint target_count;         // data elements: the targets an update can address
  uint update_count;         // update elements, positions [0, update_count) in index order
  uint counts_at;            // where the scratch arrays start, in words
  uint cursors_at;
  uint targets_at;
  uint buckets_at;
  uint updates_word_offset;  // scatter_fold.comp: where updates start in their binding, in words
  uint out_word_offset;      // scatter_fold.comp: where the output starts in its binding, in words
  uint walk_begin;           // scatter_fold.comp: equal, fold the light buckets; else walk update
  uint walk_end;             // positions [walk_begin, walk_end) in order for the heavy targets
VKINDEX_PUSH_BLOCK_END(BucketParams)

#endif
