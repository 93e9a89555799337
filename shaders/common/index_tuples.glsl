// The data row an index tuple of ScatterND, GatherND or Gather (k = 1) addresses: its k components,
// each normalized against the data dim it indexes, in row-major order; under the skip policy
// kSkippedIndex when any component lies outside [0, s-1] of its dim. Expects the indices binding
// (common/indices.glsl), a TUPLE_LENGTH constant and a push block with `indices_word_offset` and
// `extents`.
#ifndef VKINDEX_INDEX_TUPLES_GLSL
#define VKINDEX_INDEX_TUPLES_GLSL

uint tupleRow(uint tuple) {
  uint first_word = pc.indices_word_offset + tuple * TUPLE_LENGTH * INDEX_WORDS;
  uint row = 0u;
  for (uint c = 0u; c < TUPLE_LENGTH; ++c) {
    uint extent = pc.extents[c];
    uvec2 value = loadIndex(first_word, c);
    if (skipsIndices()) {
      uint index = indexOrSkipped(value, extent);
      if (index == kSkippedIndex) return kSkippedIndex;
      row = row * extent + index;
    } else {
      row = row * extent + normalizeIndex(value, extent);
    }
  }
  return row;
}

#endif
