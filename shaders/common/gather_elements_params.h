// Push constants of gather_elements.comp. GatherElements' output (and its indices) are viewed through
// DIM_COUNT (a specialization constant) coalesced dims (src/plan/gather_elements_plan.cpp merges dims that are contiguous in both
// tensors and drops dims of extent 1): output element p has row-major coordinates c_j over `extents`,
// and copies data element sum_j c_j * data_strides[j], where coordinate `axis_dim` is replaced by the
// (normalized) index at position p. One dispatch (a "pass") writes a range of output elements from a
// range of data elements; passes exist so that tensors larger than maxStorageBufferRange can be bound
// a window at a time.
#ifndef VKINDEX_GATHER_ELEMENTS_PARAMS_H
#define VKINDEX_GATHER_ELEMENTS_PARAMS_H
#include "abi.h"

VKINDEX_PUSH_BLOCK_BEGIN(GatherElementsParams)
  uint status_slot;          // the check pass's status slot; a set slot means "write nothing"
  uint units_per_element;    // element bytes / UNIT_BYTES (1 for sub-word elements)
  uint pass_elements;        // output elements written by this pass
  uint first_element;        // flat position of the pass's first output element
  uint axis_size;            // s = data.shape[axis]: index values lie in [-s, s-1]
  uint data_element_begin;   // data elements [begin, end) are bound in this pass
  uint data_element_end;
  uint data_unit_offset;     // where data element `data_element_begin` starts in its binding, in units
  uint out_unit_offset;      // where the pass's first output element starts in its binding, in units
  uint out_word_count;       // sub-word units: output words this pass owns (from word 0 of the binding)
  uint indices_word_offset;  // where the pass's first index starts in its binding, in 32-bit words
  uint axis_dim;             // the coalesced dim the index replaces
  uint extents[VKINDEX_MAX_ELEMENT_DIMS];       // output (= indices) extents, row-major
  uint data_strides[VKINDEX_MAX_ELEMENT_DIMS];  // data element strides of the same dims
VKINDEX_PUSH_BLOCK_END(GatherElementsParams)

#endif
