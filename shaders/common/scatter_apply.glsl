// Applying one update element to one target element, for the scatter kernels: where its bytes are
// and how they are written; the arithmetic is common/scatter_combine.glsl's. The including shader
// declares `updates_words` and `out_words` (read-write) and a push block with `updates_word_offset`
// and `out_word_offset`. Elements are numbered from those offsets.
//   applyElement(target, source) applies one update. With VKINDEX_APPLY_RUNS (the fold by owner),
//   the combining variants also have applyRun(target, begin, end): the update elements of run items
//   begin, ..., end - 1 folded in that order into a target the caller owns. The including shader
//   defines runUpdateWord(i, w), word w of item i's update element (sub-word elements right-aligned
//   in word 0), from updateWord(source, w) below or from its own copy of those words in shared
//   memory, and runUpdatesAreStaged(), whether it reads that copy. applyRun reads the target once,
//   folds in registers and writes once, where applying one update at a time would make every step
//   wait for the previous one's store.
//   ELEMENT_BYTES: 1, 2, 4, 8 or 16. Sub-word elements use 32-bit atomics on their word, so the
//   kernels need no 8/16-bit storage.
//   VKINDEX_SCATTER_MOVE_ONLY (the *_move modules, reduction none): the update replaces the target
//   and the reductions' code is not compiled in. SwiftShader pays for that code even where the
//   REDUCTION specialization constant makes it unreachable; lavapipe removes it and runs both the
//   same (docs/reductions.md has the numbers for this and the variants below).
//   VKINDEX_SCATTER_FLOAT32_ADD (the *_float32_add modules): float32 and complex64 add, the common
//   float reductions, with only the soft float32 add compiled in, for the same reason. With
//   VKINDEX_NATIVE_FLOAT32_ADD as well (the *_float32_add_native modules), the add is
//   common/native_float32_add.glsl's, which takes the device's adder where its bits are exact.
//   VKINDEX_SCATTER_ORDER32 (the *_order32 modules): max and min of int32, uint32 and float32 alone,
//   the common ordered reductions, for the same reason.
//   VKINDEX_SCATTER_INT32 (the *_int32 modules): add and mul of int32 and uint32 alone, for the same
//   reason. Not in the order32 modules: their max ran slower on SwiftShader with the add and mul
//   compiled in.
//   VKINDEX_SCATTER_ATOMIC (scatter_elements_write.comp and scatter_nd_write.comp's *_atomic
//   modules): integer add, max and min of 4-byte elements and add of 8-byte ones, one atomic per
//   word; the including shader also declares `out_ints`, the output as int.
//   VKINDEX_SCATTER_SOFT_ADD (with VKINDEX_SCATTER_FLOATS 1, the *_half_add modules: float16 and
//   bfloat16 add; with 2, the *_float64_add modules: float64 and complex128 add): the combining
//   applyElement below with only that add and that element width compiled in.
#ifndef VKINDEX_SCATTER_APPLY_GLSL
#define VKINDEX_SCATTER_APPLY_GLSL

#ifndef VKINDEX_SCATTER_MOVE_ONLY
#define VKINDEX_SCATTER_MOVE_ONLY 0
#endif
#ifndef VKINDEX_SCATTER_FLOAT32_ADD
#define VKINDEX_SCATTER_FLOAT32_ADD 0
#endif
#ifndef VKINDEX_SCATTER_ORDER32
#define VKINDEX_SCATTER_ORDER32 0
#endif
#ifndef VKINDEX_SCATTER_INT32
#define VKINDEX_SCATTER_INT32 0
#endif
#ifndef VKINDEX_SCATTER_SOFT_ADD
#define VKINDEX_SCATTER_SOFT_ADD 0
#endif
#ifndef VKINDEX_SCATTER_ATOMIC
#define VKINDEX_SCATTER_ATOMIC 0
#endif
#ifndef VKINDEX_NATIVE_FLOAT32_ADD
#define VKINDEX_NATIVE_FLOAT32_ADD 0
#endif
#if VKINDEX_SCATTER_FLOAT32_ADD && VKINDEX_NATIVE_FLOAT32_ADD
#include "common/spec_ids.h"
#include "native_float32_add.glsl"
#define VKINDEX_FLOAT32_ADD f32AddNative
#elif VKINDEX_SCATTER_FLOAT32_ADD
#include "soft_float.glsl"
#define VKINDEX_FLOAT32_ADD f32Add
#elif !VKINDEX_SCATTER_MOVE_ONLY
#include "scatter_combine.glsl"
#endif

layout(constant_id = VKINDEX_SPEC_ELEMENT_BYTES) const uint ELEMENT_BYTES = 4;

const uint kSubWordMask = ELEMENT_BYTES == 1u ? 0xFFu : 0xFFFFu;

// Sub-word elements: update element `source`, right-aligned in a word.
uint subWordUpdate(uint source) {
  uint source_byte = pc.updates_word_offset * 4u + source * ELEMENT_BYTES;
  return (updates_words[source_byte >> 2] >> ((source_byte & 3u) * 8u)) & kSubWordMask;
}

// Word w of update element `source` (sub-word elements: the element, right-aligned, for w 0).
uint updateWord(uint source, uint w) {
  if (ELEMENT_BYTES < 4u) return subWordUpdate(source);
  return updates_words[pc.updates_word_offset + source * (ELEMENT_BYTES / 4u) + w];
}

#ifdef VKINDEX_APPLY_RUNS
uint runUpdateWord(uint i, uint w);
bool runUpdatesAreStaged();  // whether runUpdateWord reads shared memory
#endif

// Sub-word elements: the byte where target element `target` starts in the output binding.
uint subWordTargetByte(uint target) { return pc.out_word_offset * 4u + target * ELEMENT_BYTES; }

// Sub-word target element `target`, right-aligned. Only its owner changes these bits, so a plain
// load sees them, whatever other owners do to the word's other bytes.
uint loadSubWordTarget(uint target) {
  uint target_byte = subWordTargetByte(target);
  return (out_words[target_byte >> 2] >> ((target_byte & 3u) * 8u)) & kSubWordMask;
}

// Sets sub-word target element `target` to `value` (right-aligned). Other invocations may own the
// word's other bytes, so only this element's bytes change, with two atomics that need no retry loop:
// the owner alone writes these bits. A compare-and-swap loop here lost updates on lavapipe (Mesa
// 22.3: int8 adds folded onto a few heavy targets sharing a word), and the pair never reads an
// atomic's result.
void storeSubWordTarget(uint target, uint value) {
  uint target_byte = subWordTargetByte(target);
  uint shift = (target_byte & 3u) * 8u;
  atomicAnd(out_words[target_byte >> 2], ~(kSubWordMask << shift));
  atomicOr(out_words[target_byte >> 2], value << shift);
}

// Update element `source` replaces target element `target`.
void moveElement(uint target, uint source) {
  if (ELEMENT_BYTES >= 4u) {
    const uint words = ELEMENT_BYTES / 4u;
    uint t = pc.out_word_offset + target * words;
    uint s = pc.updates_word_offset + source * words;
    for (uint w = 0u; w < words; ++w) out_words[t + w] = updates_words[s + w];
    return;
  }
  storeSubWordTarget(target, subWordUpdate(source));
}

#if VKINDEX_SCATTER_MOVE_ONLY
void applyElement(uint target, uint source) { moveElement(target, source); }
#elif VKINDEX_SCATTER_ATOMIC
// Combines update element `source` into target element `target` with one atomic operation per word,
// for the integer reductions whose result is the same in any order (DESIGN: order-independent folds
// may use atomics): 4-byte add, max and min (int32 compares signed, uint32 unsigned), and 8-byte add
// as two 32-bit adds, the low word's carry added into the high word (the sum modulo 2^64 is the
// same whichever update's carry lands first).
void applyElement(uint target, uint source) {
  if (ELEMENT_BYTES == 8u) {
    uint t = pc.out_word_offset + target * 2u;
    uint s = pc.updates_word_offset + source * 2u;
    uint low = updates_words[s];
    uint before = atomicAdd(out_words[t], low);
    atomicAdd(out_words[t + 1u], updates_words[s + 1u] + (before + low < before ? 1u : 0u));
    return;
  }
  uint t = pc.out_word_offset + target;
  uint update = updates_words[pc.updates_word_offset + source];
  if (REDUCTION == kReduceAdd) {
    atomicAdd(out_words[t], update);
  } else if (ELEMENT_KIND == kKindInt32) {
    if (REDUCTION == kReduceMax) {
      atomicMax(out_ints[t], int(update));
    } else {
      atomicMin(out_ints[t], int(update));
    }
  } else if (REDUCTION == kReduceMax) {
    atomicMax(out_words[t], update);
  } else {
    atomicMin(out_words[t], update);
  }
}
#elif VKINDEX_SCATTER_ORDER32
// Keeps the larger (max) or smaller (min) of update element `source` and target element `target`:
// 4-byte elements only, so glslang leaves every other width's arithmetic out.
bool replaces32(uint update, uint current) {
  return REDUCTION == kReduceMax ? greater32(update, current) : greater32(current, update);
}

void applyElement(uint target, uint source) {
  uint t = pc.out_word_offset + target;
  uint update = updates_words[pc.updates_word_offset + source];
  if (replaces32(update, out_words[t])) out_words[t] = update;
}

#ifdef VKINDEX_APPLY_RUNS
void applyRun(uint target, uint begin, uint end) {
  uint t = pc.out_word_offset + target;
  uint current = out_words[t];
  for (uint i = begin; i < end; ++i) {
    uint update = runUpdateWord(i, 0u);
    if (replaces32(update, current)) current = update;
  }
  out_words[t] = current;
}
#endif
#elif VKINDEX_SCATTER_INT32
// Adds or multiplies update element `source` into target element `target`: 32-bit integers, which
// wrap the same whether signed or not.
uint combined32(uint current, uint update) { return REDUCTION == kReduceAdd ? current + update : current * update; }

void applyElement(uint target, uint source) {
  uint t = pc.out_word_offset + target;
  out_words[t] = combined32(out_words[t], updateWord(source, 0u));
}

#ifdef VKINDEX_APPLY_RUNS
void applyRun(uint target, uint begin, uint end) {
  uint t = pc.out_word_offset + target;
  uint current = out_words[t];
  for (uint i = begin; i < end; ++i) current = combined32(current, runUpdateWord(i, 0u));
  out_words[t] = current;
}
#endif
#elif VKINDEX_SCATTER_FLOAT32_ADD
// Adds update element `source` to target element `target` word by word: one binary32 (float32) or
// two (complex64's real and imaginary parts, each rounded on its own).
void applyElement(uint target, uint source) {
  const uint words = ELEMENT_BYTES / 4u;
  uint t = pc.out_word_offset + target * words;
  uint s = pc.updates_word_offset + source * words;
  for (uint w = 0u; w < words; ++w) out_words[t + w] = VKINDEX_FLOAT32_ADD(out_words[t + w], updates_words[s + w]);
}

#ifdef VKINDEX_APPLY_RUNS
#if VKINDEX_NATIVE_FLOAT32_ADD
const uint kAdderBlock = 16u;

// Items [first, first + kAdderBlock) added to `current` on the device's adder alone, their update
// words loaded first: true, and `current` their sum, where every step was exact (f32SumIsExact);
// false, and `current` as it was, where one was not. Then the chain waits on the adds alone, with
// the loads and the exactness tests beside it.
bool addBlockOnAdder(inout uint current, uint first, uint w) {
  uint updates[kAdderBlock];
  for (uint k = 0u; k < kAdderBlock; ++k) updates[k] = runUpdateWord(first + k, w);
  uint sum = current;
  bool exact = f32IsNormal(current);
  for (uint k = 0u; k < kAdderBlock; ++k) {
    sum = f32DeviceSum(sum, updates[k]);
    exact = exact && f32IsNormal(updates[k]) && f32IsNormal(sum);
  }
  if (exact) current = sum;
  return exact;
}

// Word w of items [begin, end) added to `current` in order. Staged updates (shared memory, a heavy
// target's run on a GPU) go a block at a time, a block with an inexact step again one step at a time.
// Updates in memory go one step at a time, and pipelines that do not stage compile no blocks: blocks
// from memory test where each load reads, which slowed both folds on lavapipe (docs/reductions.md).
uint foldRunWord(uint current, uint begin, uint end, uint w) {
  uint i = begin;
  if (runUpdatesAreStaged()) {
    for (; end - i >= kAdderBlock; i += kAdderBlock) {
      if (addBlockOnAdder(current, i, w)) continue;
      for (uint k = 0u; k < kAdderBlock; ++k) current = f32AddNative(current, runUpdateWord(i + k, w));
    }
  }
  for (; i < end; ++i) current = f32AddNative(current, runUpdateWord(i, w));
  return current;
}
#else
uint foldRunWord(uint current, uint begin, uint end, uint w) {
  for (uint i = begin; i < end; ++i) current = f32Add(current, runUpdateWord(i, w));
  return current;
}
#endif

// Word by word too, each summed over the whole run: the parts are independent.
void applyRun(uint target, uint begin, uint end) {
  const uint words = ELEMENT_BYTES / 4u;
  uint t = pc.out_word_offset + target * words;
  for (uint w = 0u; w < words; ++w) out_words[t + w] = foldRunWord(out_words[t + w], begin, end, w);
}
#endif
#else
// REDUCTION of any kind. The soft-add modules compile one element width (words for float64 and
// complex128, sub-words for float16 and bfloat16), the others every width, each through one call of
// the arithmetic: SwiftShader compiles every inlined copy (common/scatter_combine.glsl).
#define VKINDEX_COMBINES_WORDS (!VKINDEX_SCATTER_SOFT_ADD || VKINDEX_SCATTER_FLOATS == 2)
#define VKINDEX_COMBINES_SUB_WORDS (!VKINDEX_SCATTER_SOFT_ADD || VKINDEX_SCATTER_FLOATS == 1)

// Update element `source`'s words (an element of 4, 8 or 16 bytes, in the low words).
uvec4 updateWords(uint source) {
  uvec4 update = uvec4(0u);
  for (uint w = 0u; w < ELEMENT_BYTES / 4u; ++w) update[w] = updateWord(source, w);
  return update;
}

// The first word of target element `target` (ELEMENT_BYTES >= 4), and its words.
uint targetWord(uint target) { return pc.out_word_offset + target * (ELEMENT_BYTES / 4u); }

uvec4 loadTargetWords(uint t) {
  uvec4 current = uvec4(0u);
  for (uint w = 0u; w < ELEMENT_BYTES / 4u; ++w) current[w] = out_words[t + w];
  return current;
}

void storeTargetWords(uint t, uvec4 value) {
  for (uint w = 0u; w < ELEMENT_BYTES / 4u; ++w) out_words[t + w] = value[w];
}

// Combines update element `source` into target element `target` with REDUCTION.
void applyElement(uint target, uint source) {
#if !VKINDEX_SCATTER_SOFT_ADD
  if (REDUCTION == kReduceNone) {
    moveElement(target, source);
    return;
  }
#endif
#if VKINDEX_COMBINES_WORDS
  if (ELEMENT_BYTES >= 4u) {
    uint t = targetWord(target);
    storeTargetWords(t, combineWords(loadTargetWords(t), updateWords(source), ELEMENT_BYTES / 4u));
    return;
  }
#endif
#if VKINDEX_COMBINES_SUB_WORDS
  storeSubWordTarget(target, combineSmall(loadSubWordTarget(target), subWordUpdate(source)));
#endif
}

#ifdef VKINDEX_APPLY_RUNS
void applyRun(uint target, uint begin, uint end) {
#if VKINDEX_COMBINES_WORDS
  if (ELEMENT_BYTES >= 4u) {
    uint t = targetWord(target);
    uvec4 current = loadTargetWords(t);
    for (uint i = begin; i < end; ++i) {
      uvec4 update = uvec4(0u);
      for (uint w = 0u; w < ELEMENT_BYTES / 4u; ++w) update[w] = runUpdateWord(i, w);
      current = combineWords(current, update, ELEMENT_BYTES / 4u);
    }
    storeTargetWords(t, current);
    return;
  }
#endif
#if VKINDEX_COMBINES_SUB_WORDS
  uint current = loadSubWordTarget(target);
  for (uint i = begin; i < end; ++i) current = combineSmall(current, runUpdateWord(i, 0u));
  storeSubWordTarget(target, current);
#endif
}
#endif
#endif

#endif
