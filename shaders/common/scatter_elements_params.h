// Push constants of scatter_elements.comp: one invocation per line (all coordinates but the axis)
// walks the axis in index order, so duplicates combine deterministically (last wins for none;
// reductions fold in order) and distinct lines never share a target element. The dims are
// GatherElements' coalesced view (src/plan/gather_elements_plan.hpp). Offsets are in 32-bit words:
// every tensor starts at a multiple of 4 bytes. A tensor larger than one binding is bound a window at
// a time: a pass walks a range of lines whose updates and indices lie in their windows, and writes
// only the targets in [target_begin, target_end), those of its output window; a window that starts
// past its tensor's first element gives a word offset below zero, kept modulo 2^32, which every
// address the kernel forms brings back inside the window.
#ifndef VKINDEX_SCATTER_ELEMENTS_PARAMS_H
#define VKINDEX_SCATTER_ELEMENTS_PARAMS_H
#include "abi.h"

VKINDEX_PUSH_BLOCK_BEGIN(ScatterElementsParams)
  uint status_slot;          // the check pass's status slot; a set slot means "write nothing"
  uint first_line;           // this pass walks lines [first_line, first_line + line_count), lines
  uint line_count;           // being numbered row-major over every coordinate but the axis
  uint axis_extent;          // updates along the axis (indices' extent of the axis dim)
  uint axis_begin;           // this pass applies the updates at axis positions [begin, end) of every
  uint axis_end;             // line (passes run in order; see DeviceInfo::max_walk_steps)
  uint axis_size;            // s = data.shape[axis]: index values lie in [-s, s-1]
  uint updates_word_offset;  // where updates start in their binding, in words
  uint out_word_offset;      // where the output (or in-place data) starts in its binding, in words
  uint indices_word_offset;  // where indices start in their binding, in words
  uint axis_dim;             // the coalesced dim the index replaces
  uint target_begin;         // data elements this pass may write: [target_begin, target_end), numbered
  uint target_end;           // from data's first element; [0, 0xFFFFFFFF) in a single window
  // Where line 0 starts: 0, except in a block of more than VKINDEX_MAX_ELEMENT_DIMS dims
  // (src/plan/element_blocks.hpp), whose data elements and update positions count from these.
  uint data_element_base;
  uint update_element_base;
  uint extents[VKINDEX_MAX_ELEMENT_DIMS];       // indices (= updates) extents, row-major
  uint data_strides[VKINDEX_MAX_ELEMENT_DIMS];  // data element strides of the same dims
VKINDEX_PUSH_BLOCK_END(ScatterElementsParams)

#endif
