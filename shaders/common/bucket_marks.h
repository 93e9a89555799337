// The marks the fold by owner leaves in targets[] (common/scatter_buckets_params.h), for the locate
// passes (scatter_elements_locate.comp, scatter_nd_locate.comp), which have a push block of their own,
// and the bucket kernels alike.
#ifndef VKINDEX_BUCKET_MARKS_H
#define VKINDEX_BUCKET_MARKS_H

// A target's leader, and a heavy id in place of a heavy target. Target elements and heavy ids stay
// below 2^30: the fold's scratch, a counts word per target among the rest, is at most 128 MiB
// (src/plan/scatter_fold_plan.cpp).
#define VKINDEX_TARGET_LEADER 0x80000000u
#define VKINDEX_TARGET_HEAVY 0x40000000u

// An update whose index the skip policy skips (VKINDEX_SPEC_INDEX_POLICY), from the locate passes:
// neither a leader nor heavy and no target element, so that the count and fill passes leave it out and
// it enters no bucket, owner list or heavy run.
#define VKINDEX_TARGET_SKIPPED 0x3FFFFFFFu

#endif
