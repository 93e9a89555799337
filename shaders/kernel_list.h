// The compute kernels: every SPIR-V module vkindex embeds, declared once. No include guard: each includer
// defines VKINDEX_KERNEL(id, module, source, defines, push_block) and includes this list, which
// - src/plan/op_plan.hpp expands into the plan::Kernel enumerators (`id`),
// - src/kernels/shader_registry.cpp into the registry (`module`'s embedded SPIR-V and the size of its
//   `push_block`, the struct shaders/common/*_params.h shares with GLSL),
// - cmake/vkindex_shaders.cmake reads to compile `source` (in shaders/) with the comma-separated
//   preprocessor `defines` into the module `module`.
// A variant is a line here: the same source with other defines (where SPIR-V types or the code compiled
// in differ; values that only vary take specialization constants). One entry per line, in this form, so
// that CMake can read it. docs/architecture.md, "Add a kernel variant".
// check_indices.comp: first out-of-range index (or tuple component) into the status slot
VKINDEX_KERNEL(kCheckIndices, check_indices, check_indices.comp, "", abi::CheckParams)
// The same reading each int64 index as one 64-bit component (Tuning::int64_units; int64
// indices at 8-byte offsets).
VKINDEX_KERNEL(kCheckIndicesInt64, check_indices_int64, check_indices.comp, "VKINDEX_INT64_INDICES=1", abi::CheckParams)
// The same comparing with extents of 2^32 or more (extents_hi): only empty data has such a dim, so
// the check is all such an operation runs.
VKINDEX_KERNEL(kCheckIndicesWide, check_indices_wide, check_indices.comp, "VKINDEX_WIDE_EXTENTS=1", abi::CheckParams)
// report_index.comp: copies the first bad index's value next to its position
VKINDEX_KERNEL(kReportIndex, report_index, report_index.comp, "", abi::CheckParams)
// Gather and GatherND, rows addressed by k-component index tuples: gather_rows.comp in 16-, 8- and
// 4-byte units (one module per width), gather_row_bytes.comp for rows that are not whole words.
VKINDEX_KERNEL(kGatherRows, gather_rows, gather_rows.comp, "", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherRows8, gather_rows_8, gather_rows.comp, "VKINDEX_UNIT_BYTES=8", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherRows4, gather_rows_4, gather_rows.comp, "VKINDEX_UNIT_BYTES=4", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherRowBytes, gather_row_bytes, gather_row_bytes.comp, "", abi::GatherRowsParams)
// gather_rows.comp doing its own index check and report first (small operations: one dispatch), one
// module per copy path as below, in 16-, 8- and 4-byte units: rows in segments, short rows, columns.
VKINDEX_KERNEL(kGatherRowsChecked, gather_rows_checked, gather_rows.comp, "VKINDEX_SELF_CHECK=1", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherRowsChecked8, gather_rows_checked_8, gather_rows.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_SELF_CHECK=1", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherRowsChecked4, gather_rows_checked_4, gather_rows.comp, "VKINDEX_UNIT_BYTES=4,VKINDEX_SELF_CHECK=1", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherShortRowsChecked, gather_short_rows_checked, gather_rows.comp, "VKINDEX_ROW_PATH=2,VKINDEX_SELF_CHECK=1", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherShortRowsChecked8, gather_short_rows_checked_8, gather_rows.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_ROW_PATH=2,VKINDEX_SELF_CHECK=1", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherShortRowsChecked4, gather_short_rows_checked_4, gather_rows.comp, "VKINDEX_UNIT_BYTES=4,VKINDEX_ROW_PATH=2,VKINDEX_SELF_CHECK=1", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherColumnsChecked, gather_columns_checked, gather_rows.comp, "VKINDEX_ROW_PATH=3,VKINDEX_SELF_CHECK=1", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherColumnsChecked8, gather_columns_checked_8, gather_rows.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_ROW_PATH=3,VKINDEX_SELF_CHECK=1", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherColumnsChecked4, gather_columns_checked_4, gather_rows.comp, "VKINDEX_UNIT_BYTES=4,VKINDEX_ROW_PATH=3,VKINDEX_SELF_CHECK=1", abi::GatherRowsParams)
// gather_rows.comp moving 16- and 8-byte units as 64-bit components (Tuning::int64_units).
VKINDEX_KERNEL(kGatherRowsInt64, gather_rows_int64, gather_rows.comp, "VKINDEX_INT64_UNITS=1", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherRowsInt64_8, gather_rows_int64_8, gather_rows.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_INT64_UNITS=1", abi::GatherRowsParams)
// The same five (16-, 8-, 4-byte units, 16- and 8-byte as 64-bit components) holding one copy path
// each (RowPath): the plain modules above hold rows in segments alone, these whole rows shorter than
// a segment, one lane each, and short rows by columns.
VKINDEX_KERNEL(kGatherShortRows, gather_short_rows, gather_rows.comp, "VKINDEX_ROW_PATH=2", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherShortRows8, gather_short_rows_8, gather_rows.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_ROW_PATH=2", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherShortRows4, gather_short_rows_4, gather_rows.comp, "VKINDEX_UNIT_BYTES=4,VKINDEX_ROW_PATH=2", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherShortRowsInt64, gather_short_rows_int64, gather_rows.comp, "VKINDEX_INT64_UNITS=1,VKINDEX_ROW_PATH=2", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherShortRowsInt64_8, gather_short_rows_int64_8, gather_rows.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_INT64_UNITS=1,VKINDEX_ROW_PATH=2", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherColumns, gather_columns, gather_rows.comp, "VKINDEX_ROW_PATH=3", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherColumns8, gather_columns_8, gather_rows.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_ROW_PATH=3", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherColumns4, gather_columns_4, gather_rows.comp, "VKINDEX_UNIT_BYTES=4,VKINDEX_ROW_PATH=3", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherColumnsInt64, gather_columns_int64, gather_rows.comp, "VKINDEX_INT64_UNITS=1,VKINDEX_ROW_PATH=3", abi::GatherRowsParams)
VKINDEX_KERNEL(kGatherColumnsInt64_8, gather_columns_int64_8, gather_rows.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_INT64_UNITS=1,VKINDEX_ROW_PATH=3", abi::GatherRowsParams)
// GatherElements, one index per output element: gather_elements.comp in 16-, 8- and 4-byte units (one
// module per width), and its sub-word module for 1- and 2-byte elements.
VKINDEX_KERNEL(kGatherElements, gather_elements, gather_elements.comp, "", abi::GatherElementsParams)
VKINDEX_KERNEL(kGatherElements8, gather_elements_8, gather_elements.comp, "VKINDEX_UNIT_BYTES=8", abi::GatherElementsParams)
VKINDEX_KERNEL(kGatherElements4, gather_elements_4, gather_elements.comp, "VKINDEX_UNIT_BYTES=4", abi::GatherElementsParams)
VKINDEX_KERNEL(kGatherElementBytes, gather_element_bytes, gather_elements.comp, "VKINDEX_UNIT_BYTES=0", abi::GatherElementsParams)
// The same four checking every index themselves first (VKINDEX_SELF_CHECK): a GatherElements of a few
// indices in one dispatch.
VKINDEX_KERNEL(kGatherElementsChecked, gather_elements_checked, gather_elements.comp, "VKINDEX_SELF_CHECK=1", abi::GatherElementsParams)
VKINDEX_KERNEL(kGatherElementsChecked8, gather_elements_checked_8, gather_elements.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_SELF_CHECK=1", abi::GatherElementsParams)
VKINDEX_KERNEL(kGatherElementsChecked4, gather_elements_checked_4, gather_elements.comp, "VKINDEX_UNIT_BYTES=4,VKINDEX_SELF_CHECK=1", abi::GatherElementsParams)
VKINDEX_KERNEL(kGatherElementBytesChecked, gather_element_bytes_checked, gather_elements.comp, "VKINDEX_UNIT_BYTES=0,VKINDEX_SELF_CHECK=1", abi::GatherElementsParams)
// scatter_elements.comp: ScatterElements, one invocation per line along the axis
VKINDEX_KERNEL(kScatterElements, scatter_elements, scatter_elements.comp, "", abi::ScatterElementsParams)
// scatter_nd.comp: ScatterND, one invocation per slice element over every tuple
VKINDEX_KERNEL(kScatterND, scatter_nd, scatter_nd.comp, "", abi::ScatterNDParams)
// The same two with soft-float add and mul: float32 (float, float16, bfloat16, complex64), and
// float64 (double, complex128). Integer arithmetic, max and min use the plain ones.
VKINDEX_KERNEL(kScatterElementsFloat32, scatter_elements_float32, scatter_elements.comp, "VKINDEX_SCATTER_FLOATS=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterElementsFloat64, scatter_elements_float64, scatter_elements.comp, "VKINDEX_SCATTER_FLOATS=2", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDFloat32, scatter_nd_float32, scatter_nd.comp, "VKINDEX_SCATTER_FLOATS=1", abi::ScatterNDParams)
VKINDEX_KERNEL(kScatterNDFloat64, scatter_nd_float64, scatter_nd.comp, "VKINDEX_SCATTER_FLOATS=2", abi::ScatterNDParams)
// The same two with float32 add only (float and complex64), which SwiftShader runs far faster
// (docs/reductions.md gives the numbers for this and the variants below).
VKINDEX_KERNEL(kScatterElementsFloat32Add, scatter_elements_float32_add, scatter_elements.comp, "VKINDEX_SCATTER_FLOAT32_ADD=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDFloat32Add, scatter_nd_float32_add, scatter_nd.comp, "VKINDEX_SCATTER_FLOAT32_ADD=1", abi::ScatterNDParams)
// The same taking the device's float adder where its bits are exact (Tuning::native_float32_add).
VKINDEX_KERNEL(kScatterElementsFloat32AddNative, scatter_elements_float32_add_native, scatter_elements.comp, "VKINDEX_SCATTER_FLOAT32_ADD=1,VKINDEX_NATIVE_FLOAT32_ADD=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDFloat32AddNative, scatter_nd_float32_add_native, scatter_nd.comp, "VKINDEX_SCATTER_FLOAT32_ADD=1,VKINDEX_NATIVE_FLOAT32_ADD=1", abi::ScatterNDParams)
// The same two with float16 and bfloat16 add only, and with float64 and complex128 add only
// (faster on SwiftShader).
VKINDEX_KERNEL(kScatterElementsHalfAdd, scatter_elements_half_add, scatter_elements.comp, "VKINDEX_SCATTER_FLOATS=1,VKINDEX_SCATTER_SOFT_ADD=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDHalfAdd, scatter_nd_half_add, scatter_nd.comp, "VKINDEX_SCATTER_FLOATS=1,VKINDEX_SCATTER_SOFT_ADD=1", abi::ScatterNDParams)
VKINDEX_KERNEL(kScatterElementsFloat64Add, scatter_elements_float64_add, scatter_elements.comp, "VKINDEX_SCATTER_FLOATS=2,VKINDEX_SCATTER_SOFT_ADD=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDFloat64Add, scatter_nd_float64_add, scatter_nd.comp, "VKINDEX_SCATTER_FLOATS=2,VKINDEX_SCATTER_SOFT_ADD=1", abi::ScatterNDParams)
// The same two with max and min of int32, uint32 and float32 only (faster on SwiftShader).
VKINDEX_KERNEL(kScatterElementsOrder32, scatter_elements_order32, scatter_elements.comp, "VKINDEX_SCATTER_ORDER32=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDOrder32, scatter_nd_order32, scatter_nd.comp, "VKINDEX_SCATTER_ORDER32=1", abi::ScatterNDParams)
// The same two with add and mul of int32 and uint32 only (faster on SwiftShader).
VKINDEX_KERNEL(kScatterElementsInt32, scatter_elements_int32, scatter_elements.comp, "VKINDEX_SCATTER_INT32=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDInt32, scatter_nd_int32, scatter_nd.comp, "VKINDEX_SCATTER_INT32=1", abi::ScatterNDParams)
// The same two with the other integers' reductions only: no float compares (faster on SwiftShader).
VKINDEX_KERNEL(kScatterElementsIntegers, scatter_elements_integers, scatter_elements.comp, "VKINDEX_SCATTER_INTEGERS=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDIntegers, scatter_nd_integers, scatter_nd.comp, "VKINDEX_SCATTER_INTEGERS=1", abi::ScatterNDParams)
// The same two with reduction none only, which SwiftShader runs far faster than the plain ones.
VKINDEX_KERNEL(kScatterElementsMove, scatter_elements_move, scatter_elements.comp, "VKINDEX_SCATTER_MOVE_ONLY=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDMove, scatter_nd_move, scatter_nd.comp, "VKINDEX_SCATTER_MOVE_ONLY=1", abi::ScatterNDParams)
// The move-only walks doing their own index check and report (a few updates in place, reduction none:
// one dispatch).
VKINDEX_KERNEL(kScatterNDMoveChecked, scatter_nd_move_checked, scatter_nd.comp, "VKINDEX_SCATTER_MOVE_ONLY=1,VKINDEX_SELF_CHECK=1", abi::ScatterNDParams)
VKINDEX_KERNEL(kScatterElementsMoveChecked, scatter_elements_move_checked, scatter_elements.comp, "VKINDEX_SCATTER_MOVE_ONLY=1,VKINDEX_SELF_CHECK=1", abi::ScatterElementsParams)
// ScatterElements none as a winner table, where the walk would leave the device idle (few lines):
// scatter_elements_claim.comp: each update claims its data element
VKINDEX_KERNEL(kScatterElementsClaim, scatter_elements_claim, scatter_elements_claim.comp, "", abi::ScatterElementsParams)
// scatter_elements_write.comp: the winning updates, all at once
VKINDEX_KERNEL(kScatterElementsWrite, scatter_elements_write, scatter_elements_write.comp, "", abi::ScatterElementsParams)
// The same write driven by the table, a data element per invocation, where the table was zeroed whole.
VKINDEX_KERNEL(kScatterElementsWriteByTarget, scatter_elements_write_by_target, scatter_elements_write.comp, "VKINDEX_WRITE_BY_TARGET=1", abi::ScatterElementsParams)
// scatter_nd_claim.comp: ScatterND none, each tuple claims its row in a winner table
VKINDEX_KERNEL(kScatterNDClaim, scatter_nd_claim, scatter_nd_claim.comp, "", abi::ScatterNDParams)
// The claim passes again, zeroing the table words they would claim: where the table is larger
// than the updates, instead of kClearWords over all of it.
VKINDEX_KERNEL(kScatterElementsClearClaims, scatter_elements_clear_claims, scatter_elements_claim.comp, "VKINDEX_CLEAR_CLAIMS=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDClearClaims, scatter_nd_clear_claims, scatter_nd_claim.comp, "VKINDEX_CLEAR_CLAIMS=1", abi::ScatterNDParams)
// The claim passes again as a store pass, then a fixup pass over the same updates: the same table with
// an atomic read-modify-write only where updates share a target (Tuning::claim_by_store).
VKINDEX_KERNEL(kScatterElementsClaimStore, scatter_elements_claim_store, scatter_elements_claim.comp, "VKINDEX_CLAIM_STORE=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterElementsClaimFixup, scatter_elements_claim_fixup, scatter_elements_claim.comp, "VKINDEX_CLAIM_FIXUP=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDClaimStore, scatter_nd_claim_store, scatter_nd_claim.comp, "VKINDEX_CLAIM_STORE=1", abi::ScatterNDParams)
VKINDEX_KERNEL(kScatterNDClaimFixup, scatter_nd_claim_fixup, scatter_nd_claim.comp, "VKINDEX_CLAIM_FIXUP=1", abi::ScatterNDParams)
// scatter_nd_write.comp: ScatterND none, the winning tuples' updates, all at once
VKINDEX_KERNEL(kScatterNDWrite, scatter_nd_write, scatter_nd_write.comp, "", abi::ScatterNDParams)
// the same per data element, for narrow slices, where the table was zeroed whole
VKINDEX_KERNEL(kScatterNDWriteByTarget, scatter_nd_write_by_target, scatter_nd_write.comp, "VKINDEX_WRITE_BY_TARGET=1", abi::ScatterNDParams)
// The write passes again with no table, applying an order-independent integer reduction (4-byte
// add, max and min, 8-byte add) with atomics, every update at once, where a walk would idle the device.
VKINDEX_KERNEL(kScatterElementsAtomic, scatter_elements_atomic, scatter_elements_write.comp, "VKINDEX_SCATTER_ATOMIC=1", abi::ScatterElementsParams)
VKINDEX_KERNEL(kScatterNDAtomic, scatter_nd_atomic, scatter_nd_write.comp, "VKINDEX_SCATTER_ATOMIC=1", abi::ScatterNDParams)
// scatter_nd_rows.comp: the same write for slices of whole 16-, 8- or 4-byte units, in row segments.
VKINDEX_KERNEL(kScatterNDRows, scatter_nd_rows, scatter_nd_rows.comp, "", abi::ScatterNDParams)
VKINDEX_KERNEL(kScatterNDRows8, scatter_nd_rows_8, scatter_nd_rows.comp, "VKINDEX_UNIT_BYTES=8", abi::ScatterNDParams)
VKINDEX_KERNEL(kScatterNDRows4, scatter_nd_rows_4, scatter_nd_rows.comp, "VKINDEX_UNIT_BYTES=4", abi::ScatterNDParams)
// The same moving 16- and 8-byte units as 64-bit components (Tuning::int64_units).
VKINDEX_KERNEL(kScatterNDRowsInt64, scatter_nd_rows_int64, scatter_nd_rows.comp, "VKINDEX_INT64_UNITS=1", abi::ScatterNDParams)
VKINDEX_KERNEL(kScatterNDRowsInt64_8, scatter_nd_rows_int64_8, scatter_nd_rows.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_INT64_UNITS=1", abi::ScatterNDParams)
// scatter_nd_rows.comp in 16-, 8- and 4-byte units doing its own index check and report, with no
// winner table (a few tuples in place, reduction none: one dispatch).
VKINDEX_KERNEL(kScatterNDRowsChecked, scatter_nd_rows_checked, scatter_nd_rows.comp, "VKINDEX_SELF_CHECK=1", abi::ScatterNDParams)
VKINDEX_KERNEL(kScatterNDRowsChecked8, scatter_nd_rows_checked_8, scatter_nd_rows.comp, "VKINDEX_UNIT_BYTES=8,VKINDEX_SELF_CHECK=1", abi::ScatterNDParams)
VKINDEX_KERNEL(kScatterNDRowsChecked4, scatter_nd_rows_checked_4, scatter_nd_rows.comp, "VKINDEX_UNIT_BYTES=4,VKINDEX_SELF_CHECK=1", abi::ScatterNDParams)
// A reduction where the walk would leave the device idle (few lines, narrow ScatterND slices): the
// fold by owner (shaders/common/scatter_buckets_params.h). Each update records its target and
// counts itself there, light targets get buckets, positions fill them, one owner per target sorts
// its bucket and then folds it in index order; heavy targets' positions are sorted by target,
// stably, and one owner per heavy target folds its run.
// scatter_elements_locate.comp
VKINDEX_KERNEL(kScatterElementsLocate, scatter_elements_locate, scatter_elements_locate.comp, "", abi::ScatterElementsParams)
// scatter_nd_locate.comp
VKINDEX_KERNEL(kScatterNDLocate, scatter_nd_locate, scatter_nd_locate.comp, "", abi::ScatterNDParams)
// bucket_count.comp
VKINDEX_KERNEL(kBucketCount, bucket_count, bucket_count.comp, "", abi::BucketParams)
// bucket_alloc.comp
VKINDEX_KERNEL(kBucketAlloc, bucket_alloc, bucket_alloc.comp, "", abi::BucketParams)
// bucket_fill.comp
VKINDEX_KERNEL(kBucketFill, bucket_fill, bucket_fill.comp, "", abi::BucketParams)
// heavy_plan.comp: the heavy passes' indirect dispatches
VKINDEX_KERNEL(kHeavyPlan, heavy_plan, heavy_plan.comp, "", abi::BucketParams)
// heavy_scan.comp
VKINDEX_KERNEL(kHeavyScan, heavy_scan, heavy_scan.comp, "", abi::BucketParams)
// heavy_sort_count.comp
VKINDEX_KERNEL(kHeavySortCount, heavy_sort_count, heavy_sort_count.comp, "", abi::BucketParams)
// heavy_sort_scatter.comp
VKINDEX_KERNEL(kHeavySortScatter, heavy_sort_scatter, heavy_sort_scatter.comp, "", abi::BucketParams)
// bucket_sort.comp: the light buckets, before their fold
VKINDEX_KERNEL(kBucketSort, bucket_sort, bucket_sort.comp, "", abi::BucketParams)
// scatter_fold.comp with the walk kernels' arithmetic variants (integers, soft float32, soft
// float64, float32 add alone (soft, or native where exact), float16 and bfloat16 add alone, float64
// and complex128 add alone, 4-byte max and min alone, 32-bit integer add and mul alone, the other
// integers alone).
VKINDEX_KERNEL(kScatterFold, scatter_fold, scatter_fold.comp, "", abi::BucketParams)
VKINDEX_KERNEL(kScatterFoldFloat32, scatter_fold_float32, scatter_fold.comp, "VKINDEX_SCATTER_FLOATS=1", abi::BucketParams)
VKINDEX_KERNEL(kScatterFoldFloat64, scatter_fold_float64, scatter_fold.comp, "VKINDEX_SCATTER_FLOATS=2", abi::BucketParams)
VKINDEX_KERNEL(kScatterFoldFloat32Add, scatter_fold_float32_add, scatter_fold.comp, "VKINDEX_SCATTER_FLOAT32_ADD=1", abi::BucketParams)
VKINDEX_KERNEL(kScatterFoldFloat32AddNative, scatter_fold_float32_add_native, scatter_fold.comp, "VKINDEX_SCATTER_FLOAT32_ADD=1,VKINDEX_NATIVE_FLOAT32_ADD=1", abi::BucketParams)
VKINDEX_KERNEL(kScatterFoldHalfAdd, scatter_fold_half_add, scatter_fold.comp, "VKINDEX_SCATTER_FLOATS=1,VKINDEX_SCATTER_SOFT_ADD=1", abi::BucketParams)
VKINDEX_KERNEL(kScatterFoldFloat64Add, scatter_fold_float64_add, scatter_fold.comp, "VKINDEX_SCATTER_FLOATS=2,VKINDEX_SCATTER_SOFT_ADD=1", abi::BucketParams)
VKINDEX_KERNEL(kScatterFoldOrder32, scatter_fold_order32, scatter_fold.comp, "VKINDEX_SCATTER_ORDER32=1", abi::BucketParams)
VKINDEX_KERNEL(kScatterFoldInt32, scatter_fold_int32, scatter_fold.comp, "VKINDEX_SCATTER_INT32=1", abi::BucketParams)
VKINDEX_KERNEL(kScatterFoldIntegers, scatter_fold_integers, scatter_fold.comp, "VKINDEX_SCATTER_INTEGERS=1", abi::BucketParams)
// copy_words.comp: gated copy of data into an out-of-place scatter output
VKINDEX_KERNEL(kCopyWords, copy_words, copy_words.comp, "", abi::CopyWordsParams)
// the same in 16-byte units and row segments, for the aligned bulk of a large copy
VKINDEX_KERNEL(kCopyWords16, copy_words_16, copy_words.comp, "VKINDEX_UNIT_BYTES=16", abi::CopyWordsParams)
// the same 16-byte units as 64-bit components (Tuning::int64_units)
VKINDEX_KERNEL(kCopyWordsInt64, copy_words_int64, copy_words.comp, "VKINDEX_UNIT_BYTES=16,VKINDEX_INT64_UNITS=1", abi::CopyWordsParams)
// clear_words.comp: zeroes scratch tables
VKINDEX_KERNEL(kClearWords, clear_words, clear_words.comp, "", abi::ClearWordsParams)
// copy.comp: the benchmark's compute-copy ceiling
VKINDEX_KERNEL(kCopy, copy, copy.comp, "", uint32_t)
// the same in 64-bit components (Tuning::int64_units)
VKINDEX_KERNEL(kCopyInt64, copy_int64, copy.comp, "VKINDEX_INT64_UNITS=1", uint32_t)
// tensor_scatter.comp: TensorScatter's check, copy and write passes (the push block's `pass`)
VKINDEX_KERNEL(kTensorScatter, tensor_scatter, tensor_scatter.comp, "", abi::TensorScatterParams)
// gather_block_quantized.comp: GatherBlockQuantized's dequantizing gather, four output words per invocation
VKINDEX_KERNEL(kGatherBlockQuantized, gather_block_quantized, gather_block_quantized.comp, "", abi::GatherBlockQuantizedParams)
// The same for tables whose codes along quantize_axis (the last axis) fill whole data words: a segment of
// a row's data words per invocation, each word's codes sharing a scale and zero point
VKINDEX_KERNEL(kGatherBlockQuantizedWords, gather_block_quantized_words, gather_block_quantized.comp, "VKINDEX_GBQ_WORD_PATH=1", abi::GatherBlockQuantizedParams)
// The word path multiplying with the device's float32 multiply where the result is sure to be the soft
// float's (devices that round to nearest even on request, like the native float32 add modules), and
// storing a data word's output words as vectors where the output is aligned (VKINDEX_GBQ_VECTORS)
VKINDEX_KERNEL(kGatherBlockQuantizedWordsNative, gather_block_quantized_words_native, gather_block_quantized.comp, "VKINDEX_GBQ_WORD_PATH=1,VKINDEX_GBQ_NATIVE_MULTIPLY=1,VKINDEX_GBQ_VECTORS=1", abi::GatherBlockQuantizedParams)
// the same with 16-byte units as 64-bit components (Tuning::int64_units)
VKINDEX_KERNEL(kGatherBlockQuantizedWordsNativeInt64, gather_block_quantized_words_native_int64, gather_block_quantized.comp, "VKINDEX_GBQ_WORD_PATH=1,VKINDEX_GBQ_NATIVE_MULTIPLY=1,VKINDEX_GBQ_VECTORS=1,VKINDEX_GBQ_INT64_UNITS=1", abi::GatherBlockQuantizedParams)
// The word path for float16 and bfloat16 scales on devices without that rounding control: their
// products with integer differences are exact, so the device's multiply gives them (VKINDEX_GBQ_EXACT_PRODUCTS)
VKINDEX_KERNEL(kGatherBlockQuantizedWordsHalfScales, gather_block_quantized_words_half_scales, gather_block_quantized.comp, "VKINDEX_GBQ_WORD_PATH=1,VKINDEX_GBQ_EXACT_PRODUCTS=1", abi::GatherBlockQuantizedParams)
// The four GatherBlockQuantized modules checking every index themselves first (VKINDEX_SELF_CHECK): an
// error-policy lookup of a few indices in one dispatch, without check and report passes
VKINDEX_KERNEL(kGatherBlockQuantizedChecked, gather_block_quantized_checked, gather_block_quantized.comp, "VKINDEX_SELF_CHECK=1", abi::GatherBlockQuantizedParams)
VKINDEX_KERNEL(kGatherBlockQuantizedWordsChecked, gather_block_quantized_words_checked, gather_block_quantized.comp, "VKINDEX_GBQ_WORD_PATH=1,VKINDEX_SELF_CHECK=1", abi::GatherBlockQuantizedParams)
VKINDEX_KERNEL(kGatherBlockQuantizedWordsHalfScalesChecked, gather_block_quantized_words_half_scales_checked, gather_block_quantized.comp, "VKINDEX_GBQ_WORD_PATH=1,VKINDEX_GBQ_EXACT_PRODUCTS=1,VKINDEX_SELF_CHECK=1", abi::GatherBlockQuantizedParams)
VKINDEX_KERNEL(kGatherBlockQuantizedWordsNativeChecked, gather_block_quantized_words_native_checked, gather_block_quantized.comp, "VKINDEX_GBQ_WORD_PATH=1,VKINDEX_GBQ_NATIVE_MULTIPLY=1,VKINDEX_GBQ_VECTORS=1,VKINDEX_SELF_CHECK=1", abi::GatherBlockQuantizedParams)
