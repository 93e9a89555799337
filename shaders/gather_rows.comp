#version 450
#extension GL_GOOGLE_include_directive : require
// Gather and GatherND, type-agnostic: output row (outer, n) is a copy of the data row the index tuple
// of (outer, n) addresses (see common/gather_rows_params.h). Rows of whole words are copied in
// uvec4/uvec2/uint units, a row segment (ROW_LANES x ITEMS units) per group of ROW_LANES invocations;
// rows that are not (e.g. int8 along the last axis) are assembled one owned output word at a time
// (common/units.glsl).
#include "common/gather_rows_params.h"

layout(local_size_x_id = 0) in;
// Copy units: units each invocation moves per row segment. Sub-word units: output words each
// invocation assembles per workgroup block.
layout(constant_id = 3) const uint ITEMS_PER_INVOCATION = 4;
// Copy units: invocations that share one row segment, interleaved unit by unit (a power of two that
// divides the workgroup size). The row's index tuple is read and checked once per segment, so wide
// segments amortize it; see DeviceInfo::row_lanes for the per-device choice.
layout(constant_id = 4) const uint ROW_LANES = 1;
// k, the index tuple length (1 for Gather); a constant so the component loop unrolls.
layout(constant_id = 5) const uint TUPLE_LENGTH = 1;

#define VKINDEX_DATA_BINDING 0
#define VKINDEX_OUT_BINDING 2
#include "common/units.glsl"
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/fast_division.glsl"
#include "common/indices.glsl"
#include "common/status_gate.glsl"

const uint kNotBound = 0xFFFFFFFFu;

// Sub-word rows, whose segments are single units (segments_per_row == row_units).
uint divideByRowUnits(uint n) {
  return fastDivide(n, pc.segments_per_row, pc.segments_per_row_multiplier, pc.segments_per_row_shift);
}

// The row-major position within the addressed dims of the tuple at `position` of the bound window.
uint tupleRow(uint position) {
  uint first_word = pc.indices_word_offset + position * TUPLE_LENGTH * INDEX_WORDS;
  uint row = 0u;
  for (uint c = 0u; c < TUPLE_LENGTH; ++c) {
    uint extent = pc.extents[c];
    row = row * extent + normalizeIndex(loadIndex(first_word, c), extent);
  }
  return row;
}

// Data row feeding the output row `pass_row` rows after the pass's first row, relative to the first
// bound data row, or kNotBound when that row lies in another pass's data window.
uint boundDataRow(uint pass_row) {
  uint index_row = pc.first_index + pass_row;
  uint outer_step = fastDivide(index_row, pc.index_count, pc.index_count_multiplier, pc.index_count_shift);
  uint outer = pc.first_outer + outer_step;
  uint n = index_row - outer_step * pc.index_count;
  uint row = outer * pc.axis_size + tupleRow(outer * pc.index_outer_stride + n - pc.index_window_begin);
  if (row < pc.data_row_begin || row >= pc.data_row_end) return kNotBound;
  return row - pc.data_row_begin;
}

// Copy units: row segment `segment` of the pass (segments_per_row per row), this invocation's
// `lane` of it: units lane, lane + ROW_LANES, ... of the segment.
void copySegment(uint segment, uint lane) {
  uint pass_row = fastDivide(segment, pc.segments_per_row, pc.segments_per_row_multiplier, pc.segments_per_row_shift);
  uint data_row = boundDataRow(pass_row);
  if (data_row == kNotBound) return;
  uint in_row = (segment - pass_row * pc.segments_per_row) * (ROW_LANES * ITEMS_PER_INVOCATION) + lane;
  uint source = pc.data_unit_offset + data_row * pc.row_units;
  uint target = pc.out_unit_offset + pass_row * pc.row_units;
  for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
    uint unit = in_row + i * ROW_LANES;
    if (unit >= pc.row_units) break;  // the row's last segment may be partial
    copyUnit(target + unit, source + unit);
  }
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
  out_words[word] = loadUnalignedWord((pc.data_unit_offset + data_row * pc.row_units + in_row) * UNIT_BYTES);
  return true;
}

// Sub-word rows: assembles output word `word` of the binding from the units this pass owns in it.
void assembleWord(uint word) {
  uint pass_units = pc.pass_rows * pc.row_units;
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
    value |= loadSubUnit(pc.data_unit_offset + data_row * pc.row_units + (unit - pass_row * pc.row_units)) << shift;
    owned |= kUnitMask << shift;
  }
  storeOwnedBits(word, value, owned);
}

void main() {
  if (badIndexFound()) return;
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint group_count = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  if (UNIT_BYTES >= 4u) {
    // Consecutive lanes take consecutive units of a segment, so accesses coalesce on GPUs; on CPU
    // drivers (ROW_LANES 1) each invocation streams a whole segment.
    uint total = pc.pass_rows * pc.segments_per_row;
    uint segments_per_group = gl_WorkGroupSize.x / ROW_LANES;
    uint lane = gl_LocalInvocationID.x % ROW_LANES;
    uint first = group * segments_per_group + gl_LocalInvocationID.x / ROW_LANES;
    for (uint segment = first; segment < total; segment += group_count * segments_per_group) {
      copySegment(segment, lane);
    }
    return;
  }
  uint block = gl_WorkGroupSize.x * ITEMS_PER_INVOCATION;
  // Consecutive invocations take consecutive words, so every memory access is coalesced.
  for (uint base = group * block; base < pc.out_word_count; base += group_count * block) {
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint word = base + i * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
      if (word >= pc.out_word_count) break;
      assembleWord(word);
    }
  }
}
