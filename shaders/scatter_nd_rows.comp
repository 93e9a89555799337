#version 450
#extension GL_GOOGLE_include_directive : require
// ScatterND with reduction none, second pass, for slices of whole units: as scatter_nd_write.comp, a
// tuple writes its slice only if it won its data row in scatter_nd_claim.comp's table, but a slice
// moves in uvec4, uvec2 or uint units (VKINDEX_UNIT_BYTES: one module per width; the *_int64 modules
// move 16- and 8-byte units as 64-bit components, common/unit_type.glsl) and in segments of
// ROW_LANES x ITEMS units per group of ROW_LANES invocations, reading the tuple and its claim once per
// segment: gather_rows.comp's layout, the other way round. The planner picks the widest unit that
// divides the slice and both offsets.
// With VKINDEX_SELF_CHECK (scatter_nd_rows_checked*: a few tuples in place, reduction none, the KV row
// update) the module is the operation's one dispatch: every invocation does the index check and
// report passes' work first (common/self_check.glsl), and with no winner table a tuple's slice is
// written unless a later tuple of the few addresses the same row (the last one wins).
#include "common/spec_ids.h"
#include "common/scatter_nd_params.h"

#ifndef VKINDEX_UNIT_BYTES
#define VKINDEX_UNIT_BYTES 16
#endif
#ifndef VKINDEX_SELF_CHECK
#define VKINDEX_SELF_CHECK 0
#endif

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
layout(constant_id = VKINDEX_SPEC_ELEMENT_BYTES) const uint ELEMENT_BYTES = 4;
// Units each invocation moves per segment, and the invocations sharing a segment (interleaved unit
// by unit, so accesses coalesce on GPUs); see Tuning::row_lanes.
layout(constant_id = VKINDEX_SPEC_ITEMS) const uint ITEMS_PER_INVOCATION = 4;
layout(constant_id = VKINDEX_SPEC_ROW_LANES) const uint ROW_LANES = 1;
layout(constant_id = VKINDEX_SPEC_TUPLE_LENGTH) const uint TUPLE_LENGTH = 1;

#include "common/unit_type.glsl"
layout(binding = 0, std430) readonly buffer Updates { UNIT updates_units[]; };
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 2, std430) writeonly buffer Out { UNIT out_units[]; };
#if VKINDEX_SELF_CHECK
layout(binding = 3, std430) buffer Status { uint status_words[]; };
#else
layout(binding = 3, std430) readonly buffer Winners { uint winners[]; };
layout(binding = 4, std430) buffer Status { uint status_words[]; };
#endif

#include "common/indices.glsl"
#include "common/index_tuples.glsl"
#include "common/status_gate.glsl"
#include "common/batched_copy.glsl"
#if VKINDEX_SELF_CHECK
#include "common/self_check.glsl"

// Whether tuple n's slice is the last written to `row`: no later tuple of the pass addresses it.
bool writesLast(uint row, uint n) {
  for (uint later = n + 1u; later < pc.end_tuple; ++later) {
    if (tupleRow(later) == row) return false;
  }
  return true;
}
#else
bool writesLast(uint row, uint n) { return winners[row] == n + 1u; }
#endif

const uint kWordsPerUnit = VKINDEX_UNIT_BYTES / 4u;
const uint kSegmentUnits = ROW_LANES * ITEMS_PER_INVOCATION;

void main() {
#if VKINDEX_SELF_CHECK
  if (checkAndReport(pc.end_tuple)) return;
#else
  if (badIndexFound()) return;
#endif
  // Slices are below 2^32 bytes: they lie inside one binding.
  uint slice_units = pc.slice_elements * ELEMENT_BYTES / VKINDEX_UNIT_BYTES;
  uint segments_per_slice = divideRoundingUp(slice_units, kSegmentUnits);
  uint total = (pc.end_tuple - pc.first_tuple) * segments_per_slice;
  uint lane = segmentLane(ROW_LANES);
  for (uint segment = firstSegment(ROW_LANES); segment < total; segment += segmentStride(ROW_LANES)) {
    uint tuple_step = segment / segments_per_slice;
    uint n = pc.first_tuple + tuple_step;
    uint row = tupleRow(n);
    if (row == kSkippedIndex) continue;  // the skip policy: this tuple writes nothing
    uint first_target = row * pc.slice_elements;  // windows hold whole slices
    if (first_target < pc.target_begin || first_target >= pc.target_end) continue;
    if (!writesLast(row, n)) continue;  // a later tuple writes this row
    uint segment_begin = (segment - tuple_step * segments_per_slice) * kSegmentUnits;
    uint begin = segment_begin + lane;
    // Word offsets may be below zero modulo 2^32 (a later window): divide only the in-window sums.
    uint source = (pc.updates_word_offset + n * slice_units * kWordsPerUnit) / kWordsPerUnit;
    uint target = (pc.out_word_offset + row * slice_units * kWordsPerUnit) / kWordsPerUnit;
    if (slice_units - segment_begin >= kSegmentUnits && ITEMS_PER_INVOCATION % 4u == 0u) {
      for (uint i = 0u; i < ITEMS_PER_INVOCATION; i += 4u) {
        VKINDEX_COPY_FOUR_UNITS(out_units, target, updates_units, source, begin + i * ROW_LANES, ROW_LANES)
      }
      continue;
    }
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint unit = begin + i * ROW_LANES;
      if (unit >= slice_units) break;  // the slice's partial last segment
      out_units[target + unit] = updates_units[source + unit];
    }
  }
}
