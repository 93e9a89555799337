#version 450
#extension GL_GOOGLE_include_directive : require
// Gather, type-agnostic: output row (outer, n) is a copy of data row (outer, indices[n]). Values are
// never interpreted; only bytes move, in units of UNIT_BYTES:
//   16, 8, 4: a row is a whole number of units, so each unit is copied as a uvec4/uvec2/uint.
//   2, 1:     rows are not word multiples (e.g. int8 along the last axis). Without 8/16-bit storage,
//             each invocation owns one 32-bit output word and assembles it from 4/UNIT_BYTES units that
//             may come from different rows. Owning whole words means no two invocations write the
//             same word; only words shared with bytes outside this pass use atomicAnd/atomicOr.
#include "common/gather_params.h"

layout(local_size_x_id = 0) in;
layout(constant_id = 2) const uint UNIT_BYTES = 4;
// Units each invocation moves per workgroup block; a few in flight per thread hides memory latency
// better than a long grid-stride loop (measured on lavapipe).
layout(constant_id = 3) const uint ITEMS_PER_INVOCATION = 4;
// 1: every row is a whole number of blocks (workgroup size x items), so a block never crosses a row and
// its source is computed once per block instead of once per unit (copy units only). Chosen by the
// planner; for outer-axis gathers such as embedding lookups this makes the pass a plain row copy.
layout(constant_id = 4) const uint ROW_TILED = 0;

// The same bindings seen at three widths: the specialization constant selects one, the others are
// dead code the driver removes.
layout(binding = 0, std430) readonly buffer Data1 { uint data_words[]; };
layout(binding = 0, std430) readonly buffer Data2 { uvec2 data_pairs[]; };
layout(binding = 0, std430) readonly buffer Data4 { uvec4 data_quads[]; };
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 2, std430) buffer Out1 { uint out_words[]; };
layout(binding = 2, std430) writeonly buffer Out2 { uvec2 out_pairs[]; };
layout(binding = 2, std430) writeonly buffer Out4 { uvec4 out_quads[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/fast_division.glsl"
#include "common/indices.glsl"

const uint kNotBound = 0xFFFFFFFFu;

uint divideByRowUnits(uint n) { return fastDivide(n, pc.row_units, pc.row_units_multiplier, pc.row_units_shift); }

// Data row feeding the output row `pass_row` rows after the pass's first row, relative to the first
// bound data row, or kNotBound when that row lies in another pass's data window.
uint boundDataRow(uint pass_row) {
  uint index_row = pc.first_index + pass_row;
  uint outer_step = fastDivide(index_row, pc.index_count, pc.index_count_multiplier, pc.index_count_shift);
  uint outer = pc.first_outer + outer_step;
  uint n = index_row - outer_step * pc.index_count;
  uint row = outer * pc.axis_size + normalizeIndex(loadIndex(n - pc.index_window_begin), pc.axis_size);
  if (row < pc.data_row_begin || row >= pc.data_row_end) return kNotBound;
  return row - pc.data_row_begin;
}

void copyUnit(uint unit) {
  uint pass_row = divideByRowUnits(unit);
  uint data_row = boundDataRow(pass_row);
  if (data_row == kNotBound) return;
  uint source = pc.data_unit_offset + data_row * pc.row_units + (unit - pass_row * pc.row_units);
  uint target = pc.out_unit_offset + unit;
  if (UNIT_BYTES == 16) {
    out_quads[target] = data_quads[source];
  } else if (UNIT_BYTES == 8) {
    out_pairs[target] = data_pairs[source];
  } else {
    out_words[target] = data_words[source];
  }
}

// Sub-word rows, common case: all of output word `word` comes from one row of this pass. Reads the
// (possibly unaligned) 4 source bytes as one or two aligned words and funnel-shifts them together.
bool copyWholeWord(uint word, uint pass_units) {
  const uint units_per_word = 4u / UNIT_BYTES;
  uint first = word * units_per_word;
  if (first < pc.out_unit_offset) return false;
  uint unit = first - pc.out_unit_offset;
  if (unit + units_per_word > pass_units) return false;
  uint pass_row = divideByRowUnits(unit);
  uint in_row = unit - pass_row * pc.row_units;
  if (in_row + units_per_word > pc.row_units) return false;  // the word spans two rows
  uint data_row = boundDataRow(pass_row);
  if (data_row == kNotBound) return false;
  uint source_byte = (pc.data_unit_offset + data_row * pc.row_units + in_row) * UNIT_BYTES;
  uint source_word = source_byte >> 2;
  uint shift = (source_byte & 3u) * 8u;
  uint value = data_words[source_word] >> shift;
  // The 4 bytes lie inside the bound row, so the second word exists whenever it is needed.
  if (shift != 0u) value |= data_words[source_word + 1u] << (32u - shift);
  out_words[word] = value;
  return true;
}

// Sub-word rows: assembles output word `word` of the binding from the units this pass owns in it.
void assembleWord(uint word) {
  const uint units_per_word = 4u / UNIT_BYTES;
  const uint unit_mask = UNIT_BYTES == 1u ? 0xFFu : 0xFFFFu;
  uint pass_units = pc.pass_rows * pc.row_units;
  if (copyWholeWord(word, pass_units)) return;
  uint value = 0u;
  uint owned = 0u;
  for (uint k = 0u; k < units_per_word; ++k) {
    uint unit_in_binding = word * units_per_word + k;
    if (unit_in_binding < pc.out_unit_offset) continue;  // belongs to an earlier row range
    uint unit = unit_in_binding - pc.out_unit_offset;
    if (unit >= pass_units) break;                      // belongs to a later row range or another tensor
    uint pass_row = divideByRowUnits(unit);
    uint data_row = boundDataRow(pass_row);
    if (data_row == kNotBound) continue;
    uint source = pc.data_unit_offset + data_row * pc.row_units + (unit - pass_row * pc.row_units);
    uint source_shift = (source % units_per_word) * 8u * UNIT_BYTES;
    uint bits = (data_words[source / units_per_word] >> source_shift) & unit_mask;
    uint shift = k * 8u * UNIT_BYTES;
    value |= bits << shift;
    owned |= unit_mask << shift;
  }
  if (owned == 0xFFFFFFFFu) {
    out_words[word] = value;
  } else if (owned != 0u) {
    // The word's other bytes belong to neighbouring rows of another pass or to memory outside the
    // tensor: replace only ours.
    atomicAnd(out_words[word], ~owned);
    atomicOr(out_words[word], value);
  }
}

// ROW_TILED: copies block `base` (a multiple of the block size, inside one row) unit by unit.
void copyTiledBlock(uint base) {
  uint pass_row = divideByRowUnits(base);
  uint data_row = boundDataRow(pass_row);
  if (data_row == kNotBound) return;
  uint source = pc.data_unit_offset + data_row * pc.row_units + (base - pass_row * pc.row_units);
  uint target = pc.out_unit_offset + base;
  for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
    uint offset = i * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (UNIT_BYTES == 16) {
      out_quads[target + offset] = data_quads[source + offset];
    } else if (UNIT_BYTES == 8) {
      out_pairs[target + offset] = data_pairs[source + offset];
    } else {
      out_words[target + offset] = data_words[source + offset];
    }
  }
}

void main() {
  if (status_words[pc.status_slot * VKINDEX_STATUS_SLOT_WORDS] != VKINDEX_NO_ERROR) {
    // A bad index: write nothing, and let the very first invocation record the value for the host.
    if (pc.report_bad_index != 0u && gl_GlobalInvocationID.x == 0u && gl_GlobalInvocationID.y == 0u) {
      reportBadIndex(pc.status_slot, 0u, pc.index_count);
    }
    return;
  }
  bool sub_word = UNIT_BYTES < 4u;
  uint total = sub_word ? pc.out_word_count : pc.pass_rows * pc.row_units;
  uint block = gl_WorkGroupSize.x * ITEMS_PER_INVOCATION;
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint grid = gl_NumWorkGroups.x * gl_NumWorkGroups.y * block;
  // Consecutive invocations take consecutive items, so every memory access is coalesced.
  for (uint base = group * block; base < total; base += grid) {
    if (ROW_TILED != 0u) {
      copyTiledBlock(base);
      continue;
    }
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint item = base + i * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
      if (item >= total) break;
      if (sub_word) {
        assembleWord(item);
      } else {
        copyUnit(item);
      }
    }
  }
}
