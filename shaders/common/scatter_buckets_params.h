// Push constants of the bucket kernels (bucket_count.comp, bucket_alloc.comp, bucket_fill.comp,
// heavy_plan.comp, heavy_scan.comp, heavy_sort_count.comp, heavy_sort_scatter.comp, bucket_sort.comp,
// scatter_fold.comp).
// A reduction whose walk in index order would leave the device idle (a vector, narrow ScatterND
// slices) sorts its updates into one bucket per target element instead, and one owner per target
// folds its bucket in index order (DESIGN.md, "Duplicates and reductions"). Every pass runs over
// update positions, never over the data: a few updates into a large tensor cost what the updates do.
// Scratch words, at word offsets from the start of the scratch binding:
//   counts[target_count + VKINDEX_BUCKET_CONTROL_WORDS]: updates per target element, zeroed for the
//     updates' targets only by the locate passes (scatter_elements_locate.comp,
//     scatter_nd_locate.comp) and counted by bucket_count.comp (other targets' words are never read);
//     then control words from [target_count], zeroed by bucket_count.comp:
//       VKINDEX_BUCKET_CURSOR: the next free slot of `buckets`;
//       VKINDEX_OWNER_COUNT: the number of `owners`;
//       VKINDEX_HEAVY_COUNT: the number of heavy targets (more than VKINDEX_MAX_BUCKET updates);
//       VKINDEX_HEAVY_UPDATES: their updates, in all;
//       VKINDEX_HEAVY_MOST: the updates of the heaviest;
//       VKINDEX_LONG_OWNER_COUNT: the number of `long_owners`;
//   cursors[target_count]: a light target's next free slot in `buckets`, its bucket's end once
//     filled; a heavy target's heavy id, its place in [0, heavy count);
//   targets[update_count]: the target element of every update position (the locate passes; a skipped
//     update's is VKINDEX_TARGET_SKIPPED, which every later pass leaves out), with
//     VKINDEX_TARGET_LEADER set on the one position per target that counted first (bucket_count.comp):
//     the leader allocates its target's bucket or heavy id and lists it among the owners, so that no
//     pass visits every target. bucket_fill.comp then replaces a heavy target's with its heavy id
//     and VKINDEX_TARGET_HEAVY, so that the heavy sort finds an update's heavy id in one load;
//   buckets[update_count]: light targets' update positions, target by target, unordered within one
//     until bucket_sort.comp sorts each;
//   owners[min(target_count, update_count)]: the light targets, in no order, so that the fold keeps
//     every invocation busy with a target (leaders alone would leave most lanes idle where targets
//     have many updates each);
//   long_owners[update_count / (VKINDEX_REGISTER_BUCKET + 1)]: the light targets with more than
//     VKINDEX_REGISTER_BUCKET updates, in no order, for bucket_sort.comp's pass over the long buckets
//     (absent where no target can have that many), so that it visits only them.
// Heavy targets are left out of the buckets: an owner sorts its bucket before the fold, which only a
// short bucket keeps cheap. Their update positions are sorted by heavy id instead, a stable radix
// sort that keeps each heavy target's positions in index order, and one invocation per heavy target
// folds its run of them in passes of walk_items:
//   runs[most_heavy]: a heavy target's update count by heavy id (bucket_alloc.comp), then its run's
//     start in the sorted positions (heavy_scan.comp);
//   heavy_targets[most_heavy]: a heavy id's target element (bucket_alloc.comp), for its fold;
//   sorted[update_count]: the heavy positions after odd digit passes; the even ones leave theirs at
//     the end of `buckets`, past the light buckets (as many words as there are heavy positions);
//   keys[update_count]: the heavy ids of the positions an even digit pass sorted, in their order;
//     odd passes leave theirs in `targets`, which no pass reads after the first. A pass reads its
//     items' ids beside their positions, in order, instead of looking each up at its position;
//   tiles[VKINDEX_SORT_DIGITS * tile_count]: a digit pass's count of each digit in each tile of
//     VKINDEX_SORT_RUN x workgroup items, digit-major, then where those items go (heavy_scan.comp);
//   commands[command_count]: the VkDispatchIndirectCommand of every heavy pass (heavy_plan.comp), so
//     that a call without heavy targets, or with few, dispatches nothing it does not need:
//       [0]: the runs' scan; [1 + 2 i], [2 + 2 i]: digit pass i's count and scatter, its scan;
//       [1 + 2 digit_passes + k]: the fold of the runs' items [k walk_items, (k + 1) walk_items).
#ifndef VKINDEX_SCATTER_BUCKETS_PARAMS_H
#define VKINDEX_SCATTER_BUCKETS_PARAMS_H
#include "abi.h"
#include "bucket_marks.h"

// The longest bucket an owner sorts (bucket_sort.comp), and the longest it sorts in registers in one
// go (common/bucket_network.glsl spells out that network): a longer bucket sorts in chunks of it,
// which then merge, in a pass of its own.
#define VKINDEX_MAX_BUCKET 256u
#define VKINDEX_REGISTER_BUCKET 32u

// The marks in targets[] (leader, heavy, skipped): common/bucket_marks.h.

// The control words after the counts, at counts_at + target_count + these.
#define VKINDEX_BUCKET_CURSOR 0u
#define VKINDEX_OWNER_COUNT 1u
#define VKINDEX_HEAVY_COUNT 2u
#define VKINDEX_HEAVY_UPDATES 3u
#define VKINDEX_HEAVY_MOST 4u
#define VKINDEX_LONG_OWNER_COUNT 5u
#define VKINDEX_BUCKET_CONTROL_WORDS 6u

// The heavy sort: digits of VKINDEX_SORT_DIGIT_BITS bits of the heavy id, least significant first;
// every sort invocation takes VKINDEX_SORT_RUN consecutive items. Its workgroups have at most
// VKINDEX_SORT_MAX_WORKGROUP invocations, so that heavy_sort_scatter.comp's shared counts (two 16-bit
// digit counts a word, VKINDEX_SORT_DIGITS / 2 words an invocation) stay within the 16 KiB every
// device has, and a tile's counts within 16 bits.
#define VKINDEX_SORT_DIGIT_BITS 4u
#define VKINDEX_SORT_DIGITS 16u
#define VKINDEX_SORT_RUN 16u
#define VKINDEX_SORT_MAX_WORKGROUP 256u

// Where the heavy passes' commands lie in `commands`: the runs' scan, then two per digit pass, then
// one per fold pass over the runs.
#define VKINDEX_RUNS_SCAN_COMMAND 0u
#define VKINDEX_SORT_COMMAND(pass) (1u + 2u * (pass))
#define VKINDEX_TILE_SCAN_COMMAND(pass) (2u + 2u * (pass))
#define VKINDEX_FOLD_COMMAND(digit_passes, fold_pass) (1u + 2u * (digit_passes) + (fold_pass))

// `pass` where a kernel runs no numbered pass: scatter_fold.comp folds the light buckets, and
// heavy_scan.comp scans the runs.
#define VKINDEX_NO_PASS 0xFFFFFFFFu

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
  uint runs_at;              // the heavy sort's arrays (above)
  uint heavy_targets_at;
  uint sorted_at;
  uint keys_at;
  uint tiles_at;
  uint commands_at;
  uint tile_count;           // tiles over update_count items
  uint digit_passes;         // the sort's planned digit passes (those a call needs run)
  uint command_count;        // 1 + 2 digit_passes + the fold's passes over the runs
  uint walk_items;           // a run's items one heavy fold pass applies
  uint pass;                 // the digit pass, the fold's pass over the runs, or VKINDEX_NO_PASS
  uint most_group_runs;      // heavy targets up to which each heavy run gets a workgroup (0: none)
  uint long_owners_at;       // where long_owners starts, in words (above)
VKINDEX_PUSH_BLOCK_END(BucketParams)

#endif
