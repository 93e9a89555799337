#version 450
#extension GL_GOOGLE_include_directive : require
// ScatterND with reduction none, second pass: one invocation per update element; it writes only if
// its tuple won its data row in scatter_nd_claim.comp's table, so every target gets exactly the last
// update in index order, with no walk and no order between invocations. A pass writes only the
// targets of its output window (common/scatter_nd_params.h).
// Built again with VKINDEX_WRITE_BY_TARGET (scatter_nd_write_by_target): as
// scatter_elements_write.comp's by-target module, one invocation per data element of
// [target_begin, target_end), for narrow slices where the whole table was zeroed and one pass holds
// every tuple and target: the table and the output stream, the winners' updates are read at random.
#include "common/spec_ids.h"
#include "common/scatter_nd_params.h"

// Only reduction none comes here, or (VKINDEX_SCATTER_ATOMIC, the *_atomic modules) an integer
// reduction that gives the same bits in any order, applied by every update at once with atomics and
// no winner table: the other reductions' code stays out (see common/scatter_apply.glsl).
#ifndef VKINDEX_SCATTER_ATOMIC
#define VKINDEX_SCATTER_ATOMIC 0
#endif
#if !VKINDEX_SCATTER_ATOMIC
#define VKINDEX_SCATTER_MOVE_ONLY 1
#endif
#ifndef VKINDEX_WRITE_BY_TARGET
#define VKINDEX_WRITE_BY_TARGET 0
#endif

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
layout(constant_id = VKINDEX_SPEC_TUPLE_LENGTH) const uint TUPLE_LENGTH = 1;

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
#include "common/index_tuples.glsl"
#include "common/scatter_apply.glsl"
#include "common/status_gate.glsl"

#if VKINDEX_WRITE_BY_TARGET
void main() {
  if (badIndexFound()) return;
  uint count = pc.target_end - pc.target_begin;
  for (uint item = firstInvocationItem(); item < count; item += invocationStride()) {
    uint target = pc.target_begin + item;
    uint row = pc.slice_elements == 1u ? target : target / pc.slice_elements;
    uint winner = winners[row];
    if (winner != 0u) applyElement(target, (winner - 1u) * pc.slice_elements + (target - row * pc.slice_elements));
  }
}
#else
void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  uint update_count = (pc.end_tuple - pc.first_tuple) * pc.slice_elements;
  for (uint i = first; i < update_count; i += stride) {
    uint n = pc.first_tuple + i / pc.slice_elements;
    uint element = i - (n - pc.first_tuple) * pc.slice_elements;
    uint row = tupleRow(n);
    if (row == kSkippedIndex) continue;  // the skip policy: this tuple writes nothing
    uint target = row * pc.slice_elements + element;
    bool in_window = target >= pc.target_begin && target < pc.target_end;
#if VKINDEX_SCATTER_ATOMIC
    if (in_window) applyElement(target, n * pc.slice_elements + element);
#else
    if (in_window && winners[row] == n + 1u) applyElement(target, n * pc.slice_elements + element);
#endif
  }
}
#endif
