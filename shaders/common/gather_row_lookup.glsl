// The row lookup shared by the row-gather kernels (gather_rows.comp, gather_row_bytes.comp): which
// bound data row feeds an output row of the pass. Expects the push block `pc` of
// common/gather_rows_params.h, an `indices_words` binding, TUPLE_LENGTH, and common/indices.glsl;
// tupleRow() is common/index_tuples.glsl's.
#ifndef VKINDEX_GATHER_ROW_LOOKUP_GLSL
#define VKINDEX_GATHER_ROW_LOOKUP_GLSL

#include "fast_division.glsl"
#include "index_tuples.glsl"

const uint kNotBound = 0xFFFFFFFFu;
// An output row whose tuple the skip policy skipped: the pass writes zeros there. Never a bound data
// row, as a pass binds fewer than 2^30 rows.
const uint kZeroRow = 0xFFFFFFFEu;

// The data row feeding output row (outer, n), relative to the first bound data row, or kNotBound
// when that row lies in another pass's data window. A skipped tuple (skip policy) gives kZeroRow in
// the one pass that binds its outer slice's first data row, so one pass zeros each such output row.
uint boundDataRowAt(uint outer, uint n) {
  uint axis_row = tupleRow(outer * pc.index_outer_stride + n - pc.index_window_begin);
  bool skipped = skipsIndices() && axis_row == kSkippedIndex;
  uint row = outer * pc.axis_size + (skipped ? 0u : axis_row);
  if (row < pc.data_row_begin || row >= pc.data_row_end) return kNotBound;
  return skipped ? kZeroRow : row - pc.data_row_begin;
}

// The (outer, n) coordinates of the output row `pass_row` rows after the pass's first row.
uvec2 passRowCoordinates(uint pass_row) {
  uint index_row = pc.first_index + pass_row;
  uint outer_step = fastDivide(index_row, pc.index_count, pc.index_count_multiplier, pc.index_count_shift);
  return uvec2(pc.first_outer + outer_step, index_row - outer_step * pc.index_count);
}

// The coordinates of the output row after (outer, n) = `at`.
uvec2 nextRowCoordinates(uvec2 at) {
  return at.y + 1u == pc.index_count ? uvec2(at.x + 1u, 0u) : uvec2(at.x, at.y + 1u);
}

// The same for the output row `pass_row` rows after the pass's first row.
uint boundDataRow(uint pass_row) {
  uvec2 at = passRowCoordinates(pass_row);
  return boundDataRowAt(at.x, at.y);
}

#endif
