#version 450
#extension GL_GOOGLE_include_directive : require
// Zeroes scratch words that a later pass builds a table in with atomics (scatter_nd_claim.comp).
#include "common/spec_ids.h"
#include "common/clear_words_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) writeonly buffer Target { uint target_words[]; };

void main() {
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  for (uint w = first; w < pc.word_count; w += stride) target_words[pc.word_offset + w] = 0u;
}
