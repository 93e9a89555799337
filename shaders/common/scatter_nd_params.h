// Push constants of scatter_nd.comp: one invocation per element of a slice walks every index tuple in
// order, so duplicates combine deterministically and distinct invocations never share a target
// element. Offsets are in 32-bit words: every tensor starts at a multiple of 4 bytes. A tensor larger
// than one binding is bound a window at a time: a pass reads tuples whose indices and updates lie in
// their windows, and writes only the targets in [target_begin, target_end), those of its output
// window (whole slices); a window that starts past its tensor's first element gives a word offset
// below zero, kept modulo 2^32, which every address the kernels form brings back (a kernel that
// divides an offset divides the in-window sum, never the wrapped offset).
#ifndef VKINDEX_SCATTER_ND_PARAMS_H
#define VKINDEX_SCATTER_ND_PARAMS_H
#include "abi.h"

VKINDEX_PUSH_BLOCK_BEGIN(ScatterNDParams)
  uint status_slot;          // the check pass's status slot; a set slot means "write nothing"
  uint slice_elements;       // elements per slice (one invocation each)
  uint first_tuple;          // this pass applies tuples [first, end) in order (passes run in order;
  uint end_tuple;            // see DeviceInfo::max_walk_steps)
  uint updates_word_offset;  // where updates start in their binding, in words
  uint out_word_offset;      // where the output (or in-place data) starts in its binding, in words
  uint indices_word_offset;  // where indices start in their binding, in words
  uint target_begin;         // data elements this pass may write: [target_begin, target_end), numbered
  uint target_end;           // from data's first element; whole slices; [0, 0xFFFFFFFF) in a single window
  uint extents[VKINDEX_MAX_TUPLE_LENGTH];  // the data dims the k tuple components address
VKINDEX_PUSH_BLOCK_END(ScatterNDParams)

#endif
