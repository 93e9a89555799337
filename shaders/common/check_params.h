// Push constants of check_indices.comp: validates the indices of one window of an indices tensor
// (a large tensor is checked a binding window at a time) against the size of the axis they address,
// before any output is written.
#ifndef VKINDEX_CHECK_PARAMS_H
#define VKINDEX_CHECK_PARAMS_H
#include "abi.h"

VKINDEX_PUSH_BLOCK_BEGIN(CheckParams)
  uint index_count;  // indices in this window
  uint position_base; // flat position of the window's first index (reported positions are absolute)
  uint axis_size;    // s: valid values are [-s, s-1]; s == 0 admits none
  uint status_slot;  // status slot (4 words) that receives the first bad position and its value
  uint indices_word_offset;  // where the indices start in their binding, in 32-bit words
  uint report_only;  // 1: only copy the bad index's value into the slot (when no copy pass follows)
VKINDEX_PUSH_BLOCK_END(CheckParams)

#endif
