#version 450
#extension GL_GOOGLE_include_directive : require
// First pass of every indexing operator: finds the smallest position whose index (or index-tuple
// component) lies outside [-s, s-1] and records it in the status word, so later passes can skip all
// writes (no half-written output) and the host can report exactly which index was bad.
//
// Positions are laid out in the row gathers' segments (ROW_LANES x ITEMS positions, interleaved), so
// a CPU driver's invocation checks a long run and a GPU's lanes read adjacent words. One position per
// invocation made the check cost the CPU drivers many copies of the indices' bytes, most of a
// GatherElements (docs/gather-kernels.md). Each invocation walks its positions in increasing order,
// so its first bad one is the only one it needs to report.
#include "common/spec_ids.h"
#include "common/check_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
// Positions each invocation checks per segment.
layout(constant_id = VKINDEX_SPEC_ITEMS) const uint ITEMS_PER_INVOCATION = 1;
// Invocations sharing a segment (a power of two dividing the workgroup size).
layout(constant_id = VKINDEX_SPEC_ROW_LANES) const uint ROW_LANES = 1;

#ifndef VKINDEX_INT64_INDICES
#define VKINDEX_INT64_INDICES 0
#endif
#if VKINDEX_INT64_INDICES
// check_indices_int64: int64 indices at an 8-byte offset (the planner's choice), one 64-bit component
// each, where the device has shaderInt64 (Tuning::int64_units): lavapipe loads each component of
// a storage access lane by lane, so this halves the check's loads (common/indices.glsl).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(binding = 0, std430) readonly buffer Indices { uint64_t indices_pairs[]; };
#else
layout(binding = 0, std430) readonly buffer Indices { uint indices_words[]; };
#endif
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"

#ifndef VKINDEX_WIDE_EXTENTS
#define VKINDEX_WIDE_EXTENTS 0
#endif

// check_indices_wide: extents of 2^32 or more (extents_hi), which only empty data can have, so only
// the check runs; the other modules keep the one-word test.
bool componentInRange(uvec2 value, uint component) {
#if VKINDEX_WIDE_EXTENTS
  return indexInRangeWide(value, uvec2(pc.extents[component], pc.extents_hi[component]));
#else
  return indexInRange(value, pc.extents[component]);
#endif
}

void main() {
  const uint segment_positions = ROW_LANES * ITEMS_PER_INVOCATION;
  uint segments = divideRoundingUp(pc.index_count, segment_positions);
  uint lane = segmentLane(ROW_LANES);
  // Windows hold whole tuples, so the component follows from the position inside the window; it
  // advances by ROW_LANES mod k from one item to the next.
  uint component_step = ROW_LANES % pc.tuple_length;
  for (uint segment = firstSegment(ROW_LANES); segment < segments; segment += segmentStride(ROW_LANES)) {
    uint first = segment * segment_positions + lane;
    uint component = pc.tuple_length == 1u ? 0u : first % pc.tuple_length;
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint position = first + i * ROW_LANES;
      if (position >= pc.index_count) break;
      if (!componentInRange(loadIndex(pc.indices_word_offset, position), component)) {
        atomicMin(status_words[pc.status_slot * VKINDEX_STATUS_SLOT_WORDS], pc.position_base + position);
        return;
      }
      component += component_step;
      if (component >= pc.tuple_length) component -= pc.tuple_length;
    }
  }
}
