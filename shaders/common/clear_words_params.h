// Push constants of clear_words.comp.
#ifndef VKINDEX_CLEAR_WORDS_PARAMS_H
#define VKINDEX_CLEAR_WORDS_PARAMS_H
#include "abi.h"

VKINDEX_PUSH_BLOCK_BEGIN(ClearWordsParams)
  uint status_slot;  // unused: clearing scratch writes nothing the caller sees
  uint word_count;
  uint word_offset;
VKINDEX_PUSH_BLOCK_END(ClearWordsParams)

#endif
