#version 450
#extension GL_GOOGLE_include_directive : require
// Zeroes scratch words that a later pass builds a table in with atomics (scatter_nd_claim.comp).
#include "common/clear_words_params.h"

layout(local_size_x_id = 0) in;

layout(binding = 0, std430) writeonly buffer Target { uint target_words[]; };

void main() {
  uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
  uint first = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  for (uint w = first; w < pc.word_count; w += stride) target_words[pc.word_offset + w] = 0u;
}
