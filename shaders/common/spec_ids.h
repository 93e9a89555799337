// Specialization constant ids and the codes they carry, named per kernel family, for GLSL
// (`layout(constant_id = VKINDEX_SPEC_ITEMS)`) and C++ (plan::SpecConstant, the planners' codes) alike.
// Ids 0, 1 and 6 mean the same in every kernel; ids 2 to 5 mean what the kernel's family says. Seven
// ids in all (plan::kSpecCount): a pipeline is keyed by its kernel and these seven values.
#ifndef VKINDEX_SPEC_IDS_H
#define VKINDEX_SPEC_IDS_H

// Every kernel.
#define VKINDEX_SPEC_WORKGROUP_SIZE 0  // local_size_x_id
#define VKINDEX_SPEC_INDEX_WORDS 1     // 1: int32 indices, 2: int64 indices
// Every kernel that reads indices (common/indices.glsl): VKINDEX_POLICY_*, what an index outside
// [0, s-1] means.
#define VKINDEX_SPEC_INDEX_POLICY 6

// Copy family: gather_rows, gather_row_bytes, gather_elements, check_indices, scatter_nd_rows,
// copy_words, copy.
#define VKINDEX_SPEC_UNIT_BYTES 2  // bytes moved per unit: 16, 8, 4, or 2/1 for sub-word assembly
#define VKINDEX_SPEC_ITEMS 3       // units per invocation per block (row gathers: per row segment)
#define VKINDEX_SPEC_ROW_LANES 4   // invocations sharing one row segment
// Id 5 in the copy family: the index tuple length k (gather_rows, gather_row_bytes and the ScatterND
// kernels), the coalesced dim count (gather_elements and the ScatterElements kernels), or whether to
// batch the loads of whole segments (copy). Constants, so that per-component loops unroll with constant
// push-array indices (docs/gather-kernels.md).
#define VKINDEX_SPEC_TUPLE_LENGTH 5
#define VKINDEX_SPEC_DIM_COUNT 5
#define VKINDEX_SPEC_BATCHED_LOADS 5

// Scatter family: the walks, winner tables, atomics and folds (shaders/common/scatter_apply.glsl and
// scatter_combine.glsl); id 5 as above (tuple length or dim count).
#define VKINDEX_SPEC_ELEMENT_BYTES 2  // bytes per element
#define VKINDEX_SPEC_REDUCTION 3      // VKINDEX_REDUCE_*
#define VKINDEX_SPEC_ELEMENT_KIND 4   // VKINDEX_KIND_*: the arithmetic of the element type

// Fold-by-owner family (bucket_alloc, bucket_sort, scatter_fold): id 5 switches a pass's mode.
#define VKINDEX_SPEC_GROUP_RESERVE 5  // bucket_alloc: reserve shared cursors once per workgroup
#define VKINDEX_SPEC_LONG_BUCKETS 5   // bucket_sort: sort the long owners' buckets (the second pass)
#define VKINDEX_SPEC_STAGED_RUNS 5    // scatter_fold: a heavy pass stages its runs in shared memory

// TensorScatter (tensor_scatter.comp); ids 3 and 4 as the copy family's (VKINDEX_SPEC_ITEMS,
// VKINDEX_SPEC_ROW_LANES: its row segments).
#define VKINDEX_SPEC_ELEMENT_BITS 2  // 4, 8, 16 or 32: the width the kernel moves elements in

// GatherBlockQuantized (gather_block_quantized.comp; common/gather_block_quantized_params.h has the codes).
#define VKINDEX_SPEC_CODE_KIND 2      // VKINDEX_CODE_*: what a code of data is
#define VKINDEX_SPEC_CODE_BITS 3      // 8, 4 or 2: bits per code of data (and of zero points)
#define VKINDEX_SPEC_SCALE_KIND 4     // VKINDEX_SCALE_*: the scales' and the output's type
#define VKINDEX_SPEC_SEGMENT_WORDS 5  // the word path: data words per invocation's segment of a row

// VKINDEX_SPEC_INDEX_POLICY's codes (the order of vkindex::IndexPolicy).
#define VKINDEX_POLICY_ERROR 0  // ONNX: [-s, s-1], negative counting from the back; a check pass ran first
#define VKINDEX_POLICY_SKIP 1   // only [0, s-1] addresses anything; other values address nothing

// VKINDEX_SPEC_REDUCTION's codes (the order of vkindex::Reduction).
#define VKINDEX_REDUCE_NONE 0
#define VKINDEX_REDUCE_ADD 1
#define VKINDEX_REDUCE_MUL 2
#define VKINDEX_REDUCE_MAX 3
#define VKINDEX_REDUCE_MIN 4

// VKINDEX_SPEC_ELEMENT_KIND's codes: the arithmetic a reduction applies (0: none, data only moves).
#define VKINDEX_KIND_MOVE 0
#define VKINDEX_KIND_INT32 1
#define VKINDEX_KIND_UINT32 2
#define VKINDEX_KIND_FLOAT32 3
#define VKINDEX_KIND_INT64 4
#define VKINDEX_KIND_UINT64 5
#define VKINDEX_KIND_INT8 6
#define VKINDEX_KIND_UINT8 7
#define VKINDEX_KIND_INT16 8
#define VKINDEX_KIND_UINT16 9
#define VKINDEX_KIND_FLOAT16 10
#define VKINDEX_KIND_BFLOAT16 11
#define VKINDEX_KIND_FLOAT64 12
#define VKINDEX_KIND_COMPLEX64 13
#define VKINDEX_KIND_COMPLEX128 14

#endif
