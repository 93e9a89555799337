// The plan every operator's planner returns and the one runner (src/ops/op_runner) records: a list of
// dispatch steps, each naming its kernel, specialization values, bindings by tensor role and window,
// push-constant words and workgroup count, plus the barriers it waits for. Plain data, no Vulkan: the
// planners build and the unit tests inspect it without a device.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "plan/shape.hpp"
#include "plan/windows.hpp"

namespace vkindex::plan {

// The compute kernels (one per shaders/*.comp that operators dispatch).
enum class Kernel : uint32_t {
  kCheckIndices,  // check_indices.comp: first out-of-range index (or tuple component) into the status slot
  // The same reading each int64 index as one 64-bit component (DeviceInfo::int64_units; int64
  // indices at 8-byte offsets).
  kCheckIndicesInt64,
  // The same comparing with extents of 2^32 or more (extents_hi): only empty data has such a dim, so
  // the check is all such an operation runs.
  kCheckIndicesWide,
  kReportIndex,  // report_index.comp: copies the first bad index's value next to its position
  // Gather and GatherND, rows addressed by k-component index tuples: gather_rows.comp in 16-, 8- and
  // 4-byte units (one module per width), gather_row_bytes.comp for rows that are not whole words.
  kGatherRows,
  kGatherRows8,
  kGatherRows4,
  kGatherRowBytes,
  // gather_rows.comp doing its own index check and report in its one workgroup (small operations).
  kGatherRowsChecked,
  kGatherRowsChecked8,
  kGatherRowsChecked4,
  // gather_rows.comp moving 16- and 8-byte units as 64-bit components (DeviceInfo::int64_units).
  kGatherRowsInt64,
  kGatherRowsInt64_8,
  // The same five (16-, 8-, 4-byte units, 16- and 8-byte as 64-bit components) holding one copy path
  // each (RowPath): the plain modules above hold rows in segments alone, these whole rows shorter than
  // a segment, one lane each, and short rows by columns.
  kGatherShortRows,
  kGatherShortRows8,
  kGatherShortRows4,
  kGatherShortRowsInt64,
  kGatherShortRowsInt64_8,
  kGatherColumns,
  kGatherColumns8,
  kGatherColumns4,
  kGatherColumnsInt64,
  kGatherColumnsInt64_8,
  // GatherElements, one index per output element: gather_elements.comp in 16-, 8- and 4-byte units (one
  // module per width), and its sub-word module for 1- and 2-byte elements.
  kGatherElements,
  kGatherElements8,
  kGatherElements4,
  kGatherElementBytes,
  kScatterElements,  // scatter_elements.comp: ScatterElements, one invocation per line along the axis
  kScatterND,        // scatter_nd.comp: ScatterND, one invocation per slice element over every tuple
  // The same two with soft-float add and mul: float32 (float, float16, bfloat16, complex64), and
  // float64 (double, complex128). Integer arithmetic, max and min use the plain ones.
  kScatterElementsFloat32,
  kScatterElementsFloat64,
  kScatterNDFloat32,
  kScatterNDFloat64,
  // The same two with float32 add only (float and complex64), which SwiftShader runs far faster
  // (docs/reductions.md gives the numbers for this and the variants below).
  kScatterElementsFloat32Add,
  kScatterNDFloat32Add,
  // The same taking the device's float adder where its bits are exact (DeviceInfo::native_float32_add).
  kScatterElementsFloat32AddNative,
  kScatterNDFloat32AddNative,
  // The same two with float16 and bfloat16 add only, and with float64 and complex128 add only
  // (faster on SwiftShader).
  kScatterElementsHalfAdd,
  kScatterNDHalfAdd,
  kScatterElementsFloat64Add,
  kScatterNDFloat64Add,
  // The same two with max and min of int32, uint32 and float32 only (faster on SwiftShader).
  kScatterElementsOrder32,
  kScatterNDOrder32,
  // The same two with add and mul of int32 and uint32 only (faster on SwiftShader).
  kScatterElementsInt32,
  kScatterNDInt32,
  // The same two with the other integers' reductions only: no float compares (faster on SwiftShader).
  kScatterElementsIntegers,
  kScatterNDIntegers,
  // The same two with reduction none only, which SwiftShader runs far faster than the plain ones.
  kScatterElementsMove,
  kScatterNDMove,
  kScatterNDMoveChecked,  // scatter_nd_move doing its own index check and report (a few tuples in place)
  // ScatterElements none as a winner table, where the walk would leave the device idle (few lines):
  kScatterElementsClaim,  // scatter_elements_claim.comp: each update claims its data element
  kScatterElementsWrite,  // scatter_elements_write.comp: the winning updates, all at once
  // The same write driven by the table, a data element per invocation, where the table was zeroed whole.
  kScatterElementsWriteByTarget,
  kScatterNDClaim,  // scatter_nd_claim.comp: ScatterND none, each tuple claims its row in a winner table
  // The claim passes again, zeroing the table words they would claim: where the table is larger
  // than the updates, instead of kClearWords over all of it.
  kScatterElementsClearClaims,
  kScatterNDClearClaims,
  // The claim passes again as a store pass, then a fixup pass over the same updates: the same table with
  // an atomic read-modify-write only where updates share a target (DeviceInfo::claim_by_store).
  kScatterElementsClaimStore,
  kScatterElementsClaimFixup,
  kScatterNDClaimStore,
  kScatterNDClaimFixup,
  kScatterNDWrite,          // scatter_nd_write.comp: ScatterND none, the winning tuples' updates, all at once
  kScatterNDWriteByTarget,  // the same per data element, for narrow slices, where the table was zeroed whole
  // The write passes again with no table, applying an order-independent integer reduction (4-byte
  // add, max and min, 8-byte add) with atomics, every update at once, where a walk would idle the device.
  kScatterElementsAtomic,
  kScatterNDAtomic,
  // scatter_nd_rows.comp: the same write for slices of whole 16-, 8- or 4-byte units, in row segments.
  kScatterNDRows,
  kScatterNDRows8,
  kScatterNDRows4,
  // The same moving 16- and 8-byte units as 64-bit components (DeviceInfo::int64_units).
  kScatterNDRowsInt64,
  kScatterNDRowsInt64_8,
  // A reduction where the walk would leave the device idle (few lines, narrow ScatterND slices): the
  // fold by owner (shaders/common/scatter_buckets_params.h). Each update records its target and
  // counts itself there, light targets get buckets, positions fill them, one owner per target sorts
  // its bucket and then folds it in index order; heavy targets' positions are sorted by target,
  // stably, and one owner per heavy target folds its run.
  kScatterElementsLocate,  // scatter_elements_locate.comp
  kScatterNDLocate,        // scatter_nd_locate.comp
  kBucketCount,            // bucket_count.comp
  kBucketAlloc,            // bucket_alloc.comp
  kBucketFill,             // bucket_fill.comp
  kHeavyPlan,              // heavy_plan.comp: the heavy passes' indirect dispatches
  kHeavyScan,              // heavy_scan.comp
  kHeavySortCount,         // heavy_sort_count.comp
  kHeavySortScatter,       // heavy_sort_scatter.comp
  kBucketSort,             // bucket_sort.comp: the light buckets, before their fold
  // scatter_fold.comp with the walk kernels' arithmetic variants (integers, soft float32, soft
  // float64, float32 add alone (soft, or native where exact), float16 and bfloat16 add alone, float64
  // and complex128 add alone, 4-byte max and min alone, 32-bit integer add and mul alone, the other
  // integers alone).
  kScatterFold,
  kScatterFoldFloat32,
  kScatterFoldFloat64,
  kScatterFoldFloat32Add,
  kScatterFoldFloat32AddNative,
  kScatterFoldHalfAdd,
  kScatterFoldFloat64Add,
  kScatterFoldOrder32,
  kScatterFoldInt32,
  kScatterFoldIntegers,
  kCopyWords,       // copy_words.comp: gated copy of data into an out-of-place scatter output
  kCopyWords16,     // the same in 16-byte units and row segments, for the aligned bulk of a large copy
  kCopyWordsInt64,  // the same 16-byte units as 64-bit components (DeviceInfo::int64_units)
  kClearWords,      // clear_words.comp: zeroes scratch tables
  kCopy,            // copy.comp: the benchmark's compute-copy ceiling
  kCopyInt64,       // the same in 64-bit components (DeviceInfo::int64_units)
  kCount,
};

// gather_rows.comp's copy paths, one module each (its self-checking modules hold all three): a module
// holding the others too ran SwiftShader's path slower, reachable or not (docs/gather-kernels.md).
enum class RowPath : uint32_t {
  kSegments,   // copyRows: rows in segments of lanes x items units (every pass that takes no other path)
  kShortRows,  // copyShortRows: whole rows shorter than a segment, a segment per lane (CPU drivers)
  kColumns,    // copyColumns: rows of at most 4 units shared by whole slices, by columns (one lane each)
};

// The row-gather kernel that moves rows in `unit_bytes` units (16, 8, 4; 2 and 1: kGatherRowBytes) on
// `path`, or its self-checking variant (copy units only, every path). `int64_units`
// (DeviceInfo::int64_units) picks the 64-bit-component modules for 16- and 8-byte units; the
// self-checking ones have none.
Kernel rowGatherKernel(uint32_t unit_bytes, bool self_check = false, bool int64_units = false,
                       RowPath path = RowPath::kSegments);
// The copy path a row-gather kernel of copy units holds alone, or nullopt for the self-checking and
// sub-word ones (every path).
std::optional<RowPath> rowGatherPath(Kernel kernel);
// True for the nine row-gather kernels.
bool isRowGatherKernel(Kernel kernel);
// True for the two index-check kernels.
bool isCheckKernel(Kernel kernel);
// The ScatterND row-write kernel for `unit_bytes` units (16, 8 or 4), with `int64_units` as above.
Kernel scatterNDRowsKernel(uint32_t unit_bytes, bool int64_units);
// The unit a ScatterND row-write kernel moves (16, 8 or 4 bytes), or 0 for any other kernel.
uint32_t scatterNDRowsUnitBytes(Kernel kernel);
// The out-of-place scatters' copy of the 16-byte-aligned bulk of data, with `int64_units` as above
// (the tail is kCopyWords).
Kernel bulkCopyKernel(bool int64_units);
// The unit a copy-words kernel moves (16 or 4 bytes), or 0 for any other kernel.
uint32_t copyWordsUnitBytes(Kernel kernel);
// The GatherElements kernel for `unit_bytes` units (16, 8, 4; 2 and 1: kGatherElementBytes).
Kernel elementGatherKernel(uint32_t unit_bytes);
// True for the four GatherElements kernels.
bool isElementGatherKernel(Kernel kernel);

// Specialization constant ids shared by all shaders (see shaders/*.comp).
enum SpecConstant : uint32_t {
  kSpecWorkgroupSize = 0,  // local_size_x_id
  kSpecIndexWords = 1,     // 1: int32 indices, 2: int64 indices
  kSpecUnitBytes = 2,      // bytes moved per unit: 16, 8, 4, or 2/1 for sub-word assembly
  kSpecItems = 3,          // units per invocation per block (gather_rows.comp: per row segment)
  kSpecRowLanes = 4,       // gather_rows.comp: invocations sharing one row segment (1 for gather_row_bytes)
  // The scatter kernels reuse ids 2-4 (shaders/common/scatter_apply.glsl): 2 is the element size in
  // bytes, 3 the reduction, 4 the element kind of its arithmetic.
  kSpecReduction = 3,
  kSpecElementKind = 4,
  // gather_rows.comp: index tuple length k; gather_elements.comp: coalesced dim count. A constant so
  // that the per-component loop unrolls with constant push-array indices (a loop bounded by a push
  // constant made lavapipe's Gathers far slower: docs/gather-kernels.md).
  // copy.comp reuses it: 1 to batch the loads of whole segments, as gather_rows.comp does; and
  // scatter_fold.comp: 1 where a heavy pass stages its runs in shared memory (FoldLayout::staged_runs).
  kSpecDims = 5,
  kSpecCount = 6,
};
using SpecValues = std::array<uint32_t, kSpecCount>;

// What a binding refers to; the runner maps each role to the call's tensor (or its own status slot
// and scratch buffer).
enum class Role : uint32_t { kData, kIndices, kUpdates, kOutput, kStatus, kScratch };

struct Binding {
  Role role = Role::kData;
  Window window;  // bytes of the role's buffer; ignored for kStatus (the runner binds the op's slot)
};

// 128 bytes: the minimum maxPushConstantsSize every Vulkan device guarantees.
constexpr uint32_t kMaxPushWords = 32;

// One dispatch. Word 0 of every kernel's push block is its status slot, which the runner fills.
struct Step {
  Kernel kernel = Kernel::kCount;
  SpecValues spec{};
  std::vector<Binding> bindings;  // binding i of the shader is bindings[i]
  std::array<uint32_t, kMaxPushWords> push{};
  uint32_t push_bytes = 0;
  uint64_t groups = 0;  // workgroups needed; the runner spreads them over x and y
  // Where set, the dispatch is indirect: earlier steps wrote its group counts (a
  // VkDispatchIndirectCommand, never more than `groups` groups) at this byte offset of scratch.
  std::optional<uint64_t> indirect_scratch_offset;
  // Ranges written by earlier steps that this step reads or writes: the runner places a compute ->
  // compute barrier on each before the dispatch (kStatus: the status slot).
  std::vector<Binding> wait_for;
};

// Stores a push block (one of the abi:: structs shared with GLSL) into a step.
template <typename Params>
void setPush(Step& step, const Params& params) {
  static_assert(std::is_trivially_copyable_v<Params> && sizeof(Params) <= kMaxPushWords * 4);
  std::memcpy(step.push.data(), &params, sizeof(Params));
  step.push_bytes = sizeof(Params);
}

// Reads a step's push block back (tests, simulators).
template <typename Params>
Params pushOf(const Step& step) {
  Params params;
  std::memcpy(&params, step.push.data(), sizeof(Params));
  return params;
}

// How a bad index found on the device is described to the user.
struct IndexReport {
  std::string op;     // "GatherND"
  std::string input;  // "indices"
  Shape indices_shape;
  // true: indices' last dim holds index tuples (GatherND, ScatterND), and messages name the tuple and
  // its component; false: each element is one index into axis data_dims[0].
  bool tuples = false;
  std::vector<uint64_t> extents;   // the size each tuple component (or the single index) addresses
  std::vector<int64_t> data_dims;  // the data dim each component addresses
};

struct OpPlan {
  std::vector<Step> steps;
  IndexReport report;
  uint64_t scratch_bytes = 0;  // device scratch memory the steps bind as Role::kScratch
};

// The bindings of `step` with role `role` (tests and simulators).
const Window* windowOf(const Step& step, Role role);

}  // namespace vkindex::plan
