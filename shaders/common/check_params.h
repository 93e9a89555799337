// Push constants of check_indices.comp and report_index.comp: validate one window of an indices tensor
// (a large tensor is checked a binding window at a time) before any output is written. Indices are
// seen as tuples of `tuple_length` components (1 for Gather, GatherElements and ScatterElements; the
// last dim of indices for GatherND and ScatterND); component c must lie in [-s, s-1] for
// s = extents[c], or s = extents_hi[c] * 2^32 + extents[c] in the check_indices_wide module (a dim of
// 2^32 or more, which only an empty tensor can have). Windows hold whole tuples.
#ifndef VKINDEX_CHECK_PARAMS_H
#define VKINDEX_CHECK_PARAMS_H
#include "abi.h"

VKINDEX_PUSH_BLOCK_BEGIN(CheckParams)
  uint status_slot;          // status slot (4 words) that receives the first bad position and its value
  uint index_count;          // index elements (tuple components) in this window
  uint position_base;        // flat position of the window's first element (reported positions are absolute)
  uint indices_word_offset;  // where the window's first element starts in its binding, in 32-bit words
  uint tuple_length;         // k, at most VKINDEX_MAX_TUPLE_LENGTH
  uint extents[VKINDEX_MAX_TUPLE_LENGTH];     // s per component (its low word); s == 0 admits no index
  uint extents_hi[VKINDEX_MAX_TUPLE_LENGTH];  // s's high word (read by check_indices_wide only)
VKINDEX_PUSH_BLOCK_END(CheckParams)

#endif
