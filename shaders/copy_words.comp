#version 450
#extension GL_GOOGLE_include_directive : require
// The copy of data into an out-of-place scatter output, behind the status gate so that a bad index
// leaves the caller's output untouched. A last partial word keeps its bytes beyond the tensor.
#include "common/copy_words_params.h"

layout(local_size_x_id = 0) in;

layout(binding = 0, std430) readonly buffer Source { uint source_words[]; };
layout(binding = 1, std430) buffer Target { uint target_words[]; };
layout(binding = 2, std430) buffer Status { uint status_words[]; };

#include "common/status_gate.glsl"

void main() {
  if (badIndexFound()) return;
  uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
  uint first = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
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
