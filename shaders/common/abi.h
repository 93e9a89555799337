// Lets one header declare a push-constant block for both GLSL and C++. In C++ the block becomes a
// plain struct in namespace vkindex::abi with a static_assert on its size: 128 bytes is the minimum
// maxPushConstantsSize that every Vulkan device guarantees, so no block may exceed it.
#ifndef VKINDEX_ABI_H
#define VKINDEX_ABI_H

#ifdef __cplusplus
#include <cstdint>
#define VKINDEX_PUSH_BLOCK_BEGIN(Name) \
  namespace vkindex::abi {             \
  using uint = uint32_t;               \
  struct Name {
#define VKINDEX_PUSH_BLOCK_END(Name)                                                 \
  };                                                                                 \
  static_assert(sizeof(Name) <= 128, #Name " exceeds the 128-byte push budget");  \
  }
#else
#define VKINDEX_PUSH_BLOCK_BEGIN(Name) layout(push_constant) uniform Name {
#define VKINDEX_PUSH_BLOCK_END(Name) } pc;
#endif

// Every push block starts with `status_slot`: the runner (src/ops/op_runner.cpp) fills word 0.
// A status slot is 4 words: [first bad position, its value's low word, high word, unused]. The check
// pass atomicMin()s bad positions into word 0, so the smallest wins and the report is deterministic;
// a later dispatch copies that index's value into words 1-2 for the host's message.
#define VKINDEX_STATUS_SLOT_WORDS 4u
// Word 0 value meaning "no bad index seen".
#define VKINDEX_NO_ERROR 0xFFFFFFFFu

// Longest index tuple (GatherND/ScatterND's last indices dim) a kernel reads: its extents travel in
// push constants, and 12 words is what gather_rows.comp's block has left of the 128-byte budget.
#define VKINDEX_MAX_TUPLE_LENGTH 12

// Coalesced dims an element kernel (GatherElements, ScatterElements) can describe: rank 8 always fits,
// higher ranks when they coalesce.
#define VKINDEX_MAX_ELEMENT_DIMS 8

#endif
