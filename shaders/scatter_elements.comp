#version 450
#extension GL_GOOGLE_include_directive : require
// ScatterElements: one invocation per line (every coordinate but the axis), walking the axis in index
// order, so duplicates within a line combine in order and distinct lines never share a target. A pass
// writes only the targets of its output window (see common/scatter_elements_params.h). With
// VKINDEX_SELF_CHECK (scatter_elements_move_checked: a few updates in place in one pass) every invocation
// does the index check and report passes' work first, as scatter_nd_move_checked does.
#include "common/spec_ids.h"
#include "common/scatter_elements_params.h"

#ifndef VKINDEX_SELF_CHECK
#define VKINDEX_SELF_CHECK 0
#endif

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) readonly buffer Updates { uint updates_words[]; };
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 2, std430) buffer Out { uint out_words[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/element_lines.glsl"
#include "common/scatter_apply.glsl"
#include "common/status_gate.glsl"
#if VKINDEX_SELF_CHECK
const uint TUPLE_LENGTH = 1u;
#define VKINDEX_SELF_CHECK_EXTENT(position) pc.axis_size
#include "common/self_check.glsl"
#endif

void main() {
#if VKINDEX_SELF_CHECK
  // A single pass over every line from the first and every axis position (the planner's choice): its
  // updates, and so its indices, are the tensor's line_count x axis_extent elements.
  if (checkAndReport(pc.line_count * pc.axis_extent)) return;
#else
  if (badIndexFound()) return;
#endif
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  // One output window (most calls) is [0, 2^32-1): a test lavapipe can leave out, where a per-update
  // test slowed a ScatterElements permutation (docs/scatter-strategies.md).
  bool every_target = pc.target_begin == 0u && pc.target_end == 0xFFFFFFFFu;
  for (uint step = first; step < pc.line_count; step += stride) {
    LineStart line = lineStart(pc.first_line + step);
    uint axis_stride = pc.data_strides[pc.axis_dim];
    for (uint i = pc.axis_begin; i < pc.axis_end; ++i) {
      uint position = line.update_base + i * line.axis_update_stride;
      uint index = loadCheckedIndex(pc.indices_word_offset, position, pc.axis_size);
      if (index == kSkippedIndex) continue;  // the skip policy: this update takes no part
      uint target = line.data_base + index * axis_stride;
      if (every_target || (target >= pc.target_begin && target < pc.target_end)) applyElement(target, position);
    }
  }
}
