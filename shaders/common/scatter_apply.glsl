// Applying one update element to one target element, for the scatter kernels. The including shader
// declares `updates_words` and `out_words` (read-write) and a push block with `updates_word_offset`
// and `out_word_offset`. Elements are numbered from those offsets.
//   ELEMENT_BYTES: 1, 2, 4, 8 or 16. REDUCTION: 0 none (the update replaces), 1 add, 2 mul, 3 max,
//   4 min. ELEMENT_KIND (reductions only): 1 int32, 2 uint32, 3 float32, 4 int64, 5 uint64.
// Everything is integer arithmetic on 32-bit words except float add and mul, so it needs no
// shaderInt64 and no 8/16-bit storage.
#ifndef VKINDEX_SCATTER_APPLY_GLSL
#define VKINDEX_SCATTER_APPLY_GLSL

layout(constant_id = 2) const uint ELEMENT_BYTES = 4;
layout(constant_id = 3) const uint REDUCTION = 0;
layout(constant_id = 4) const uint ELEMENT_KIND = 0;

const uint kReduceNone = 0u, kReduceAdd = 1u, kReduceMul = 2u, kReduceMax = 3u, kReduceMin = 4u;
const uint kKindInt32 = 1u, kKindFloat32 = 3u, kKindInt64 = 4u;

// IEEE a > b on float bits, exact for every pattern (comparing as integers: no denormal flushing).
// NaNs compare false; +0 and -0 are equal.
bool floatGreater(uint a, uint b) {
  if ((a & 0x7FFFFFFFu) > 0x7F800000u || (b & 0x7FFFFFFFu) > 0x7F800000u) return false;
  if (((a | b) & 0x7FFFFFFFu) == 0u) return false;
  uint key_a = (a >> 31) != 0u ? ~a : (a | 0x80000000u);
  uint key_b = (b >> 31) != 0u ? ~b : (b | 0x80000000u);
  return key_a > key_b;
}

bool greater32(uint a, uint b) {
  if (ELEMENT_KIND == kKindFloat32) return floatGreater(a, b);
  if (ELEMENT_KIND == kKindInt32) return int(a) > int(b);
  return a > b;
}

// (lo, hi) pairs, signed for int64.
bool greater64(uvec2 a, uvec2 b) {
  if (a.y != b.y) return ELEMENT_KIND == kKindInt64 ? int(a.y) > int(b.y) : a.y > b.y;
  return a.x > b.x;
}

uint combine32(uint current, uint update) {
  if (REDUCTION == kReduceAdd) {
    return ELEMENT_KIND == kKindFloat32 ? floatBitsToUint(uintBitsToFloat(current) + uintBitsToFloat(update))
                                        : current + update;  // wraps like two's complement
  }
  if (REDUCTION == kReduceMul) {
    return ELEMENT_KIND == kKindFloat32 ? floatBitsToUint(uintBitsToFloat(current) * uintBitsToFloat(update))
                                        : current * update;  // the low 32 bits, signed or not
  }
  if (REDUCTION == kReduceMax) return greater32(update, current) ? update : current;
  if (REDUCTION == kReduceMin) return greater32(current, update) ? update : current;
  return update;
}

uvec2 combine64(uvec2 current, uvec2 update) {
  if (REDUCTION == kReduceAdd) {
    uint carry;
    uint lo = uaddCarry(current.x, update.x, carry);
    return uvec2(lo, current.y + update.y + carry);
  }
  if (REDUCTION == kReduceMul) {
    uint hi, lo;
    umulExtended(current.x, update.x, hi, lo);
    return uvec2(lo, hi + current.x * update.y + current.y * update.x);
  }
  if (REDUCTION == kReduceMax) return greater64(update, current) ? update : current;
  if (REDUCTION == kReduceMin) return greater64(current, update) ? update : current;
  return update;
}

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
    } else {
      uvec2 result = combine64(uvec2(out_words[t], out_words[t + 1u]), uvec2(updates_words[s], updates_words[s + 1u]));
      out_words[t] = result.x;
      out_words[t + 1u] = result.y;
    }
    return;
  }
  // Sub-word elements (reduction none): other invocations may own the word's other bytes, so replace
  // only this element's bytes, atomically.
  const uint mask = ELEMENT_BYTES == 1u ? 0xFFu : 0xFFFFu;
  uint source_byte = pc.updates_word_offset * 4u + source * ELEMENT_BYTES;
  uint target_byte = pc.out_word_offset * 4u + target * ELEMENT_BYTES;
  uint value = (updates_words[source_byte >> 2] >> ((source_byte & 3u) * 8u)) & mask;
  uint shift = (target_byte & 3u) * 8u;
  atomicAnd(out_words[target_byte >> 2], ~(mask << shift));
  atomicOr(out_words[target_byte >> 2], value << shift);
}

#endif
