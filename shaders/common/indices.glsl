// Reading indices of either width without shaderInt64. An index is two words (lo, hi) for int64 and
// one word for int32 (hi is then its sign extension), so both widths share one range test.
#ifndef VKINDEX_INDICES_GLSL
#define VKINDEX_INDICES_GLSL
#include "common/spec_ids.h"

// INDEX_WORDS: 1 for int32 indices, 2 for int64 (little-endian lo, hi).
layout(constant_id = VKINDEX_SPEC_INDEX_WORDS) const uint INDEX_WORDS = 1;
// INDEX_POLICY: VKINDEX_POLICY_ERROR (a check pass accepted every value first) or VKINDEX_POLICY_SKIP
// (nothing was checked; a value outside [0, s-1] addresses nothing, and nothing wraps).
layout(constant_id = VKINDEX_SPEC_INDEX_POLICY) const uint INDEX_POLICY = VKINDEX_POLICY_ERROR;

// What the index helpers return under VKINDEX_POLICY_SKIP for a value outside [0, s-1], or a tuple
// with such a component: the caller writes nothing (scatters) or zeros (gathers). No index or row
// equals it, since the planners keep every dim and row count below 2^32-1.
const uint kSkippedIndex = 0xFFFFFFFFu;

bool skipsIndices() { return INDEX_POLICY == VKINDEX_POLICY_SKIP; }

// The skip policy's reading of the 64-bit value (lo, hi): itself when it lies in [0, s-1], else
// kSkippedIndex. A negative value (hi != 0) never wraps, and 2^32 + 1 (hi 1) is skipped even though
// its low word alone would look valid.
uint indexOrSkipped(uvec2 value, uint s) { return value.y == 0u && value.x < s ? value.x : kSkippedIndex; }

#ifndef VKINDEX_INT64_INDICES
#define VKINDEX_INT64_INDICES 0
#endif

#if VKINDEX_INT64_INDICES
// The int64 index starting at (even) word `word` of a binding of 64-bit components (`indices_pairs`).
uvec2 loadIndexAt(uint word) { return unpackUint2x32(indices_pairs[word >> 1u]); }
#else
// The index starting at word `word` of the indices binding (`indices_words`).
uvec2 loadIndexAt(uint word) {
  if (INDEX_WORDS == 2) {
    return uvec2(indices_words[word], indices_words[word + 1u]);
  }
  uint lo = indices_words[word];
  return uvec2(lo, (lo >> 31) != 0 ? 0xFFFFFFFFu : 0u);
}
#endif

// Index element `position` of a binding whose first element starts at word `first_word`.
uvec2 loadIndex(uint first_word, uint position) { return loadIndexAt(first_word + position * INDEX_WORDS); }

// True iff the 64-bit value (lo, hi) lies in [-s, s-1]. Non-negative values need hi == 0 and lo < s;
// negative ones need hi all ones and lo >= 2^32 - s. Anything else, e.g. 2^32 + 1 whose low word
// alone would look valid, is rejected. s == 0 admits nothing.
bool indexInRange(uvec2 value, uint s) {
  if (s == 0u) return false;
  if (value.y == 0u) return value.x < s;
  if (value.y == 0xFFFFFFFFu) return value.x >= (0u - s);
  return false;
}

// The same for s = (lo, hi) of up to 2^63-1: a dim of 2^32 or more (check_indices_wide). A
// non-negative value must be below s; a negative one must be at least -s, compared as unsigned
// 64-bit numbers (both lie in the upper half once s >= 1).
bool indexInRangeWide(uvec2 value, uvec2 s) {
  if (s == uvec2(0u)) return false;
  if ((value.y >> 31) == 0u) return value.y < s.y || (value.y == s.y && value.x < s.x);
  uvec2 negated_s = uvec2(0u - s.x, ~s.y + (s.x == 0u ? 1u : 0u));
  return value.y > negated_s.y || (value.y == negated_s.y && value.x >= negated_s.x);
}

// Maps a value in [-s, s-1] to [0, s-1]. Out-of-range values are clamped so that even a kernel that
// ran without the check pass could never address outside its buffer.
uint normalizeIndex(uvec2 value, uint s) {
  uint wrapped = value.y != 0u ? value.x + s : value.x;
  return min(wrapped, max(s, 1u) - 1u);
}

// Index `position` (as loadIndex) mapped to [0, s-1], for kernels behind the status gate, whose check
// pass accepted every value; under the skip policy, indexOrSkipped's value instead. For s <= 2^31 the low word alone decides: a valid negative value's low
// word is 2^32 - k >= 2^31 >= s, a valid non-negative one's is below s. So int64 indices cost one
// load instead of two. Clamped like normalizeIndex: no value can address outside [0, s-1].
#if !VKINDEX_INT64_INDICES
uint loadCheckedIndex(uint first_word, uint position, uint s) {
  if (skipsIndices()) return indexOrSkipped(loadIndex(first_word, position), s);
  if (INDEX_WORDS == 1u || s > 0x80000000u) return normalizeIndex(loadIndex(first_word, position), s);
  uint lo = indices_words[first_word + position * 2u];
  return min(lo < s ? lo : lo + s, max(s, 1u) - 1u);
}
#endif

#endif
