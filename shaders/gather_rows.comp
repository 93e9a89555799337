#version 450
#extension GL_GOOGLE_include_directive : require
// Gather and GatherND, type-agnostic: output row (outer, n) is a copy of the data row the index tuple
// of (outer, n) addresses (see common/gather_rows_params.h). This kernel takes rows of whole words,
// copied in units of VKINDEX_UNIT_BYTES (16, 8 or 4: one module each, since bindings aliased at
// three widths made SwiftShader slower even with two of them dead), a segment (ROW_LANES x
// ITEMS units of one row, or whole short rows) per group of ROW_LANES invocations. Other rows:
// gather_row_bytes.comp.
// With VKINDEX_SELF_CHECK (the *_checked modules, one per copy path as for the plain ones) every
// invocation also does the index check and report passes' work first, for operations with few indices,
// where three dispatches cost more than the data (the planner uses them for a single pass holding
// every tuple).
#include "common/spec_ids.h"
#include "common/gather_rows_params.h"

#ifndef VKINDEX_UNIT_BYTES
#define VKINDEX_UNIT_BYTES 16
#endif
#ifndef VKINDEX_SELF_CHECK
#define VKINDEX_SELF_CHECK 0
#endif
// The copy path this module holds (plan::RowPath), one per module, self-checking or not. SwiftShader
// runs a path slower in a module that holds the others, reachable or not, and a branch on a
// specialization constant in place of the preprocessor saved nothing (docs/gather-kernels.md).
#define VKINDEX_ROW_PATH_SEGMENTS 1
#define VKINDEX_ROW_PATH_SHORT_ROWS 2
#define VKINDEX_ROW_PATH_COLUMNS 3
#ifndef VKINDEX_ROW_PATH
#define VKINDEX_ROW_PATH VKINDEX_ROW_PATH_SEGMENTS
#endif

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
// Units each invocation moves per row segment.
layout(constant_id = VKINDEX_SPEC_ITEMS) const uint ITEMS_PER_INVOCATION = 4;
// Invocations that share one row segment, interleaved unit by unit (a power of two that divides the
// workgroup size). The row's index tuple is read and checked once per segment, so long segments
// amortize it; see Tuning::row_lanes for the per-device choice.
layout(constant_id = VKINDEX_SPEC_ROW_LANES) const uint ROW_LANES = 1;
// k, the index tuple length (1 for Gather); a constant so the component loop unrolls.
layout(constant_id = VKINDEX_SPEC_TUPLE_LENGTH) const uint TUPLE_LENGTH = 1;

#include "common/unit_type.glsl"
layout(binding = 0, std430) readonly buffer Data { UNIT data_units[]; };
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 2, std430) writeonly buffer Out { UNIT out_units[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/gather_row_lookup.glsl"
#include "common/status_gate.glsl"
#include "common/batched_copy.glsl"

#if VKINDEX_SELF_CHECK
#include "common/self_check.glsl"
#endif

// A segment is ROW_LANES x ITEMS_PER_INVOCATION units: a piece of a longer row (segments_per_row > 1),
// or as many whole rows as fit in it (segments_per_row == 1). Whole-row segments keep one invocation
// streaming ~256 units on CPU drivers whatever the row length: segments of one short row spend
// lavapipe's time in loop and launch overhead (docs/gather-kernels.md).
const uint kSegmentUnits = ROW_LANES * ITEMS_PER_INVOCATION;

uint rowsPerSegment() { return pc.segments_per_row == 1u ? max(1u, kSegmentUnits / max(pc.row_units, 1u)) : 1u; }

// This invocation's units of a whole segment, [begin, begin + kSegmentUnits) of one row, four at a
// time (common/batched_copy.glsl). Rows shorter than a segment keep the plain loop below: batching
// them, with a tail per row, gained nothing on either CPU driver.
// Only where batching was faster, or never slower: with 64-bit components (lavapipe's int64 modules)
// and with lanes sharing a segment (GPUs). One lane of 32-bit components (SwiftShader) keeps the
// plain loop, which ran faster there (docs/gather-kernels.md).
const bool kBatchWholeSegments = VKINDEX_INT64_UNITS != 0 || ROW_LANES > 1u;
void copyWholeSegment(uint source, uint target, uint begin, uint lane) {
  for (uint i = 0u; i < ITEMS_PER_INVOCATION; i += 4u) {
    VKINDEX_COPY_FOUR_UNITS(out_units, target, data_units, source, begin + lane + i * ROW_LANES, ROW_LANES)
  }
}

// Units [begin, end) of the output row starting at unit `target`, this invocation's `lane` of them
// (copyRows' units), as zeros: a row the skip policy skipped.
void zeroUnits(uint target, uint begin, uint end, uint lane) {
  for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
    uint unit = begin + lane + i * ROW_LANES;
    if (unit >= end) break;
    out_units[target + unit] = UNIT(0);
  }
}

// Units [begin, end) of output rows [first_row, end_row) of the pass, this invocation's `lane` of
// them: units begin + lane, begin + lane + ROW_LANES, ... of each row. The row's index tuple is read
// once per row.
void copyRows(uint first_row, uint end_row, uint begin, uint end, uint lane) {
  const bool whole_segment =
      kBatchWholeSegments && end - begin == kSegmentUnits && ITEMS_PER_INVOCATION % 4u == 0u;
  for (uint pass_row = first_row; pass_row < end_row; ++pass_row) {
    uint data_row = boundDataRow(pass_row);
    if (data_row == kNotBound) continue;
    uint target = pc.out_unit_offset + pass_row * pc.row_units;
    if (skipsIndices() && data_row == kZeroRow) {
      zeroUnits(target, begin, end, lane);
      continue;
    }
    uint source = pc.data_unit_offset + data_row * pc.row_units;
    if (whole_segment) {
      copyWholeSegment(source, target, begin, lane);
      continue;
    }
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint unit = begin + lane + i * ROW_LANES;
      if (unit >= end) break;  // a short row, or the row's partial last segment
      out_units[target + unit] = data_units[source + unit];
    }
  }
}

// Whole rows [first_row, end_row) of the pass, each shorter than a segment, with one lane per
// segment: the rows' (outer, n) coordinates step from row to row, and each row is one plain loop,
// where copyRows divides for every row's coordinates and tests every unit against the segment's end.
// Every row shorter than a segment goes this way, not only rows of at most VKINDEX_SHORT_ROW_UNITS
// units: both CPU drivers ran them faster. A row of a whole segment keeps copyRows' batched loads;
// batching these loops four units at a time, or loading the next row's first unit before copying
// this one, made SwiftShader slower (docs/gather-kernels.md).
// One-unit rows get a loop of their own with no per-row loop in its body, hence the macro: behind a
// uniform branch in one body they ran slower on both CPU drivers. Stepping the coordinates instead of
// dividing per row is what makes short rows cheap (`vkindex bench --steps`; docs/gather-kernels.md).
#define VKINDEX_FOR_SHORT_ROWS(first_row, end_row, COPY_ROW)                                \
  {                                                                                         \
    uvec2 at = passRowCoordinates(first_row);                                               \
    for (uint pass_row = (first_row); pass_row < (end_row); ++pass_row) {                   \
      uint data_row = boundDataRowAt(at.x, at.y);                                           \
      if (skipsIndices() && data_row == kZeroRow) {                                         \
        zeroWholeRow(pc.out_unit_offset + pass_row * pc.row_units);                         \
      } else if (data_row != kNotBound) {                                                   \
        uint source = pc.data_unit_offset + data_row * pc.row_units;                        \
        uint target = pc.out_unit_offset + pass_row * pc.row_units;                         \
        COPY_ROW                                                                            \
      }                                                                                     \
      at = nextRowCoordinates(at);                                                          \
    }                                                                                       \
  }

// All row_units units of one row, from unit `source` of the data binding to unit `target` of the output.
// A plain loop: unrolled in blocks of 16 units ([[unroll]], then a tail loop) it ran slower on lavapipe
// (docs/gather-kernels.md).
void copyWholeRow(uint source, uint target) {
  for (uint unit = 0u; unit < pc.row_units; ++unit) out_units[target + unit] = data_units[source + unit];
}

// All row_units units of the output row at unit `target` as zeros: a row the skip policy skipped.
void zeroWholeRow(uint target) {
  for (uint unit = 0u; unit < pc.row_units; ++unit) out_units[target + unit] = UNIT(0);
}

void copyShortRows(uint first_row, uint end_row) {
  if (pc.row_units == 1u) {
    VKINDEX_FOR_SHORT_ROWS(first_row, end_row, out_units[target] = data_units[source];)
  } else {
    VKINDEX_FOR_SHORT_ROWS(first_row, end_row, copyWholeRow(source, target);)
  }
}

// The planner dispatches a module of short rows alone only for passes with one lane per segment and
// whole rows shorter than one (src/plan/row_gather_plan.cpp, rowPathOf), and one of segments alone
// for passes that take neither short rows nor columns.
void copySegment(uint segment, uint rows_per_segment, uint lane) {
  if (pc.segments_per_row == 1u) {
    uint first_row = segment * rows_per_segment;
    uint end_row = first_row + min(rows_per_segment, pc.pass_rows - first_row);
#if VKINDEX_ROW_PATH == VKINDEX_ROW_PATH_SHORT_ROWS
    copyShortRows(first_row, end_row);
#else
    copyRows(first_row, end_row, 0u, pc.row_units, lane);
#endif
    return;
  }
#if VKINDEX_ROW_PATH != VKINDEX_ROW_PATH_SHORT_ROWS
  uint pass_row = fastDivide(segment, pc.segments_per_row, pc.segments_per_row_multiplier, pc.segments_per_row_shift);
  uint begin = (segment - pass_row * pc.segments_per_row) * kSegmentUnits;
  copyRows(pass_row, pass_row + 1u, begin, min(begin + kSegmentUnits, pc.row_units), lane);
#endif
}

// Rows of at most VKINDEX_SHORT_ROW_UNITS units in a pass of whole outer slices that all read the
// same tuples (Gather: index_outer_stride 0), as a Gather along the last axes has: row n of every
// slice copies data row tuple(n) of that slice. Each invocation takes one column n of a block of
// consecutive slices (about a segment's units: ITEMS_PER_INVOCATION / row_units slices) and reads its
// tuple once for them all; consecutive invocations take consecutive columns. Only with one lane per
// segment (CPU drivers, and GPUs for one-unit rows), since an invocation copies whole rows: a GPU's
// lanes share longer rows so that their stores coalesce. src/plan/row_gather_plan.cpp takes this path
// (copiesColumns) and sizes the grid by the same test (columnBlockSlices there).
uint columnBlockSlices() { return max(1u, ITEMS_PER_INVOCATION / max(pc.row_units, 1u)); }

void copyColumns() {
  uint slices = fastDivide(pc.pass_rows, pc.index_count, pc.index_count_multiplier, pc.index_count_shift);
  uint block_slices = columnBlockSlices();
  uint blocks = divideRoundingUp(slices, block_slices);
  for (uint item = firstInvocationItem(); item < pc.index_count * blocks; item += invocationStride()) {
    uint block = fastDivide(item, pc.index_count, pc.index_count_multiplier, pc.index_count_shift);
    uint column = item - block * pc.index_count;
    uint axis_row = tupleRow(column - pc.index_window_begin);
    // A skipped tuple (skip policy): zeros, from the pass that binds the slice's first data row.
    bool skipped = skipsIndices() && axis_row == kSkippedIndex;
    if (skipped) axis_row = 0u;
    uint slice_end = min(slices, (block + 1u) * block_slices);
    for (uint slice = block * block_slices; slice < slice_end; ++slice) {
      uint row = (pc.first_outer + slice) * pc.axis_size + axis_row;
      if (row < pc.data_row_begin || row >= pc.data_row_end) continue;  // another pass's data window
      uint source = pc.data_unit_offset + (row - pc.data_row_begin) * pc.row_units;
      uint target = pc.out_unit_offset + (slice * pc.index_count + column) * pc.row_units;
      if (skipped) {
        zeroWholeRow(target);
        continue;
      }
      copyWholeRow(source, target);
    }
  }
}

void main() {
#if VKINDEX_SELF_CHECK
  if (checkAndReport(pc.index_outer_stride == 0u ? pc.index_count : pc.pass_rows)) return;
#else
  if (badIndexFound()) return;
#endif
#if VKINDEX_ROW_PATH == VKINDEX_ROW_PATH_COLUMNS
  copyColumns();
#else
  uint rows_per_segment = rowsPerSegment();
  uint total = pc.segments_per_row == 1u ? divideRoundingUp(pc.pass_rows, rows_per_segment)
                                         : pc.pass_rows * pc.segments_per_row;
  uint lane = segmentLane(ROW_LANES);
  // Consecutive lanes take consecutive units of a row, so accesses coalesce on GPUs; on CPU drivers
  // (ROW_LANES 1) each invocation streams a whole segment.
  for (uint segment = firstSegment(ROW_LANES); segment < total; segment += segmentStride(ROW_LANES)) {
    copySegment(segment, rows_per_segment, lane);
  }
#endif
}
