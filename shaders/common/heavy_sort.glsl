// The heavy sort's items and the light buckets (common/scatter_buckets_params.h): what heavy_plan.comp,
// heavy_sort_count.comp, heavy_sort_scatter.comp, bucket_sort.comp and scatter_fold.comp agree on. The
// including shader declares `scratch` and the BucketParams push block.
#ifndef VKINDEX_HEAVY_SORT_GLSL
#define VKINDEX_HEAVY_SORT_GLSL

uint bucketControl(uint word) { return scratch[pc.counts_at + pc.target_count + word]; }

// Light target `target`'s bucket of update positions, scratch[first, end).
void targetBucket(uint target, out uint first, out uint end) {
  end = pc.buckets_at + scratch[pc.cursors_at + target];
  first = end - scratch[pc.counts_at + target];
}

// Light owner `owner`'s target, returned, and its bucket of update positions, scratch[first, end).
uint lightBucket(uint owner, out uint first, out uint end) {
  uint target = scratch[pc.owners_at + owner];
  targetBucket(target, first, end);
  return target;
}

// The digit passes a call runs: the first always (it gathers the heavy positions), then those whose
// digit of some heavy id below `heavy` is not zero.
uint digitPassesNeeded(uint heavy) {
  uint passes = 1u;
  while (passes < pc.digit_passes && (heavy - 1u) >> (passes * VKINDEX_SORT_DIGIT_BITS) != 0u) ++passes;
  return passes;
}

// Where digit pass `pass` writes its sorted positions, in turn: the end of `buckets`, which the light
// buckets leave free for exactly the heavy positions, and `sorted`.
uint sortedAt(uint pass) {
  return pass % 2u == 0u ? pc.buckets_at + bucketControl(VKINDEX_BUCKET_CURSOR) : pc.sorted_at;
}

// Digit pass `pass` sorts items [0, sortItems(pass)): every update position in the first pass (it
// leaves the light ones out), the heavy positions the pass before it sorted in the others.
uint sortItems(uint pass) { return pass == 0u ? pc.update_count : bucketControl(VKINDEX_HEAVY_UPDATES); }

// Where digit pass `pass` reads its items: the positions the pass before it sorted (unused by the
// first pass, which reads every update position).
uint sortSourceAt(uint pass) { return pass > 0u ? sortedAt(pass - 1u) : 0u; }

// Where digit pass `pass` writes its items' heavy ids, beside sortedAt(pass)'s positions: `keys`, or
// `targets` (which only the first pass reads) after odd passes.
uint keysAt(uint pass) { return pass % 2u == 0u ? pc.keys_at : pc.targets_at; }

// Item `item`'s heavy id in digit pass `pass`, or VKINDEX_NO_PASS for a light position (which only
// the first pass, over every update, meets). The first pass finds the id in targets[], where
// bucket_fill.comp left it; the others read it beside the position, where the pass before moved it,
// instead of at the position: one load in order rather than one at random, which sped up both
// halves of the digit passes on lavapipe (docs/reductions.md).
// The count kernel needs only this; it reads no positions.
uint sortItemHeavyId(uint pass, uint item) {
  if (pass > 0u) return scratch[keysAt(pass - 1u) + item];
  uint marked = scratch[pc.targets_at + item];
  return (marked & VKINDEX_TARGET_HEAVY) != 0u ? marked & ~VKINDEX_TARGET_HEAVY : VKINDEX_NO_PASS;
}

// Item `item` of digit pass `pass` (reading from `source_at`): its update position, and its heavy id
// in `heavy_id`; or VKINDEX_NO_PASS for a light position.
uint sortItem(uint pass, uint source_at, uint item, out uint heavy_id) {
  heavy_id = sortItemHeavyId(pass, item);
  if (pass > 0u) return scratch[source_at + item];
  return heavy_id != VKINDEX_NO_PASS ? item : VKINDEX_NO_PASS;
}

// The digit of `heavy_id` that digit pass `pass` sorts by.
uint sortDigit(uint pass, uint heavy_id) {
  return (heavy_id >> (pass * VKINDEX_SORT_DIGIT_BITS)) & (VKINDEX_SORT_DIGITS - 1u);
}

// An invocation's count of each digit among its items, packed so that it stays in registers: digit
// d's count is byte d % 4 of component d / 4 (a count is at most VKINDEX_SORT_RUN, 16). A private
// array indexed by a runtime digit is memory instead, lane by lane on CPU drivers and local memory
// on GPUs.
uvec4 countDigit(uvec4 counts, uint digit) {
  return counts + uvec4(equal(uvec4(digit >> 2u), uvec4(0u, 1u, 2u, 3u))) * (1u << (8u * (digit & 3u)));
}

// Digit `digit`'s count in `counts` (countDigit's packing).
uint digitCount(uvec4 counts, uint digit) {
  uint word = digit < 8u ? (digit < 4u ? counts.x : counts.y) : (digit < 12u ? counts.z : counts.w);
  return (word >> (8u * (digit & 3u))) & 0xFFu;
}

// The counts of digits 2 pair and 2 pair + 1 as the low and high 16-bit halves of one word: the form
// the sort kernels sum in shared memory (a tile's count of one digit needs up to 13 bits).
uint digitPair(uvec4 counts, uint pair) {
  uint word = pair < 4u ? (pair < 2u ? counts.x : counts.y) : (pair < 6u ? counts.z : counts.w);
  uint bytes = pair % 2u == 0u ? word & 0xFFFFu : word >> 16u;
  return (bytes & 0xFFu) | ((bytes & 0xFF00u) << 8u);
}

// Counts the digits of this invocation's items in digit pass `pass` (countDigit's packing):
// VKINDEX_SORT_RUN consecutive items from `first` (heavy_sort_count.comp; heavy_sort_scatter.comp
// counts them as it loads them).
uvec4 countDigits(uint pass, uint first) {
  uvec4 counts = uvec4(0u);
  uint items = sortItems(pass);
  for (uint item = first; item < min(items, first + VKINDEX_SORT_RUN); ++item) {
    uint heavy_id = sortItemHeavyId(pass, item);
    if (heavy_id != VKINDEX_NO_PASS) counts = countDigit(counts, sortDigit(pass, heavy_id));
  }
  return counts;
}

// This invocation's first item in its workgroup's tile of VKINDEX_SORT_RUN x workgroup items.
uint firstSortItem() { return (groupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationID.x) * VKINDEX_SORT_RUN; }

#endif
