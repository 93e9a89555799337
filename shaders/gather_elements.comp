#version 450
#extension GL_GOOGLE_include_directive : require
// GatherElements, type-agnostic: output element p copies the data element whose coordinates are p's,
// with the axis coordinate replaced by indices[p] (see common/gather_elements_params.h). Elements of
// whole words move as uvec4/uvec2/uint units; 1- and 2-byte elements are assembled one owned output
// word at a time (common/units.glsl), so no two invocations write the same word.
#include "common/gather_elements_params.h"

layout(local_size_x_id = 0) in;
// Items each invocation handles per workgroup block (see gather_rows.comp).
layout(constant_id = 3) const uint ITEMS_PER_INVOCATION = 4;
// Coalesced dims (1..VKINDEX_MAX_ELEMENT_DIMS); a constant so the coordinate loop unrolls.
layout(constant_id = 5) const uint DIM_COUNT = 1;

#define VKINDEX_DATA_BINDING 0
#define VKINDEX_OUT_BINDING 2
#include "common/units.glsl"
layout(binding = 1, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/status_gate.glsl"

const uint kNotBound = 0xFFFFFFFFu;

// The data element output element `element` (relative to the pass) reads, relative to the first bound
// data element, or kNotBound when it lies in another pass's data window.
uint boundSourceElement(uint element) {
  uint rest = pc.first_element + element;
  uint source = 0u;
  for (uint j = DIM_COUNT; j-- > 0u;) {
    // What is left for the outermost dim is its coordinate (positions stay below the output's count),
    // which saves one of the divisions per element (GatherElements usually has two dims).
    uint coordinate = rest;
    if (j > 0u) {
      coordinate = rest % pc.extents[j];
      rest /= pc.extents[j];
    }
    if (j == pc.axis_dim) coordinate = normalizeIndex(loadIndex(pc.indices_word_offset, element), pc.axis_size);
    source += coordinate * pc.data_strides[j];
  }
  if (source < pc.data_element_begin || source >= pc.data_element_end) return kNotBound;
  return source - pc.data_element_begin;
}

void copyElementUnit(uint unit) {
  uint element = unit / pc.units_per_element;
  uint source = boundSourceElement(element);
  if (source == kNotBound) return;
  uint part = unit - element * pc.units_per_element;
  copyUnit(pc.out_unit_offset + unit, pc.data_unit_offset + source * pc.units_per_element + part);
}

// Sub-word elements: assembles output word `word` of the binding from the elements this pass owns in it.
void assembleWord(uint word) {
  uint value = 0u;
  uint owned = 0u;
  for (uint k = 0u; k < kUnitsPerWord; ++k) {
    uint unit_in_binding = word * kUnitsPerWord + k;
    if (unit_in_binding < pc.out_unit_offset) continue;  // an earlier pass's element or another tensor
    uint element = unit_in_binding - pc.out_unit_offset;
    if (element >= pc.pass_elements) break;             // a later pass's element or another tensor
    uint source = boundSourceElement(element);
    if (source == kNotBound) continue;
    uint shift = k * 8u * UNIT_BYTES;
    value |= loadSubUnit(pc.data_unit_offset + source) << shift;
    owned |= kUnitMask << shift;
  }
  storeOwnedBits(word, value, owned);
}

void main() {
  if (badIndexFound()) return;
  bool sub_word = UNIT_BYTES < 4u;
  uint total = sub_word ? pc.out_word_count : pc.pass_elements * pc.units_per_element;
  uint block = gl_WorkGroupSize.x * ITEMS_PER_INVOCATION;
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint grid = gl_NumWorkGroups.x * gl_NumWorkGroups.y * block;
  // Consecutive invocations take consecutive items, so output writes are coalesced.
  for (uint base = group * block; base < total; base += grid) {
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint item = base + i * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
      if (item >= total) break;
      if (sub_word) {
        assembleWord(item);
      } else {
        copyElementUnit(item);
      }
    }
  }
}
