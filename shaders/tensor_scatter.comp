#version 450
#extension GL_GOOGLE_include_directive : require
// TensorScatter (ONNX opset 24): writes each batch entry's update rows into the cache at its write
// index (linear), or at that index plus the row's sequence offset modulo max_seq (circular; only the
// sequence coordinate wraps). One module, three passes (common/tensor_scatter_params.h): a check pass
// for many batch entries, the out-of-place copy of past_cache, and the write itself. The write pass
// moves each row as the output words it can touch ("slots"), in segments of ROW_LANES x ITEMS slots
// (gather_rows.comp's layout: adjacent lanes interleave on GPUs, one invocation streams a run on CPU
// drivers), finding the row's target once per segment. Words a row covers whole are stored, the others
// (a row's first and last word, when rows do not start and end on word boundaries: 1- and 2-byte and
// 4-bit elements) take atomicAnd/atomicOr on the row's bits only, so a nibble or byte the operation
// does not own never changes, and no device feature is needed (32-bit storage atomics are core).
#include "common/spec_ids.h"
#include "common/tensor_scatter_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
layout(constant_id = VKINDEX_SPEC_ELEMENT_BITS) const uint ELEMENT_BITS = 32;
// Slots (copy pass: words) each invocation moves per segment, and the invocations sharing a segment.
layout(constant_id = VKINDEX_SPEC_ITEMS) const uint ITEMS_PER_INVOCATION = 4;
layout(constant_id = VKINDEX_SPEC_ROW_LANES) const uint ROW_LANES = 1;
const uint kSegmentSlots = ROW_LANES * ITEMS_PER_INVOCATION;

layout(binding = 0, std430) buffer Status { uint status_words[]; };
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 2, std430) readonly buffer Update { uint update_words[]; };
layout(binding = 3, std430) readonly buffer Past { uint past_words[]; };
layout(binding = 4, std430) buffer Out { uint out_words[]; };

const uint kPerWord = 32u / ELEMENT_BITS;
const uint kElementMask = ELEMENT_BITS == 32u ? 0xFFFFFFFFu : (1u << ELEMENT_BITS) - 1u;

// Batch entry b's write index as (lo, hi) words of an int64 (0 when write indices are absent).
uvec2 writeIndex(uint b) {
  if ((pc.flags & VKINDEX_TS_HAS_INDICES) == 0u) return uvec2(0u);
  uint word = pc.indices_word_offset + 2u * b;
  return uvec2(indices_words[word], indices_words[word + 1u]);
}

// Linear: 0 <= w <= max_seq - seq_len (the host made sure seq_len <= max_seq, so nothing overflows).
// Circular: w >= 0, any size.
bool writeIndexValid(uvec2 w) {
  if ((w.y >> 31) != 0u) return false;
  if ((pc.flags & VKINDEX_TS_CIRCULAR) != 0u) return true;
  return w.y == 0u && w.x <= pc.max_seq - pc.seq_len;
}

// w mod m for a non-negative 64-bit w and m >= 1: the high word's remainder, then the low word's bits
// shifted in one at a time. The remainder stays below m < 2^32; doubling it may pass 2^32 (`carry`),
// and the doubled value is then below 2m, so one subtraction brings it back.
uint remainder64(uvec2 w, uint m) {
  uint r = w.y % m;
  if (r == 0u) return w.x % m;
  for (int bit = 31; bit >= 0; --bit) {
    bool carry = r >= 0x80000000u;
    r = (r << 1) | ((w.x >> uint(bit)) & 1u);
    if (carry || r >= m) r -= m;
  }
  return r;
}

// The cache position of update row s for write index w (valid for the mode).
uint cachePosition(uvec2 w, uint s) {
  if ((pc.flags & VKINDEX_TS_CIRCULAR) == 0u) return w.x + s;
  uint start = remainder64(w, pc.max_seq);
  uint room = pc.max_seq - start;
  return s >= room ? s - room : start + s;
}

// The smallest batch entry whose write index is bad, or VKINDEX_NO_ERROR.
uint firstBadEntry() {
  for (uint b = 0u; b < pc.batch; ++b) {
    if (!writeIndexValid(writeIndex(b))) return b;
  }
  return VKINDEX_NO_ERROR;
}

bool writesBlocked() {
  if (pc.gate == VKINDEX_TS_GATE_SELF_CHECK) return firstBadEntry() != VKINDEX_NO_ERROR;
  if (pc.gate == VKINDEX_TS_GATE_STATUS) return status_words[pc.status_slot * VKINDEX_STATUS_SLOT_WORDS] != VKINDEX_NO_ERROR;
  return false;
}

// Invocation 0 of the write pass records the first bad batch entry and its write index.
void reportBadEntry() {
  uint base = pc.status_slot * VKINDEX_STATUS_SLOT_WORDS;
  uint bad = pc.gate == VKINDEX_TS_GATE_SELF_CHECK ? firstBadEntry() : status_words[base];
  if (bad == VKINDEX_NO_ERROR) return;
  uvec2 w = writeIndex(bad);
  status_words[base] = bad;
  status_words[base + 1u] = w.x;
  status_words[base + 2u] = w.y;
}

// Writes the bits of `mask` in output word `word`, leaving the others as they are.
void storeBits(uint word, uint value, uint mask) {
  if (mask == 0xFFFFFFFFu) {
    out_words[word] = value;
    return;
  }
  atomicAnd(out_words[word], ~mask);
  atomicOr(out_words[word], value & mask);
}

// The bits of element positions [lo, hi) of a word (lo < hi <= kPerWord).
uint elementMask(uint lo, uint hi) {
  uint upper = hi == kPerWord ? 0xFFFFFFFFu : (1u << (hi * ELEMENT_BITS)) - 1u;
  return upper & ~((1u << (lo * ELEMENT_BITS)) - 1u);
}

void checkPass() {
  for (uint b = firstInvocationItem(); b < pc.batch; b += invocationStride()) {
    if (!writeIndexValid(writeIndex(b))) atomicMin(status_words[pc.status_slot * VKINDEX_STATUS_SLOT_WORDS], b);
  }
}

void copyPass() {
  uint words = divideRoundingUp(pc.cache_bytes, 4u);
  uint tail = pc.cache_bytes % 4u;  // bytes in a partial last word; the rest of it is not the cache's
  uint segments = divideRoundingUp(words, kSegmentSlots);
  uint lane = segmentLane(ROW_LANES);
  for (uint segment = firstSegment(ROW_LANES); segment < segments; segment += segmentStride(ROW_LANES)) {
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint word = segment * kSegmentSlots + i * ROW_LANES + lane;
      if (word >= words) break;
      uint mask = word + 1u == words && tail != 0u ? (1u << (tail * 8u)) - 1u : 0xFFFFFFFFu;
      storeBits(pc.out_word_offset + word, past_words[pc.past_word_offset + word], mask);
    }
  }
}

// Slot `slot` of a row: output word `slot` counted from the word holding the row's first element
// (element `target` of the output; the row's source starts at element `source` of the update).
void writeRowWord(uint source, uint target, uint slot) {
  uint length = pc.row_elements;
  if (kPerWord == 1u) {
    out_words[pc.out_word_offset + target + slot] = update_words[pc.update_word_offset + source + slot];
    return;
  }
  uint first_word = target / kPerWord;
  uint word = first_word + slot;
  if (word > (target + length - 1u) / kPerWord) return;  // this row touches fewer words
  uint word_first_element = word * kPerWord;
  uint lo = max(target, word_first_element) - word_first_element;
  uint hi = min(target + length - word_first_element, kPerWord);
  uint value = 0u;
  if (source % kPerWord == target % kPerWord) {
    // Same phase: the source word lines up with the output word.
    value = update_words[pc.update_word_offset + source / kPerWord + slot];
  } else {
    for (uint at = lo; at < hi; ++at) {
      uint element = source + (word_first_element + at - target);
      uint bits = (update_words[pc.update_word_offset + element / kPerWord] >> ((element % kPerWord) * ELEMENT_BITS)) &
                  kElementMask;
      value |= bits << (at * ELEMENT_BITS);
    }
  }
  storeBits(pc.out_word_offset + word, value, elementMask(lo, hi));
}

void writePass() {
  uint segments_per_row = divideRoundingUp(pc.row_slots, kSegmentSlots);
  uint segments = pc.row_count * segments_per_row;  // the planner keeps this below 2^32
  uint lane = segmentLane(ROW_LANES);
  for (uint segment = firstSegment(ROW_LANES); segment < segments; segment += segmentStride(ROW_LANES)) {
    uint row = segment / segments_per_row;
    uint first_slot = (segment - row * segments_per_row) * kSegmentSlots + lane;
    uint s = row % pc.seq_len;
    uint outer = row / pc.seq_len;  // batch entry x rows_per_batch + outer row
    uvec2 w = writeIndex(outer / pc.rows_per_batch);
    if (!writeIndexValid(w)) continue;  // the skip policy: this batch entry writes nothing
    uint source = row * pc.row_elements;
    uint target = (outer * pc.max_seq + cachePosition(w, s)) * pc.row_elements;
    if (pc.row_elements % kPerWord == 0u) {
      // Every row starts and ends on a word boundary (row_slots is the row's words): plain word copies.
      uint from = pc.update_word_offset + source / kPerWord, to = pc.out_word_offset + target / kPerWord;
      for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
        uint slot = first_slot + i * ROW_LANES;
        if (slot >= pc.row_slots) break;
        out_words[to + slot] = update_words[from + slot];
      }
      continue;
    }
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint slot = first_slot + i * ROW_LANES;
      if (slot >= pc.row_slots) break;
      writeRowWord(source, target, slot);
    }
  }
}

void main() {
  if (pc.pass == VKINDEX_TS_PASS_CHECK) {
    checkPass();
    return;
  }
  bool blocked = writesBlocked();
  if (pc.pass == VKINDEX_TS_PASS_WRITE && firstInvocationItem() == 0u) {
    if (blocked) {
      reportBadEntry();
    } else if (pc.gate != VKINDEX_TS_GATE_STATUS) {
      // Without a check pass the runner does not reset the slot (OpPlan::writes_own_status): say "no error".
      status_words[pc.status_slot * VKINDEX_STATUS_SLOT_WORDS] = VKINDEX_NO_ERROR;
    }
  }
  if (blocked) return;
  if (pc.pass == VKINDEX_TS_PASS_COPY) {
    copyPass();
  } else {
    writePass();
  }
}
