// Applying one update element to one target element, for the scatter kernels: where its bytes are
// and how they are written; the arithmetic is common/scatter_combine.glsl's. The including shader
// declares `updates_words` and `out_words` (read-write) and a push block with `updates_word_offset`
// and `out_word_offset`. Elements are numbered from those offsets.
//   ELEMENT_BYTES: 1, 2, 4, 8 or 16. Sub-word elements use 32-bit atomics on their word, so the
//   kernels need no 8/16-bit storage.
#ifndef VKINDEX_SCATTER_APPLY_GLSL
#define VKINDEX_SCATTER_APPLY_GLSL

#include "scatter_combine.glsl"

layout(constant_id = 2) const uint ELEMENT_BYTES = 4;

// Combines update element `source` into target element `target`.
void applyElement(uint target, uint source) {
  if (ELEMENT_BYTES >= 4u) {
    const uint words = ELEMENT_BYTES / 4u;
    uint t = pc.out_word_offset + target * words;
    uint s = pc.updates_word_offset + source * words;
    if (REDUCTION == kReduceNone) {
      for (uint w = 0u; w < words; ++w) out_words[t + w] = updates_words[s + w];
    } else if (ELEMENT_BYTES == 4u) {
      out_words[t] = combine32(out_words[t], updates_words[s]);
    } else if (ELEMENT_BYTES == 8u) {
      uvec2 result = combine2(uvec2(out_words[t], out_words[t + 1u]), uvec2(updates_words[s], updates_words[s + 1u]));
      out_words[t] = result.x;
      out_words[t + 1u] = result.y;
    } else {
      uvec4 current = uvec4(out_words[t], out_words[t + 1u], out_words[t + 2u], out_words[t + 3u]);
      uvec4 update = uvec4(updates_words[s], updates_words[s + 1u], updates_words[s + 2u], updates_words[s + 3u]);
      uvec4 result = combine4(current, update);
      for (uint w = 0u; w < 4u; ++w) out_words[t + w] = result[w];
    }
    return;
  }
  // Sub-word elements: other invocations may own the word's other bytes, so change only this
  // element's bytes, atomically. The swap below retries only after another owner's write landed, so
  // it always ends.
  const uint mask = ELEMENT_BYTES == 1u ? 0xFFu : 0xFFFFu;
  uint source_byte = pc.updates_word_offset * 4u + source * ELEMENT_BYTES;
  uint target_byte = pc.out_word_offset * 4u + target * ELEMENT_BYTES;
  uint value = (updates_words[source_byte >> 2] >> ((source_byte & 3u) * 8u)) & mask;
  uint shift = (target_byte & 3u) * 8u;
  uint word = target_byte >> 2;
  if (REDUCTION == kReduceNone) {
    atomicAnd(out_words[word], ~(mask << shift));
    atomicOr(out_words[word], value << shift);
    return;
  }
  uint expected = out_words[word];
  for (;;) {
    uint combined = combineSmall((expected >> shift) & mask, value);
    uint seen = atomicCompSwap(out_words[word], expected, (expected & ~(mask << shift)) | (combined << shift));
    if (seen == expected) break;
    expected = seen;
  }
}

#endif
