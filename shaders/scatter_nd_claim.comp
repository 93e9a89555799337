#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
// ScatterND with reduction none, first of two passes: every index tuple claims the data row it
// addresses in a winner table (one word per data row, zeroed before), keeping the highest tuple
// position + 1. atomicMax gives the same table whatever order the invocations run in, so the write
// pass (scatter_nd_write.comp) can apply every tuple at once and still let the last one win.
// Built again with VKINDEX_CLEAR_CLAIMS (scatter_nd_clear_claims), as scatter_elements_claim.comp is:
// zeroing only the rows the tuples claim, where the table has more rows than there are tuples.
// Built again with VKINDEX_CLAIM_STORE and VKINDEX_CLAIM_FIXUP (scatter_nd_claim_store, then
// scatter_nd_claim_fixup): the same table in two passes with fewer atomics (common/claim_word.glsl).
#include "common/spec_ids.h"
#include "common/scatter_nd_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
layout(constant_id = VKINDEX_SPEC_TUPLE_LENGTH) const uint TUPLE_LENGTH = 1;

layout(binding = 0, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 1, std430) buffer Winners { uint winners[]; };
layout(binding = 2, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/index_tuples.glsl"
#include "common/status_gate.glsl"
#include "common/claim_word.glsl"

void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint first = firstInvocationItem();
  for (uint n = pc.first_tuple + first; n < pc.end_tuple; n += stride) {
    uint row = tupleRow(n);
    if (row != kSkippedIndex) claimWord(row, n);  // a skipped tuple claims (and clears) nothing
  }
}
