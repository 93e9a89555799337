#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, last passes (common/scatter_buckets_params.h), in one of two modes:
//   - light buckets (pass VKINDEX_NO_PASS): one invocation per owner (bucket_alloc.comp) applies its
//     target's bucket of update positions, which bucket_sort.comp sorted, so duplicates fold in index
//     order as a walk would, with every target at once;
//   - heavy runs (pass k): one invocation per heavy target applies items [k walk_items,
//     (k + 1) walk_items) of its run of sorted positions (heavy_sort_scatter.comp), which are in
//     index order. Passes run in order; they are indirect dispatches that heavy_plan.comp sizes to
//     the heavy targets, and to none past the heaviest run.
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

void main() {
  if (badIndexFound()) return;
  bool light = pc.pass == VKINDEX_NO_PASS;
  uint items = bucketControl(light ? VKINDEX_OWNER_COUNT : VKINDEX_HEAVY_COUNT);
  // Both modes share one applyRun call: each call site is a copy of the arithmetic, which
  // SwiftShader compiles whether or not it runs (common/scatter_combine.glsl).
  for (uint item = firstInvocationItem(); item < items; item += invocationStride()) {
    uint target, begin, end;
    itemRange(item, light, target, begin, end);
    applyRun(target, begin, end);
  }
}
