#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, last passes (common/scatter_buckets_params.h), in one of two modes:
//   - light buckets (pass VKINDEX_NO_PASS): one invocation per owner (bucket_alloc.comp) applies its
//     target's bucket of update positions, which bucket_sort.comp sorted, so duplicates fold in index
//     order as a walk would, with every target at once;
//   - heavy runs (pass k): one invocation per heavy target applies items [k walk_items,
//     (k + 1) walk_items) of its run of sorted positions (heavy_sort_scatter.comp), which are in
//     index order. Passes run in order; they are indirect dispatches that heavy_plan.comp sizes to
//     the heavy targets, and to none past the heaviest run. Where a call has at most most_group_runs
//     heavy targets (GPUs), a workgroup takes each instead: max and min reduce its items of the pass
//     (reduceRun below); the other reductions must fold them one after another, so the workgroup
//     stages their update elements in shared memory, a chunk at a time, for invocation 0 to fold
//     (stageChunk below). Many heavy targets keep one invocation each: a workgroup per run would
//     take waves of workgroups where invocations run all at once.
// Owners never share a target; sub-word elements share words, which common/scatter_apply.glsl
// changes with atomics.
#include "common/spec_ids.h"
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) readonly buffer Updates { uint updates_words[]; };
layout(binding = 1, std430) buffer Out { uint out_words[]; };
layout(binding = 2, std430) buffer Scratch { uint scratch[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/heavy_sort.glsl"
#define VKINDEX_APPLY_RUNS 1
#include "common/scatter_apply.glsl"
#include "common/status_gate.glsl"

// The update element at sorted item i: its position in index order.
uint runSource(uint i) { return scratch[i]; }

// STAGED_RUNS 1: where this heavy pass gives runs workgroups (most_group_runs), they stage the runs'
// update elements in shared memory, a chunk at a time, for invocation 0 to fold (add and mul), and
// runUpdateWord reads them there. One invocation folding straight from memory waits out two
// dependent loads per update, most of a GPU's long run (docs/reductions.md). 0 keeps the light fold's
// loop free of the test, which slows lavapipe's fold. 8 KiB, whatever the workgroup
// size, of the 16 KiB every device has; a word where the pass does not stage.
layout(constant_id = VKINDEX_SPEC_STAGED_RUNS) const uint STAGED_RUNS = 0;
const uint kStagedWords = STAGED_RUNS != 0u ? 2048u : 1u;
const uint kElementWords = ELEMENT_BYTES < 4u ? 1u : ELEMENT_BYTES / 4u;
shared uint staged_words[kStagedWords];
bool stages = false;     // this dispatch stages: staged_words hold items from staged_first on
uint staged_first = 0u;

// common/scatter_apply.glsl's applyRun reads updates through this.
uint runUpdateWord(uint i, uint w) {
  if (STAGED_RUNS != 0u && stages) return staged_words[(i - staged_first) * kElementWords + w];
  return updateWord(runSource(i), w);
}

bool runUpdatesAreStaged() { return STAGED_RUNS != 0u && stages; }

// The workgroup copies the update elements of items [first, end) (at most kStagedWords /
// kElementWords) to staged_words. Every invocation calls it alike.
void stageChunk(uint first, uint end) {
  barrier();  // the previous chunk is folded
  for (uint word = gl_LocalInvocationID.x; word < (end - first) * kElementWords; word += gl_WorkGroupSize.x) {
    staged_words[word] = updateWord(runSource(first + word / kElementWords), word % kElementWords);
  }
  barrier();
  staged_first = first;
}

// The update positions this invocation's `item` applies, scratch[begin, end), and their target: a
// light owner's bucket, or a heavy target's items of this pass.
void itemRange(uint item, bool light, out uint target, out uint begin, out uint end) {
  if (light) {
    target = lightBucket(item, begin, end);
    return;
  }
  uint heavy = bucketControl(VKINDEX_HEAVY_COUNT);
  uint run_begin = scratch[pc.runs_at + item];
  uint run_end = item + 1u < heavy ? scratch[pc.runs_at + item + 1u] : bucketControl(VKINDEX_HEAVY_UPDATES);
  uint sorted = sortedAt(digitPassesNeeded(heavy) - 1u);
  target = scratch[pc.heavy_targets_at + item];
  begin = sorted + min(run_end, run_begin + pc.pass * pc.walk_items);
  end = sorted + min(run_end, run_begin + (pc.pass + 1u) * pc.walk_items);
}

// Max and min keep the earlier of equal elements (+0 and -0 are equal), never take a NaN update and
// never replace a NaN target (common/scatter_combine.glsl). So folding a run in index order gives
// what folding only its earliest largest (max; smallest for min) non-NaN update does, and that
// survives cutting the run into chunks: applied in order, each chunk's winner leaves the target as
// the whole chunk would. A heavy run walked by one invocation leaves a GPU idle
// (docs/reductions.md).
#if VKINDEX_SCATTER_FLOATS == 0 && !VKINDEX_SCATTER_INT32 && !VKINDEX_SCATTER_FLOAT32_ADD
#define VKINDEX_REDUCES_RUNS 1

// Update element `source`'s bits in the low words (sub-word elements right-aligned).
uvec2 updateBits(uint source) {
  return uvec2(updateWord(source, 0u), ELEMENT_BYTES == 8u ? updateWord(source, 1u) : 0u);
}

bool isNaNBits(uvec2 v) {
  if (ELEMENT_KIND == kKindFloat32) return (v.x & 0x7FFFFFFFu) > 0x7F800000u;
  if (ELEMENT_KIND == kKindFloat16) return (v.x & 0x7FFFu) > 0x7C00u;
  if (ELEMENT_KIND == kKindBFloat16) return (v.x & 0x7FFFu) > 0x7F80u;
  if (ELEMENT_KIND == kKindFloat64) return isNaN64(v);
  return false;
}

// Whether `update` would replace `current`, neither a NaN.
bool replacesBits(uvec2 update, uvec2 current) {
  uvec2 larger = REDUCTION == kReduceMax ? update : current;
  uvec2 smaller = REDUCTION == kReduceMax ? current : update;
  if (ELEMENT_BYTES < 4u) return smallGreater(larger.x, smaller.x);
  if (ELEMENT_BYTES == 4u) return greater32(larger.x, smaller.x);
  return greater2(larger, smaller);
}

const uint kNoWinner = 0xFFFFFFFFu;
shared uint chunk_winners[gl_WorkGroupSize.x];

// Heavy target `item`'s items of this pass, reduced by the workgroup: each invocation finds the winner
// of a contiguous chunk (its sorted item, or kNoWinner where every update is a NaN), then invocation 0
// moves the winners' positions, in order, to the front of the pass's items (read by then) and gets
// them as its range to apply. The other invocations get an empty range and must not apply it: the
// target is invocation 0's.
void reduceRun(uint item, out uint target, out uint begin, out uint end) {
  uint heavy = bucketControl(VKINDEX_HEAVY_COUNT);
  uint run_begin = scratch[pc.runs_at + item];
  uint run_end = item + 1u < heavy ? scratch[pc.runs_at + item + 1u] : bucketControl(VKINDEX_HEAVY_UPDATES);
  uint sorted = sortedAt(digitPassesNeeded(heavy) - 1u);
  target = scratch[pc.heavy_targets_at + item];
  uint first = min(run_end, run_begin + pc.pass * pc.walk_items);
  uint last = min(run_end, first + pc.walk_items);
  uint chunk = divideRoundingUp(last - first, gl_WorkGroupSize.x);
  uint chunk_first = min(last, first + gl_LocalInvocationID.x * chunk);
  uint chunk_last = min(last, chunk_first + chunk);
  uint winner = kNoWinner;
  uvec2 best = uvec2(0u);
  for (uint i = chunk_first; i < chunk_last; ++i) {
    uvec2 value = updateBits(runSource(sorted + i));
    if (isNaNBits(value) || (winner != kNoWinner && !replacesBits(value, best))) continue;
    winner = i;
    best = value;
  }
  barrier();  // the previous target's winners are read
  chunk_winners[gl_LocalInvocationID.x] = winner;
  barrier();
  begin = sorted + first;
  end = begin;
  if (gl_LocalInvocationID.x != 0u) return;
  for (uint lane = 0u; lane < gl_WorkGroupSize.x; ++lane) {
    uint won = chunk_winners[lane];
    if (won == kNoWinner) continue;
    scratch[end] = scratch[sorted + won];  // won >= end - sorted: read before it is overwritten
    ++end;
  }
}
#endif

void main() {
  if (badIndexFound()) return;
  bool light = pc.pass == VKINDEX_NO_PASS;
  uint items = bucketControl(light ? VKINDEX_OWNER_COUNT : VKINDEX_HEAVY_COUNT);
  bool by_group = !light && items <= pc.most_group_runs;  // the same in every invocation
#if VKINDEX_REDUCES_RUNS
  bool reduces = by_group && (REDUCTION == kReduceMax || REDUCTION == kReduceMin);
#else
  const bool reduces = false;
#endif
  stages = by_group && STAGED_RUNS != 0u;  // planned where reduces cannot be
  // By group, invocation 0 alone applies: the target is its own.
  bool applies = !by_group || gl_LocalInvocationID.x == 0u;
  uint first = by_group ? groupIndex() : firstInvocationItem();
  uint stride = by_group ? groupCount() : invocationStride();
  // Every mode shares one applyRun call: each call site is a copy of the arithmetic, which
  // SwiftShader compiles whether or not it runs (common/scatter_combine.glsl).
  for (uint item = first; item < items; item += stride) {
    uint target, begin, end;
#if VKINDEX_REDUCES_RUNS
    if (reduces) {
      reduceRun(item, target, begin, end);  // its barriers: every invocation of the group takes this loop alike
    } else {
      itemRange(item, light, target, begin, end);
    }
#else
    itemRange(item, light, target, begin, end);
#endif
    // Staged, a chunk at a time; the bounds are the same in every invocation of the group, so all
    // of them reach stageChunk's barriers alike.
    uint chunk_end = begin;
    do {
      uint chunk_first = chunk_end;
      chunk_end = stages ? min(end, chunk_first + kStagedWords / kElementWords) : end;
      if (stages) stageChunk(chunk_first, chunk_end);
      if (applies) applyRun(target, chunk_first, chunk_end);
    } while (chunk_end < end);
  }
}
