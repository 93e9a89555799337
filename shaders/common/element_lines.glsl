// ScatterElements' lines: every coordinate but the axis, numbered row-major (see
// common/scatter_elements_params.h), and the update positions a pass covers. The including shader
// declares the push block `pc` and, for locateUpdate, `indices_words` and common/indices.glsl.
#ifndef VKINDEX_ELEMENT_LINES_GLSL
#define VKINDEX_ELEMENT_LINES_GLSL
#include "common/spec_ids.h"

// Coalesced dims (1..VKINDEX_MAX_ELEMENT_DIMS); a constant so the coordinate loop unrolls.
layout(constant_id = VKINDEX_SPEC_DIM_COUNT) const uint DIM_COUNT = 1;

// Where line `line` starts: its data element with axis coordinate 0, its update at axis position 0,
// and the step between its updates along the axis. Lines of a peeled block count from its bases.
struct LineStart {
  uint data_base;
  uint update_base;
  uint axis_update_stride;
};

LineStart lineStart(uint line) {
  LineStart start = LineStart(pc.data_element_base, pc.update_element_base, 1u);
  uint rest = line, update_stride = 1u;
  for (uint j = DIM_COUNT; j-- > 0u;) {
    uint extent = pc.extents[j];
    if (j == pc.axis_dim) {
      start.axis_update_stride = update_stride;
    } else {
      uint coordinate = rest % extent;
      rest /= extent;
      start.data_base += coordinate * pc.data_strides[j];
      start.update_base += coordinate * update_stride;
    }
    update_stride *= extent;
  }
  return start;
}

// Updates a pass covers: its lines times its axis range (at most the updates' element count).
uint passUpdateCount() { return pc.line_count * (pc.axis_end - pc.axis_begin); }

// The pass's update `item` (0 <= item < passUpdateCount()): its position in updates and indices, and
// the data element its index addresses, or kSkippedIndex under the skip policy for an index outside
// [0, s-1] (no data element is numbered so: the planners keep element counts below 2^32). Items run
// along the axis when the axis is the innermost dim, else across lines, so neighbouring invocations
// read neighbouring updates and indices.
void locateUpdate(uint item, out uint position, out uint target) {
  uint axis_count = pc.axis_end - pc.axis_begin;
  uint line_step, axis_step;
  if (pc.axis_dim == DIM_COUNT - 1u) {
    line_step = item / axis_count;
    axis_step = item - line_step * axis_count;
  } else {
    axis_step = item / pc.line_count;
    line_step = item - axis_step * pc.line_count;
  }
  LineStart start = lineStart(pc.first_line + line_step);
  position = start.update_base + (pc.axis_begin + axis_step) * start.axis_update_stride;
  uint index = loadCheckedIndex(pc.indices_word_offset, position, pc.axis_size);
  target = index == kSkippedIndex ? kSkippedIndex : start.data_base + index * pc.data_strides[pc.axis_dim];
}

#endif
