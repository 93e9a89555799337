#version 450
#extension GL_GOOGLE_include_directive : require
// The copy of data into an out-of-place scatter output, behind the status gate so that a bad index
// leaves the caller's output untouched. Two modules: this one word per invocation, where a last
// partial word keeps its bytes beyond the tensor; and (VKINDEX_UNIT_BYTES 16, copy_words_16, and
// copy_words_int64 in 64-bit components) whole 16-byte units in segments of ROW_LANES x ITEMS units
// per group of ROW_LANES invocations, the layout of the row gathers, for the 16-byte-aligned bulk of a
// large copy (the planner leaves the tail to the word module). One word per invocation made an
// out-of-place ScatterND of a 125 MiB tensor cost several times a copy.
#include "common/spec_ids.h"
#include "common/copy_words_params.h"

#ifndef VKINDEX_UNIT_BYTES
#define VKINDEX_UNIT_BYTES 4
#endif

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

#if VKINDEX_UNIT_BYTES == 16
layout(constant_id = VKINDEX_SPEC_ITEMS) const uint ITEMS_PER_INVOCATION = 4;
layout(constant_id = VKINDEX_SPEC_ROW_LANES) const uint ROW_LANES = 1;
#include "common/unit_type.glsl"  // uvec4, or u64vec2 in copy_words_int64
layout(binding = 0, std430) readonly buffer Source { UNIT source_units[]; };
layout(binding = 1, std430) writeonly buffer Target { UNIT target_units[]; };
#elif VKINDEX_UNIT_BYTES == 4
layout(binding = 0, std430) readonly buffer Source { uint source_words[]; };
layout(binding = 1, std430) buffer Target { uint target_words[]; };
#else
#error "VKINDEX_UNIT_BYTES must be 16 or 4"
#endif
layout(binding = 2, std430) buffer Status { uint status_words[]; };

#include "common/status_gate.glsl"

#if VKINDEX_UNIT_BYTES == 16
// byte_count and both offsets are whole units here (the planner's choice).
void main() {
  if (badIndexFound()) return;
  const uint segment_units = ROW_LANES * ITEMS_PER_INVOCATION;
  uint units = pc.byte_count / 16u;
  uint segments = divideRoundingUp(units, segment_units);
  uint lane = segmentLane(ROW_LANES);
  uint source = pc.source_word_offset / 4u, target = pc.target_word_offset / 4u;
  for (uint segment = firstSegment(ROW_LANES); segment < segments; segment += segmentStride(ROW_LANES)) {
    uint first = segment * segment_units + lane;
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint unit = first + i * ROW_LANES;
      if (unit >= units) break;
      target_units[target + unit] = source_units[source + unit];
    }
  }
}
#else
void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  uint whole = pc.byte_count / 4u, words = (pc.byte_count + 3u) / 4u;
  for (uint w = first; w < words; w += stride) {
    uint value = source_words[pc.source_word_offset + w];
    uint target = pc.target_word_offset + w;
    if (w < whole) {
      target_words[target] = value;
    } else {
      uint mask = (1u << ((pc.byte_count & 3u) * 8u)) - 1u;
      atomicAnd(target_words[target], ~mask);
      atomicOr(target_words[target], value & mask);
    }
  }
}
#endif
