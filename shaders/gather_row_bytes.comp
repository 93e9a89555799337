#version 450
#extension GL_GOOGLE_include_directive : require
// Gather and GatherND rows that are not whole words (e.g. int8 along the last axis; see
// gather_rows.comp for the rest): without 8/16-bit storage no invocation can store one unit, so each
// owns output words and assembles them from the 1- or 2-byte units of the rows they hold
// (common/units.glsl). Push constants: common/gather_rows_params.h, with segments_per_row ==
// row_units. Work is laid out like gather_rows.comp's: segments of ROW_LANES x ITEMS consecutive
// output words, interleaved word by word among ROW_LANES invocations.
#include "common/spec_ids.h"
#include "common/gather_rows_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
// Output words each invocation assembles per segment.
layout(constant_id = VKINDEX_SPEC_ITEMS) const uint ITEMS_PER_INVOCATION = 4;
// Invocations sharing one segment (Tuning::row_lanes): 1 on CPU drivers, where one invocation
// streaming 256 words ran the bench's uint8-rows faster than workgroup-interleaved blocks of 4 words
// per invocation (docs/tuning.md).
layout(constant_id = VKINDEX_SPEC_ROW_LANES) const uint ROW_LANES = 1;
// k, the index tuple length (1 for Gather); a constant so the component loop unrolls.
layout(constant_id = VKINDEX_SPEC_TUPLE_LENGTH) const uint TUPLE_LENGTH = 1;

#define VKINDEX_DATA_BINDING 0
#define VKINDEX_OUT_BINDING 2
#include "common/units.glsl"
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/gather_row_lookup.glsl"
#include "common/status_gate.glsl"

uint divideByRowUnits(uint n) {
  return fastDivide(n, pc.segments_per_row, pc.segments_per_row_multiplier, pc.segments_per_row_shift);
}

// Sub-word rows, common case: all of output word `word` comes from one row of this pass, so it is
// four consecutive source bytes.
bool copyWholeWord(uint word, uint pass_units) {
  uint first = word * kUnitsPerWord;
  if (first < pc.out_unit_offset) return false;
  uint unit = first - pc.out_unit_offset;
  if (unit + kUnitsPerWord > pass_units) return false;
  uint pass_row = divideByRowUnits(unit);
  uint in_row = unit - pass_row * pc.row_units;
  if (in_row + kUnitsPerWord > pc.row_units) return false;  // the word spans two rows
  uint data_row = boundDataRow(pass_row);
  if (data_row == kNotBound) return false;
  if (skipsIndices() && data_row == kZeroRow) {  // a skipped tuple (skip policy): zeros
    out_words[word] = 0u;
    return true;
  }
  out_words[word] = loadUnalignedWord((pc.data_unit_offset + data_row * pc.row_units + in_row) * UNIT_BYTES);
  return true;
}

// Rows of one unit (bytes or halves gathered along the last axis, the common sub-word case): a word
// wholly inside the pass holds consecutive output rows, so its first unit's coordinates (outer, n)
// place the others by stepping. Returns the coordinates of the unit after the word.
uvec2 assembleUnitRows(uint word, uvec2 at) {
  uint value = 0u;
  uint owned = 0u;
  for (uint k = 0u; k < kUnitsPerWord; ++k) {
    uint data_row = boundDataRowAt(at.x, at.y);
    if (data_row != kNotBound) {
      uint shift = k * 8u * UNIT_BYTES;
      // A skipped tuple (skip policy) owns its unit with zero bits.
      if (!skipsIndices() || data_row != kZeroRow) value |= loadSubUnit(pc.data_unit_offset + data_row) << shift;
      owned |= kUnitMask << shift;
    }
    at = nextRowCoordinates(at);
  }
  storeOwnedBits(word, value, owned);
  return at;
}

// Sub-word rows: assembles output word `word` of the binding from the units this pass owns in it
// (`pass_units` of them in all).
void assembleWord(uint word, uint pass_units) {
  if (copyWholeWord(word, pass_units)) return;
  uint value = 0u;
  uint owned = 0u;
  for (uint k = 0u; k < kUnitsPerWord; ++k) {
    uint unit_in_binding = word * kUnitsPerWord + k;
    if (unit_in_binding < pc.out_unit_offset) continue;  // belongs to an earlier row range
    uint unit = unit_in_binding - pc.out_unit_offset;
    if (unit >= pass_units) break;                      // belongs to a later row range or another tensor
    uint pass_row = divideByRowUnits(unit);
    uint data_row = boundDataRow(pass_row);
    if (data_row == kNotBound) continue;
    uint shift = k * 8u * UNIT_BYTES;
    if (!skipsIndices() || data_row != kZeroRow) {  // a skipped tuple (skip policy) owns zero bits
      value |= loadSubUnit(pc.data_unit_offset + data_row * pc.row_units + (unit - pass_row * pc.row_units)) << shift;
    }
    owned |= kUnitMask << shift;
  }
  storeOwnedBits(word, value, owned);
}

// Words first_word, first_word + ROW_LANES, ... of one segment. With one lane the words are
// consecutive, so one-unit rows carry their coordinates from word to word: one division per segment.
void assembleSegment(uint first_word) {
  uint pass_units = pc.pass_rows * pc.row_units;
  bool carried = false;  // `at` holds the coordinates of this word's first unit
  uvec2 at = uvec2(0u);
  for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
    uint word = first_word + i * ROW_LANES;
    if (word >= pc.out_word_count) break;
    uint first = word * kUnitsPerWord;
    bool inside = first >= pc.out_unit_offset && first - pc.out_unit_offset + kUnitsPerWord <= pass_units;
    if (pc.row_units == 1u && inside) {
      if (!carried) at = passRowCoordinates(first - pc.out_unit_offset);
      at = assembleUnitRows(word, at);
      carried = ROW_LANES == 1u;
    } else {
      assembleWord(word, pass_units);
      carried = false;
    }
  }
}

// One-unit rows of a pass that holds whole outer slices of whole words, all reading the same tuples
// (Gather: index_outer_stride 0): output word `column` of every slice comes from the same
// kUnitsPerWord tuples. So each invocation takes a column of ITEMS_PER_INVOCATION consecutive slices,
// reads its tuples once for them all, and assembles each word without stepping coordinates;
// consecutive invocations take consecutive columns (coalesced stores on GPUs). The index loads are
// most of the segment walk's cost for such rows on the CPU drivers (docs/gather-kernels.md).
bool slicesShareColumns() {
  return pc.row_units == 1u && pc.index_outer_stride == 0u && pc.first_index == 0u && pc.index_count != 0u &&
         pc.index_count % kUnitsPerWord == 0u && pc.pass_rows % pc.index_count == 0u &&
         pc.out_unit_offset % kUnitsPerWord == 0u;
}

void assembleColumns() {
  uint columns = pc.index_count / kUnitsPerWord;
  uint slices = fastDivide(pc.pass_rows, pc.index_count, pc.index_count_multiplier, pc.index_count_shift);
  uint blocks = divideRoundingUp(slices, ITEMS_PER_INVOCATION);
  uint first_word = pc.out_unit_offset / kUnitsPerWord;
  for (uint item = firstInvocationItem(); item < columns * blocks; item += invocationStride()) {
    uint block = item / columns, column = item - block * columns;
    uint axis_rows[kUnitsPerWord];  // the tuples' rows within one outer slice of the data
    for (uint k = 0u; k < kUnitsPerWord; ++k) {
      axis_rows[k] = tupleRow(column * kUnitsPerWord + k - pc.index_window_begin);
    }
    uint slice_end = min(slices, (block + 1u) * ITEMS_PER_INVOCATION);
    for (uint slice = block * ITEMS_PER_INVOCATION; slice < slice_end; ++slice) {
      uint row_base = (pc.first_outer + slice) * pc.axis_size;
      uint value = 0u, owned = 0u;
      for (uint k = 0u; k < kUnitsPerWord; ++k) {
        // A skipped tuple (skip policy): zero bits, from the pass that binds the slice's first data row.
        bool skipped = skipsIndices() && axis_rows[k] == kSkippedIndex;
        uint row = row_base + (skipped ? 0u : axis_rows[k]);
        if (row < pc.data_row_begin || row >= pc.data_row_end) continue;  // another pass's data window
        uint shift = k * 8u * UNIT_BYTES;
        if (!skipped) value |= loadSubUnit(pc.data_unit_offset + row - pc.data_row_begin) << shift;
        owned |= kUnitMask << shift;
      }
      storeOwnedBits(first_word + slice * columns + column, value, owned);
    }
  }
}

void main() {
  if (badIndexFound()) return;
  if (slicesShareColumns()) {
    assembleColumns();
    return;
  }
  const uint segment_words = ROW_LANES * ITEMS_PER_INVOCATION;
  uint total = divideRoundingUp(pc.out_word_count, segment_words);
  uint lane = segmentLane(ROW_LANES);
  // Consecutive lanes take consecutive words, so accesses coalesce on GPUs; on CPU drivers
  // (ROW_LANES 1) each invocation streams a whole segment.
  for (uint segment = firstSegment(ROW_LANES); segment < total; segment += segmentStride(ROW_LANES)) {
    assembleSegment(segment * segment_words + lane);
  }
}
