#version 450
#extension GL_GOOGLE_include_directive : require
// First pass of every indexing operator: finds the smallest position whose index (or index-tuple
// component) lies outside [-s, s-1] and records it in the status word, so later passes can skip all
// writes (no half-written output) and the host can report exactly which index was bad.
#include "common/check_params.h"

layout(local_size_x_id = 0) in;

layout(binding = 0, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"

void main() {
  uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  for (uint position = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x; position < pc.index_count;
       position += stride) {
    // Windows hold whole tuples, so the component follows from the position inside the window.
    uint extent = pc.tuple_length == 1u ? pc.extents[0] : pc.extents[position % pc.tuple_length];
    if (!indexInRange(loadIndex(pc.indices_word_offset, position), extent)) {
      atomicMin(status_words[pc.status_slot * VKINDEX_STATUS_SLOT_WORDS], pc.position_base + position);
    }
  }
}
