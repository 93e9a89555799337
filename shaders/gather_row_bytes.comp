#version 450
#extension GL_GOOGLE_include_directive : require
// Gather and GatherND rows that are not whole words (e.g. int8 along the last axis; see
// gather_rows.comp for the rest): without 8/16-bit storage no invocation can store one unit, so each
// owns output words and assembles them from the 1- or 2-byte units of the rows they hold
// (common/units.glsl). Push constants: common/gather_rows_params.h, with segments_per_row ==
// row_units (a segment is one unit).
#include "common/gather_rows_params.h"

layout(local_size_x_id = 0) in;
// Output words each invocation assembles per workgroup block.
layout(constant_id = 3) const uint ITEMS_PER_INVOCATION = 4;
// k, the index tuple length (1 for Gather); a constant so the component loop unrolls.
layout(constant_id = 5) const uint TUPLE_LENGTH = 1;

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
  uint block = gl_WorkGroupSize.x * ITEMS_PER_INVOCATION;
  uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * block;
  // Consecutive invocations take consecutive words, so every memory access is coalesced.
  for (uint base = group * block; base < pc.out_word_count; base += stride) {
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint word = base + i * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
      if (word >= pc.out_word_count) break;
      assembleWord(word);
    }
  }
}
