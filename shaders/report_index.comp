#version 450
#extension GL_GOOGLE_include_directive : require
// Runs after every check pass of an operation, one invocation per indices window: when the first bad
// position lies in this window, copies its value next to it in the status slot for the host's message.
// The one way any operator reports a bad index.
#include "common/check_params.h"

layout(local_size_x = 1) in;

layout(binding = 0, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"

void main() {
  uint base = pc.status_slot * VKINDEX_STATUS_SLOT_WORDS;
  uint position = status_words[base];
  if (position == VKINDEX_NO_ERROR || position < pc.position_base || position - pc.position_base >= pc.index_count) {
    return;
  }
  uvec2 value = loadIndex(pc.indices_word_offset, position - pc.position_base);
  status_words[base + 1u] = value.x;
  status_words[base + 2u] = value.y;
}
