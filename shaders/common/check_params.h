// Push constants of check_indices.comp: validates every index of one indices tensor against the
// size of the axis it addresses before any output is written.
#ifndef VKINDEX_CHECK_PARAMS_H
#define VKINDEX_CHECK_PARAMS_H
#include "abi.h"

VKINDEX_PUSH_BLOCK_BEGIN(CheckParams)
  uint index_count;  // indices to check (the whole tensor; it fits one binding)
  uint axis_size;    // s: valid values are [-s, s-1]; s == 0 admits none
  uint status_slot;  // status slot (4 words) that receives the first bad position and its value
  uint indices_word_offset;  // where the indices start in their binding, in 32-bit words
  uint report_only;  // 1: only copy the bad index's value into the slot (when no copy pass follows)
VKINDEX_PUSH_BLOCK_END(CheckParams)

#endif
