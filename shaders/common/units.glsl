// Type-agnostic element movement shared by the data-movement kernels. Values are never interpreted;
// bytes move in units of UNIT_BYTES:
//   16, 8, 4: copied as one uvec4/uvec2/uint (the planner picks the widest unit that divides the
//             element or row size and every tensor offset).
//   2, 1:     without 8/16-bit storage a kernel cannot store a single unit, so each invocation owns
//             one 32-bit output word and assembles it from the units it holds (`loadSubUnit`,
//             `storeOwnedBits`); no two invocations write the same word.
// The including shader defines VKINDEX_DATA_BINDING and VKINDEX_OUT_BINDING first.
#ifndef VKINDEX_UNITS_GLSL
#define VKINDEX_UNITS_GLSL
#include "common/spec_ids.h"

layout(constant_id = VKINDEX_SPEC_UNIT_BYTES) const uint UNIT_BYTES = 4;

// The same bindings seen at three widths: the specialization constant selects one, the others are
// dead code the driver removes.
layout(binding = VKINDEX_DATA_BINDING, std430) readonly buffer Data1 { uint data_words[]; };
layout(binding = VKINDEX_DATA_BINDING, std430) readonly buffer Data2 { uvec2 data_pairs[]; };
layout(binding = VKINDEX_DATA_BINDING, std430) readonly buffer Data4 { uvec4 data_quads[]; };
layout(binding = VKINDEX_OUT_BINDING, std430) buffer Out1 { uint out_words[]; };
layout(binding = VKINDEX_OUT_BINDING, std430) writeonly buffer Out2 { uvec2 out_pairs[]; };
layout(binding = VKINDEX_OUT_BINDING, std430) writeonly buffer Out4 { uvec4 out_quads[]; };

const uint kUnitsPerWord = UNIT_BYTES < 4u ? 4u / UNIT_BYTES : 1u;
const uint kUnitMask = UNIT_BYTES == 1u ? 0xFFu : 0xFFFFu;

// Copies data unit `source` to output unit `target` (UNIT_BYTES >= 4).
void copyUnit(uint target, uint source) {
  if (UNIT_BYTES == 16u) {
    out_quads[target] = data_quads[source];
  } else if (UNIT_BYTES == 8u) {
    out_pairs[target] = data_pairs[source];
  } else {
    out_words[target] = data_words[source];
  }
}

// Data unit `source` (UNIT_BYTES 1 or 2), right-aligned in a word.
uint loadSubUnit(uint source) {
  uint shift = (source % kUnitsPerWord) * 8u * UNIT_BYTES;
  return (data_words[source / kUnitsPerWord] >> shift) & kUnitMask;
}

// Four data bytes starting at byte `source_byte` (any alignment) as one word, funnel-shifted from the
// one or two aligned words holding them. The caller guarantees all four bytes lie in the binding.
uint loadUnalignedWord(uint source_byte) {
  uint source_word = source_byte >> 2;
  uint shift = (source_byte & 3u) * 8u;
  uint value = data_words[source_word] >> shift;
  if (shift != 0u) value |= data_words[source_word + 1u] << (32u - shift);
  return value;
}

// Stores the bits `owned` of output word `word` (an assembled sub-word result). A fully owned word is
// a plain store; a partly owned one (its other bytes belong to another pass or lie outside the
// tensor) replaces only its own bytes, atomically, since a neighbour may be writing the rest.
void storeOwnedBits(uint word, uint value, uint owned) {
  if (owned == 0xFFFFFFFFu) {
    out_words[word] = value;
  } else if (owned != 0u) {
    atomicAnd(out_words[word], ~owned);
    atomicOr(out_words[word], value & owned);
  }
}

#endif
