// Push constants of gather.comp. Gather is viewed as rows: data is (outer, axis, row) and the output
// (outer, indices, row), where a row is the contiguous run of bytes after the axis. One dispatch (a
// "pass") writes a range of output rows from a range of data rows; passes exist only so that tensors
// larger than maxStorageBufferRange can be bound a window at a time. All values fit 32 bits: the
// planner splits passes so that they do.
#ifndef VKINDEX_GATHER_PARAMS_H
#define VKINDEX_GATHER_PARAMS_H
#include "abi.h"

VKINDEX_PUSH_BLOCK_BEGIN(GatherParams)
  uint row_units;        // units per row (bytes per row / UNIT_BYTES)
  uint row_units_multiplier;  // fast division by row_units (src/plan/fast_division.hpp)
  uint row_units_shift;
  uint index_count;      // N: rows per outer slice of the output
  uint index_count_multiplier;  // fast division by index_count
  uint index_count_shift;
  uint axis_size;        // A: rows per outer slice of the data
  uint pass_rows;        // output rows written by this pass
  uint first_outer;      // (outer, index) coordinates of the pass's first output row
  uint first_index;
  uint data_row_begin;   // data rows [begin, end) are bound in this pass (row = outer * A + a)
  uint data_row_end;
  uint data_unit_offset; // where data row `data_row_begin` starts in the data binding, in units
  uint out_unit_offset;  // where the pass's first output row starts in the output binding, in units
  uint out_word_count;   // sub-word units: output words this pass owns (from word 0 of the binding)
  uint status_slot;      // the check pass's status slot; a set slot means "write nothing"
  uint indices_word_offset;  // where index `index_window_begin` starts in its binding, in 32-bit words
  uint index_window_begin;   // first index position bound in this pass
  uint report_bad_index;     // 1: on a set status slot, the first invocation records the bad value
VKINDEX_PUSH_BLOCK_END(GatherParams)

#endif
