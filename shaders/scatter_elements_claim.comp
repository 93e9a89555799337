#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
// ScatterElements with reduction none, first of two passes: every update claims the data element its
// index addresses in a winner table (one word per data element, zeroed before), keeping the highest
// update position + 1. atomicMax gives the same table whatever order the invocations run in, so the
// write pass (scatter_elements_write.comp) can apply every update at once and still let the last one
// win, where the walk (scatter_elements.comp) keeps one invocation per line busy: a vector, or any
// tensor with few lines, would be walked by a handful of invocations.
// Built again with VKINDEX_CLEAR_CLAIMS (scatter_elements_clear_claims): the pass before the claim
// where the table has more words than there are updates, zeroing only the words the updates claim,
// so that a few updates into a large tensor do not pay for a table the size of the data.
// Built again with VKINDEX_CLAIM_STORE and VKINDEX_CLAIM_FIXUP (scatter_elements_claim_store, then
// scatter_elements_claim_fixup): the same table in two passes with fewer atomics
// (common/claim_word.glsl).
// Under the skip policy an update whose index is skipped claims (and clears) nothing.
#include "common/spec_ids.h"
#include "common/scatter_elements_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 1, std430) buffer Winners { uint winners[]; };
layout(binding = 2, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/element_lines.glsl"
#include "common/status_gate.glsl"
#include "common/claim_word.glsl"

void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint count = passUpdateCount();
  for (uint item = firstInvocationItem(); item < count; item += stride) {
    uint position, target;
    locateUpdate(item, position, target);
    if (target != kSkippedIndex) claimWord(target, position);
  }
}
