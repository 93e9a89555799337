// check_indices.comp and report_index.comp done inside a writing kernel, for operations with few
// index components, where three dispatches cost more than the data. Every invocation reads every
// component of the first `tuples` tuples (positions count components from the first tuple, which
// must be the tensor's first; the planner keeps them few) and finds the smallest bad one, so all
// agree without shared memory or a barrier, which cost SwiftShader more than the reads. Invocation 0
// of the first group records it and its value in the status slot, or VKINDEX_NO_ERROR when every
// component is in range: the kernel writes its own status, so the slot needs no reset before it
// (OpPlan::writes_own_status) and the dispatch waits for nothing. Expects common/indices.glsl, a
// `status_words` binding, TUPLE_LENGTH and a push block `pc` with `status_slot`,
// `indices_word_offset` and `extents`; or, for a push block without `extents`, a definition of
// VKINDEX_SELF_CHECK_EXTENT(position), the range of component `position`.
#ifndef VKINDEX_SELF_CHECK_GLSL
#define VKINDEX_SELF_CHECK_GLSL

#ifndef VKINDEX_SELF_CHECK_EXTENT
#define VKINDEX_SELF_CHECK_EXTENT(position) \
  (TUPLE_LENGTH == 1u ? pc.extents[0] : pc.extents[(position) % TUPLE_LENGTH])
#endif

// Returns true when a component was out of range (and nothing may be written).
bool checkAndReport(uint tuples) {
  for (uint position = 0u; position < tuples * TUPLE_LENGTH; ++position) {
    uint extent = VKINDEX_SELF_CHECK_EXTENT(position);
    uvec2 value = loadIndex(pc.indices_word_offset, position);
    if (!indexInRange(value, extent)) {
      if (gl_GlobalInvocationID.x == 0u && gl_GlobalInvocationID.y == 0u) {
        uint base = pc.status_slot * VKINDEX_STATUS_SLOT_WORDS;
        status_words[base] = position;
        status_words[base + 1u] = value.x;
        status_words[base + 2u] = value.y;
      }
      return true;
    }
  }
  if (gl_GlobalInvocationID.x == 0u && gl_GlobalInvocationID.y == 0u) {
    status_words[pc.status_slot * VKINDEX_STATUS_SLOT_WORDS] = VKINDEX_NO_ERROR;
  }
  return false;
}

#endif
