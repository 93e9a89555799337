#version 450
#extension GL_GOOGLE_include_directive : require
// ScatterElements: one invocation per line (every coordinate but the axis), walking the axis in index
// order, so duplicates within a line combine in order and distinct lines never share a target. A pass
// writes only the targets of its output window (see common/scatter_elements_params.h).
#include "common/scatter_elements_params.h"

layout(local_size_x_id = 0) in;
#include "common/grid.glsl"
// Coalesced dims (1..VKINDEX_MAX_ELEMENT_DIMS); a constant so the coordinate loop unrolls.
layout(constant_id = 5) const uint DIM_COUNT = 1;

layout(binding = 0, std430) readonly buffer Updates { uint updates_words[]; };
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 2, std430) buffer Out { uint out_words[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/scatter_apply.glsl"
#include "common/status_gate.glsl"

void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  // One output window (most calls) is [0, 2^32-1): a test lavapipe can leave out, where a per-update
  // test ran a ScatterElements permutation 5-15% slower (`vkindex bench` scatter-perm).
  bool every_target = pc.target_begin == 0u && pc.target_end == 0xFFFFFFFFu;
  for (uint step = first; step < pc.line_count; step += stride) {
    // The line's coordinates: its data element with axis coordinate 0, its first update, and the
    // step between updates along the axis.
    uint rest = pc.first_line + step;
    uint data_base = 0u, update_base = 0u, update_stride = 1u, axis_update_stride = 1u;
    for (uint j = DIM_COUNT; j-- > 0u;) {
      uint extent = pc.extents[j];
      if (j == pc.axis_dim) {
        axis_update_stride = update_stride;
      } else {
        uint coordinate = rest % extent;
        rest /= extent;
        data_base += coordinate * pc.data_strides[j];
        update_base += coordinate * update_stride;
      }
      update_stride *= extent;
    }
    uint axis_stride = pc.data_strides[pc.axis_dim];
    for (uint i = pc.axis_begin; i < pc.axis_end; ++i) {
      uint position = update_base + i * axis_update_stride;
      uint index = loadCheckedIndex(pc.indices_word_offset, position, pc.axis_size);
      uint target = data_base + index * axis_stride;
      if (every_target || (target >= pc.target_begin && target < pc.target_end)) applyElement(target, position);
    }
  }
}
