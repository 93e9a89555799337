// Push constants of gather_rows.comp, which serves Gather (k = 1) and GatherND (k-component tuples).
// Both are viewed as rows: data is (outer, A, row) and the output (outer, N, row), where a row is the
// contiguous run of bytes after the addressed dims, and output row (o, n) copies data row
// (o, tuple(o, n)), the tuple at indices position o * index_outer_stride + n read as a row-major
// position within A = extents[0] x ... x extents[k-1]. One dispatch (a "pass") writes a range of
// output rows from a range of data rows; passes exist so that tensors larger than
// maxStorageBufferRange can be bound a window at a time. All values fit 32 bits: the planner splits
// passes so that they do.
#ifndef VKINDEX_GATHER_ROWS_PARAMS_H
#define VKINDEX_GATHER_ROWS_PARAMS_H
#include "abi.h"

// Short rows: at most this many units. With one lane per segment, in a pass of whole outer slices
// sharing their tuples (Gather) with at least one block of slices, they are copied column by column:
// one invocation per row position n and block (gather_rows.comp's copyColumns; the planner sizes its
// grid by the same test). Other rows shorter than a segment go row by row (copyShortRows). Columns up
// to 16 units (the bench's middle-axis, 256-byte rows) gained nothing on lavapipe with random indices
// (docs/gather-kernels.md).
#define VKINDEX_SHORT_ROW_UNITS 4u

VKINDEX_PUSH_BLOCK_BEGIN(GatherRowsParams)
  uint status_slot;       // the check pass's status slot; a set slot means "write nothing"
  uint row_units;         // units per row (bytes per row / UNIT_BYTES)
  // Copy units: segments of ROW_LANES x ITEMS units per row (the last may be partial). Sub-word
  // units: row_units (a segment is one unit).
  uint segments_per_row;
  uint segments_per_row_multiplier;  // fast division by segments_per_row (src/plan/fast_division.hpp)
  uint segments_per_row_shift;
  uint index_count;       // N: rows per outer slice of the output
  uint index_count_multiplier;  // fast division by index_count
  uint index_count_shift;
  uint axis_size;         // A: rows per outer slice of the data
  uint pass_rows;         // output rows written by this pass
  uint first_outer;       // (outer, index) coordinates of the pass's first output row
  uint first_index;
  uint data_row_begin;    // data rows [begin, end) are bound in this pass (row = outer * A + a)
  uint data_row_end;
  uint data_unit_offset;  // where data row `data_row_begin` starts in the data binding, in units
  uint out_unit_offset;   // where the pass's first output row starts in the output binding, in units
  uint out_word_count;    // sub-word units: output words this pass owns (from word 0 of the binding)
  uint indices_word_offset;  // where tuple `index_window_begin` starts in its binding, in 32-bit words
  uint index_window_begin;   // first tuple position bound in this pass
  uint index_outer_stride;   // 0: every outer slice reads the same N tuples (Gather); N: its own (GatherND)
  uint extents[VKINDEX_MAX_TUPLE_LENGTH];  // sizes of the dims the k tuple components address (k: a
                                           // specialization constant)
VKINDEX_PUSH_BLOCK_END(GatherRowsParams)

#endif
