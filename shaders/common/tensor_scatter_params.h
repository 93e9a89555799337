// Push constants of tensor_scatter.comp: TensorScatter (ONNX opset 24), the KV-cache write. The cache is
// [batch, rows_per_batch..., max_seq, row...] seen as batch x rows_per_batch x max_seq rows of
// `row_elements` elements; the update has seq_len rows where the cache has max_seq. Elements are
// ELEMENT_BITS wide (4, 8, 16 or 32; wider ones move as 32-bit words, counted as such here). Offsets
// are in 32-bit words: every tensor starts at a multiple of 4 bytes, so a window's lead is whole words.
#ifndef VKINDEX_TENSOR_SCATTER_PARAMS_H
#define VKINDEX_TENSOR_SCATTER_PARAMS_H
#include "abi.h"

// `pass`: what a dispatch does.
#define VKINDEX_TS_PASS_CHECK 0  // one invocation per write index: atomicMin the bad ones' batch entries
#define VKINDEX_TS_PASS_COPY 1   // past -> output, word by word (out of place; before the write pass)
#define VKINDEX_TS_PASS_WRITE 2  // the update's rows into the output; reports a bad write index

// `gate`: how a copy or write pass learns that a write index is bad (and so writes nothing).
#define VKINDEX_TS_GATE_NONE 0        // none can be: no write indices, or the skip policy
#define VKINDEX_TS_GATE_SELF_CHECK 1  // every invocation reads every write index (few batch entries)
#define VKINDEX_TS_GATE_STATUS 2      // the check pass's status slot

// `flags` bits.
#define VKINDEX_TS_CIRCULAR 1u      // mode "circular": positions wrap modulo max_seq
#define VKINDEX_TS_SKIP 2u          // IndexPolicy::kSkip: a bad write index skips its batch entry
#define VKINDEX_TS_HAS_INDICES 4u   // write indices given (absent: all zeros)

VKINDEX_PUSH_BLOCK_BEGIN(TensorScatterParams)
  uint status_slot;          // the operation's status slot
  uint pass;                 // VKINDEX_TS_PASS_*
  uint gate;                 // VKINDEX_TS_GATE_*
  uint flags;                // VKINDEX_TS_* bits
  uint batch;                // write indices (int64, one per batch entry)
  uint rows_per_batch;       // product of the dims between the batch axis and the sequence axis
  uint seq_len;              // update rows per (batch entry, outer row); at most max_seq
  uint max_seq;              // cache rows per (batch entry, outer row)
  uint row_elements;         // elements per row (the dims after the sequence axis)
  uint row_slots;            // write pass: output words a row can touch (one invocation each)
  uint row_count;            // write pass: batch x rows_per_batch x seq_len
  uint cache_bytes;          // copy pass: bytes of the cache (a 4-bit cache's padding nibble included)
  uint indices_word_offset;  // where write indices start in their binding, in words
  uint update_word_offset;   // where the update starts in its binding, in words
  uint past_word_offset;     // where past_cache starts in its binding, in words (copy pass)
  uint out_word_offset;      // where the output starts in its binding, in words
VKINDEX_PUSH_BLOCK_END(TensorScatterParams)

#endif
