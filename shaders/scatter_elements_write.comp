#version 450
#extension GL_GOOGLE_include_directive : require
// ScatterElements with reduction none, second pass: one invocation per update; it writes only if it
// won its data element in scatter_elements_claim.comp's table, so every target gets exactly the last
// update in index order, with no walk and no order between invocations. A pass writes only the
// targets of its output window (common/scatter_elements_params.h).
// Built again with VKINDEX_WRITE_BY_TARGET (scatter_elements_write_by_target): the same writes driven
// by the table instead of the updates, where the whole table was zeroed (at least as many updates as
// data elements) and one pass holds every update and target. One invocation per data element of
// [target_begin, target_end) reads its table word and copies the winning update, if any: the table
// and the output stream in order, and only the winners' updates are read at random, where the pass
// per update read the table and wrote the output at random (faster on lavapipe for the bench's
// scatter-1d-perm: docs/scatter-strategies.md).
#include "common/spec_ids.h"
#include "common/scatter_elements_params.h"

// Only reduction none comes here, or (VKINDEX_SCATTER_ATOMIC, the *_atomic modules) an integer
// reduction that gives the same bits in any order, applied by every update at once with atomics and
// no winner table: the other reductions' code stays out (see common/scatter_apply.glsl).
#ifndef VKINDEX_SCATTER_ATOMIC
#define VKINDEX_SCATTER_ATOMIC 0
#endif
#ifndef VKINDEX_WRITE_BY_TARGET
#define VKINDEX_WRITE_BY_TARGET 0
#endif
#if !VKINDEX_SCATTER_ATOMIC
#define VKINDEX_SCATTER_MOVE_ONLY 1
#endif

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) readonly buffer Updates { uint updates_words[]; };
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 2, std430) buffer Out { uint out_words[]; };
#if VKINDEX_SCATTER_ATOMIC
layout(binding = 2, std430) buffer OutInts { int out_ints[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };
#else
layout(binding = 3, std430) readonly buffer Winners { uint winners[]; };
layout(binding = 4, std430) buffer Status { uint status_words[]; };
#endif

#include "common/indices.glsl"
#include "common/element_lines.glsl"
#include "common/scatter_apply.glsl"
#include "common/status_gate.glsl"

#if VKINDEX_WRITE_BY_TARGET
void main() {
  if (badIndexFound()) return;
  uint count = pc.target_end - pc.target_begin;
  for (uint item = firstInvocationItem(); item < count; item += invocationStride()) {
    uint target = pc.target_begin + item;
    uint winner = winners[target];
    if (winner != 0u) applyElement(target, winner - 1u);
  }
}
#else
void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint count = passUpdateCount();
  for (uint item = firstInvocationItem(); item < count; item += stride) {
    uint position, target;
    locateUpdate(item, position, target);
    // A skipped update (kSkippedIndex) writes nothing; a one-window pass's target_end may be 2^32-1.
    bool in_window = target != kSkippedIndex && target >= pc.target_begin && target < pc.target_end;
#if VKINDEX_SCATTER_ATOMIC
    if (in_window) applyElement(target, position);
#else
    if (in_window && winners[target] == position + 1u) applyElement(target, position);
#endif
  }
}
#endif
