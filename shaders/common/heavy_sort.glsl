// The heavy sort's items (common/scatter_buckets_params.h): what heavy_plan.comp, heavy_sort_count.comp,
// heavy_sort_scatter.comp and scatter_fold.comp agree on. The including shader declares `scratch` and
// the BucketParams push block.
#ifndef VKINDEX_HEAVY_SORT_GLSL
#define VKINDEX_HEAVY_SORT_GLSL

uint bucketControl(uint word) { return scratch[pc.counts_at + pc.target_count + word]; }

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

// Item `item` of digit pass `pass` (reading from `source_at`): its update position, and in `digit`
// the digit the pass sorts it by, one of the heavy id that bucket_fill.comp left in targets[]; or
// VKINDEX_NO_PASS for a light position (which only the first pass, over every update, meets).
uint sortItem(uint pass, uint source_at, uint item, out uint digit) {
  uint position = pass > 0u ? scratch[source_at + item] : item;
  uint marked = scratch[pc.targets_at + position];
  digit = ((marked & ~VKINDEX_TARGET_HEAVY) >> (pass * VKINDEX_SORT_DIGIT_BITS)) & (VKINDEX_SORT_DIGITS - 1u);
  return (marked & VKINDEX_TARGET_HEAVY) != 0u ? position : VKINDEX_NO_PASS;
}

// Counts the digits of this invocation's items in digit pass `pass`: VKINDEX_SORT_RUN consecutive
// items from `first` (heavy_sort_count.comp; heavy_sort_scatter.comp counts them as it loads them).
void countDigits(uint pass, uint first, inout uint digits[VKINDEX_SORT_DIGITS]) {
  for (uint d = 0u; d < VKINDEX_SORT_DIGITS; ++d) digits[d] = 0u;
  uint items = sortItems(pass), source_at = sortSourceAt(pass);
  for (uint item = first; item < min(items, first + VKINDEX_SORT_RUN); ++item) {
    uint digit;
    if (sortItem(pass, source_at, item, digit) != VKINDEX_NO_PASS) ++digits[digit];
  }
}

// This invocation's first item in its workgroup's tile of VKINDEX_SORT_RUN x workgroup items.
uint firstSortItem() { return (groupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationID.x) * VKINDEX_SORT_RUN; }

#endif
