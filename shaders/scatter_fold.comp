#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, last passes (common/scatter_buckets_params.h), in one of two modes:
//   - light buckets (pass VKINDEX_NO_PASS): one invocation per owner (bucket_alloc.comp) applies its
//     target's bucket of update positions, which bucket_sort.comp sorted, so duplicates fold in index
//     order as a walk would, with every target at once;
//   - heavy runs (pass k): one invocation per heavy target applies items [k walk_items,
//     (k + 1) walk_items) of its run of sorted positions (heavy_sort_scatter.comp), which are in
//     index order. Passes run in order; they are indirect dispatches that heavy_plan.comp sizes to
//     the heavy targets, and to none past the heaviest run. With run_workgroups (max and min), a
//     workgroup reduces each heavy target's items of the pass instead (reduceRun below).
// Owners never share a target; sub-word elements share words, which common/scatter_apply.glsl
// changes with atomics.
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = 0) in;
#include "common/grid.glsl"

layout(binding = 0, std430) readonly buffer Updates { uint updates_words[]; };
layout(binding = 1, std430) buffer Out { uint out_words[]; };
layout(binding = 2, std430) buffer Scratch { uint scratch[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/heavy_sort.glsl"
// The update element at sorted item i: its position in index order (common/scatter_apply.glsl's applyRun).
uint runSource(uint i) { return scratch[i]; }
#define VKINDEX_APPLY_RUNS 1
#include "common/scatter_apply.glsl"
#include "common/status_gate.glsl"

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
// the whole chunk would. A heavy run of 4M float32 maxima onto one target, walked by one
// invocation, took an NVIDIA H200 130 ms.
#if VKINDEX_SCATTER_FLOATS == 0 && !VKINDEX_SCATTER_INT32 && !VKINDEX_SCATTER_FLOAT32_ADD
#define VKINDEX_REDUCES_RUNS 1

// Update element `source`'s bits in the low words (sub-word elements right-aligned).
uvec2 updateBits(uint source) {
  if (ELEMENT_BYTES < 4u) return uvec2(subWordUpdate(source), 0u);
  uint s = pc.updates_word_offset + source * (ELEMENT_BYTES / 4u);
  return uvec2(updates_words[s], ELEMENT_BYTES == 8u ? updates_words[s + 1u] : 0u);
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
#if VKINDEX_REDUCES_RUNS
  bool by_group = !light && pc.run_workgroups != 0u;  // the same in every invocation
#else
  const bool by_group = false;
#endif
  uint first = by_group ? groupIndex() : firstInvocationItem();
  uint stride = by_group ? groupCount() : invocationStride();
  // Both modes share one applyRun call: each call site is a copy of the arithmetic, which
  // SwiftShader compiles whether or not it runs (common/scatter_combine.glsl).
  for (uint item = first; item < items; item += stride) {
    uint target, begin, end;
#if VKINDEX_REDUCES_RUNS
    if (by_group) {
      reduceRun(item, target, begin, end);  // its barriers: every invocation of the group takes this loop alike
      if (gl_LocalInvocationID.x != 0u) continue;
    } else {
      itemRange(item, light, target, begin, end);
    }
#else
    itemRange(item, light, target, begin, end);
#endif
    applyRun(target, begin, end);
  }
}
