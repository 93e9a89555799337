// Push constants of copy_words.comp: the gated copy of data into an out-of-place scatter output.
#ifndef VKINDEX_COPY_WORDS_PARAMS_H
#define VKINDEX_COPY_WORDS_PARAMS_H
#include "abi.h"

VKINDEX_PUSH_BLOCK_BEGIN(CopyWordsParams)
  uint status_slot;
  uint byte_count;           // bytes to copy; a last partial word keeps its other bytes
  uint source_word_offset;
  uint target_word_offset;
VKINDEX_PUSH_BLOCK_END(CopyWordsParams)

#endif
