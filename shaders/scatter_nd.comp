#version 450
#extension GL_GOOGLE_include_directive : require
// ScatterND: one invocation per element of a slice, walking every index tuple in order, so duplicate
// tuples combine in index order and distinct invocations never share a target element. A pass writes
// only the targets of its output window (common/scatter_nd_params.h). With VKINDEX_SELF_CHECK
// (scatter_nd_move_checked, for a few tuples in place) every invocation does the index check and
// report passes' work first, as the gather_rows_checked modules do.
#include "common/spec_ids.h"
#include "common/scatter_nd_params.h"

#ifndef VKINDEX_SELF_CHECK
#define VKINDEX_SELF_CHECK 0
#endif

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
// k, the index tuple length; a constant so the component loop unrolls.
layout(constant_id = VKINDEX_SPEC_TUPLE_LENGTH) const uint TUPLE_LENGTH = 1;

layout(binding = 0, std430) readonly buffer Updates { uint updates_words[]; };
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 2, std430) buffer Out { uint out_words[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/index_tuples.glsl"
#include "common/scatter_apply.glsl"
#include "common/status_gate.glsl"
#if VKINDEX_SELF_CHECK
#include "common/self_check.glsl"
#endif

void main() {
#if VKINDEX_SELF_CHECK
  // A single pass over every tuple from the first, few of them (the planner's choice).
  if (checkAndReport(pc.end_tuple)) return;
#else
  if (badIndexFound()) return;
#endif
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  for (uint element = first; element < pc.slice_elements; element += stride) {
    for (uint n = pc.first_tuple; n < pc.end_tuple; ++n) {
      uint row = tupleRow(n);
      if (row == kSkippedIndex) continue;  // the skip policy: this tuple takes no part
      uint target = row * pc.slice_elements + element;
      if (target >= pc.target_begin && target < pc.target_end) applyElement(target, n * pc.slice_elements + element);
    }
  }
}
