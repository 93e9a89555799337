// Push constants of gather_block_quantized.comp: GatherBlockQuantized (com.microsoft), the quantized
// embedding lookup. Data is outer x axis_dim x row_codes codes (gather_axis in the middle), and a pass
// binds the data rows [row_first, row_end) of the gather axis; the output is outer x index_count x
// row_codes elements. Around quantize_axis a code's position p
// (counted from the pass's first row) is (x, y, z) over quantize_span = quantize_dim x quantize_inner
// and quantize_inner; its scale is scales[x * scale_outer_stride + (y >> block_shift) * scale_inner +
// z] (a shared side: x or z taken as 0), counted from the pass's first scale. Divisors come with their
// fast-division multiplier and shift (src/plan/fast_division.hpp).
#ifndef VKINDEX_GATHER_BLOCK_QUANTIZED_PARAMS_H
#define VKINDEX_GATHER_BLOCK_QUANTIZED_PARAMS_H
#include "abi.h"

// `flags` bits.
#define VKINDEX_GBQ_ZERO_POINTS 1u   // zero points given (else the type's default)
#define VKINDEX_GBQ_WRITES_ZEROS 2u  // this pass writes the zero slices of out-of-range indices
#define VKINDEX_GBQ_SHARED_OUTER 4u  // one scale along every axis before quantize_axis (x = 0)
#define VKINDEX_GBQ_SHARED_INNER 8u  // one scale along every axis after quantize_axis (z = 0)
#define VKINDEX_GBQ_STATUS_GATE 16u  // a check pass ran first: write nothing if it found a bad index
// The word path stores each data word's output words as one 16- or 8-byte vector (the output's first
// word lies on such a boundary): a warp's stores then cover contiguous memory.
#define VKINDEX_GBQ_VECTOR_STORES 32u
// The word path takes a segment's plain data words four at a time (a 16-byte load of codes, 16-byte
// stores): the output's first word lies on a 16-byte boundary, the data binding's first row on a
// quad of data words, and segments, rows, blocks and the quantized axis are whole quads.
#define VKINDEX_GBQ_QUAD_WORDS 64u

// Consecutive output words per invocation: its position is found by division once, then stepped.
#define VKINDEX_GBQ_WORDS_PER_INVOCATION 4u

// VKINDEX_SPEC_CODE_KIND's codes: what a code is.
#define VKINDEX_CODE_UINT 0      // unsigned integer of CODE_BITS (uint4, uint8 with bits 8, 4, 2)
#define VKINDEX_CODE_INT4 1      // signed 4-bit integer
#define VKINDEX_CODE_E4M3FN 2    // float8e4m3fn
#define VKINDEX_CODE_E4M3FNUZ 3  // float8e4m3fnuz
#define VKINDEX_CODE_E5M2 4      // float8e5m2
#define VKINDEX_CODE_E5M2FNUZ 5  // float8e5m2fnuz
#define VKINDEX_CODE_E2M1 6      // float4e2m1

// VKINDEX_SPEC_SCALE_KIND's codes: the scales' and the output's type.
#define VKINDEX_SCALE_FLOAT32 0
#define VKINDEX_SCALE_FLOAT16 1
#define VKINDEX_SCALE_BFLOAT16 2

VKINDEX_PUSH_BLOCK_BEGIN(GatherBlockQuantizedParams)
uint status_slot;      // the operation's status slot
uint flags;            // VKINDEX_GBQ_* bits
uint output_elements;  // outer x index_count x row_codes
uint row_codes;        // codes per data row (dims after gather_axis)
uint row_multiplier;
uint row_shift;
uint index_count;  // elements of indices
uint index_multiplier;
uint index_shift;
uint axis_dim;   // data's dim at gather_axis (the index range)
uint row_first;  // the data rows this pass binds: [row_first, row_end) of the gather axis
uint row_end;
uint quantize_span;  // quantize_dim x quantize_inner
uint span_multiplier;
uint span_shift;
uint quantize_inner;  // codes per step along quantize_axis
uint inner_multiplier;
uint inner_shift;
uint block_shift;           // log2(block_size); 31 when one block spans the axis
uint scale_outer_stride;    // scales per x: blocks x scale_inner
uint scale_inner;           // quantize_inner, or 1 when that side is shared
uint zero_point_row_bytes;  // uint8 data with bits 4 or 2: bytes per packed zero-point row
uint default_zero_point;    // without zero points: 0 (int4, uint4) or 2^(bits-1) (uint8)
uint indices_word_offset;   // where indices start in their binding, in words
uint data_code_lead;        // codes between the data binding's start and the pass's first row
uint scale_lead;            // scales between the scales binding's start and the pass's first scale
uint zero_point_lead;       // zero points (codes, or packed rows' bytes x 8 / bits) likewise
uint out_word_offset;       // where the output starts in its binding, in words
uint output_words;          // the output's 32-bit words
VKINDEX_PUSH_BLOCK_END(GatherBlockQuantizedParams)

#endif
