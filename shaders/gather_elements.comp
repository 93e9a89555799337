#version 450
#extension GL_GOOGLE_include_directive : require
// GatherElements, type-agnostic: output element p copies the data element whose coordinates are p's,
// with the axis coordinate replaced by indices[p] (see common/gather_elements_params.h). Elements of
// whole words move in units of VKINDEX_UNIT_BYTES (16, 8 or 4: one module each, one binding width
// per module, as in gather_rows.comp); VKINDEX_UNIT_BYTES 0 (gather_element_bytes) takes 1- and
// 2-byte elements, assembled one owned output word at a time (common/units.glsl), so no two
// invocations write the same word.
//
// Work is laid out in segments of ROW_LANES x ITEMS items (elements, or output words for sub-word
// elements), interleaved item by item, like the row gathers' segments. Each invocation walks its
// items in increasing order with a cursor that steps the innermost coordinate, so the divisions that
// turn a position into coordinates run once per segment and per wrap of the innermost dim instead of
// once per element (on SwiftShader the per-element divisions were a large share of the kernel:
// docs/gather-kernels.md).
//
// With VKINDEX_SELF_CHECK (the *_checked modules: a call of a few indices in one pass) no check pass
// ran: every invocation checks every index of the pass first (common/self_check.glsl) and writes
// nothing if one is out of range.
#include "common/spec_ids.h"
#include "common/gather_elements_params.h"

#ifndef VKINDEX_UNIT_BYTES
#define VKINDEX_UNIT_BYTES 16
#endif
#ifndef VKINDEX_SELF_CHECK
#define VKINDEX_SELF_CHECK 0
#endif

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
// Items each invocation handles per segment.
layout(constant_id = VKINDEX_SPEC_ITEMS) const uint ITEMS_PER_INVOCATION = 4;
// Invocations sharing a segment (a power of two dividing the workgroup size).
layout(constant_id = VKINDEX_SPEC_ROW_LANES) const uint ROW_LANES = 1;
// Coalesced dims (1..VKINDEX_MAX_ELEMENT_DIMS); a constant so the coordinate loop unrolls.
layout(constant_id = VKINDEX_SPEC_DIM_COUNT) const uint DIM_COUNT = 1;

#if VKINDEX_UNIT_BYTES == 0
#define VKINDEX_DATA_BINDING 0
#define VKINDEX_OUT_BINDING 2
#include "common/units.glsl"
#else
#include "common/unit_type.glsl"
layout(binding = 0, std430) readonly buffer Data { UNIT data_units[]; };
layout(binding = 2, std430) writeonly buffer Out { UNIT out_units[]; };
#endif
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/status_gate.glsl"
#if VKINDEX_SELF_CHECK
const uint TUPLE_LENGTH = 1u;
#define VKINDEX_SELF_CHECK_EXTENT(position) pc.axis_size
#include "common/self_check.glsl"
#endif

const uint kNotBound = 0xFFFFFFFFu;
const uint kInnermost = DIM_COUNT - 1u;

// Where a pass element stands: its innermost coordinate, and the data element its coordinates
// address with the axis coordinate taken as 0 (the index supplies it).
struct Cursor {
  uint element;  // relative to the pass; kNotBound before the first
  uint inner;
  uint base;
};

Cursor cursorAt(uint element) {
  uint rest = pc.first_element + element;
  Cursor cursor = Cursor(element, 0u, 0u);
  for (uint j = DIM_COUNT; j-- > 0u;) {
    // What is left for the outermost dim is its coordinate (positions stay below the output's count).
    uint coordinate = rest;
    if (j > 0u) {
      coordinate = rest % pc.extents[j];
      rest /= pc.extents[j];
    }
    if (j == kInnermost) cursor.inner = coordinate;
    if (j != pc.axis_dim) cursor.base += coordinate * pc.data_strides[j];
  }
  return cursor;
}

// Moves the cursor forward to `element`: a step within the innermost dim is an add, anything else
// (the first position, a wrap into the next line) divides again.
void moveTo(inout Cursor cursor, uint element) {
  uint step = element - cursor.element;
  if (cursor.element != kNotBound && element >= cursor.element && step < pc.extents[kInnermost] - cursor.inner) {
    cursor.element = element;
    cursor.inner += step;
    if (kInnermost != pc.axis_dim) cursor.base += step * pc.data_strides[kInnermost];
  } else {
    cursor = cursorAt(element);
  }
}

// An output element whose index the skip policy skipped: the pass writes zeros there. Never a bound
// data element, as a pass binds fewer than 2^30 units.
const uint kZeroSource = 0xFFFFFFFEu;

// The data element the cursor's element reads, relative to the first bound data element, or
// kNotBound when it lies in another pass's data window. A skipped index (skip policy) gives
// kZeroSource in the one pass that binds the element's axis-0 data element.
uint boundSource(Cursor cursor) {
  uint index = loadCheckedIndex(pc.indices_word_offset, cursor.element, pc.axis_size);
  bool skipped = skipsIndices() && index == kSkippedIndex;
  uint source = cursor.base + (skipped ? 0u : index * pc.data_strides[pc.axis_dim]);
  if (source < pc.data_element_begin || source >= pc.data_element_end) return kNotBound;
  return skipped ? kZeroSource : source - pc.data_element_begin;
}

#if VKINDEX_UNIT_BYTES == 0
// Output word `word` of the binding, from the elements this pass owns in it.
void processItem(uint word, inout Cursor cursor) {
  uint value = 0u;
  uint owned = 0u;
  for (uint k = 0u; k < kUnitsPerWord; ++k) {
    uint unit_in_binding = word * kUnitsPerWord + k;
    if (unit_in_binding < pc.out_unit_offset) continue;  // an earlier pass's element or another tensor
    uint element = unit_in_binding - pc.out_unit_offset;
    if (element >= pc.pass_elements) break;             // a later pass's element or another tensor
    moveTo(cursor, element);
    uint source = boundSource(cursor);
    if (source == kNotBound) continue;
    uint shift = k * 8u * UNIT_BYTES;
    if (!skipsIndices() || source != kZeroSource) value |= loadSubUnit(pc.data_unit_offset + source) << shift;
    owned |= kUnitMask << shift;
  }
  storeOwnedBits(word, value, owned);
}

uint itemCount() { return pc.out_word_count; }
#else
// Output element `element` of the pass, all of its units.
void processItem(uint element, inout Cursor cursor) {
  moveTo(cursor, element);
  uint source = boundSource(cursor);
  if (source == kNotBound) return;
  uint target = pc.out_unit_offset + element * pc.units_per_element;
  if (skipsIndices() && source == kZeroSource) {
    for (uint part = 0u; part < pc.units_per_element; ++part) out_units[target + part] = UNIT(0);
    return;
  }
  source = pc.data_unit_offset + source * pc.units_per_element;
  if (pc.units_per_element == 1u) {  // the common case, without a loop
    out_units[target] = data_units[source];
    return;
  }
  for (uint part = 0u; part < pc.units_per_element; ++part) out_units[target + part] = data_units[source + part];
}

uint itemCount() { return pc.pass_elements; }
#endif

void main() {
#if VKINDEX_SELF_CHECK
  if (checkAndReport(pc.pass_elements)) return;
#else
  if (badIndexFound()) return;
#endif
  const uint segment_items = ROW_LANES * ITEMS_PER_INVOCATION;
  uint total = itemCount();
  uint segments = divideRoundingUp(total, segment_items);
  uint lane = segmentLane(ROW_LANES);
  Cursor cursor = Cursor(kNotBound, 0u, 0u);
  for (uint segment = firstSegment(ROW_LANES); segment < segments; segment += segmentStride(ROW_LANES)) {
    uint first = segment * segment_items + lane;
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint item = first + i * ROW_LANES;
      if (item >= total) break;
      processItem(item, cursor);
    }
  }
}
