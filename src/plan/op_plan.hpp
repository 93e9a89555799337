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

#include "common/spec_ids.h"
#include "plan/shape.hpp"
#include "plan/windows.hpp"

namespace vkindex::plan {

// The compute kernels, one per embedded SPIR-V module, in the order of shaders/kernel_list.h (what
// each is: the comment above its line there).
enum class Kernel : uint32_t {
#define VKINDEX_KERNEL(id, module, source, defines, push_block) id,
#include "kernel_list.h"
#undef VKINDEX_KERNEL
  kCount,
};

// gather_rows.comp's copy paths, one module each (the self-checking modules too): a module holding the
// others too ran SwiftShader's path slower, reachable or not (docs/gather-kernels.md).
enum class RowPath : uint32_t {
  kSegments,   // copyRows: rows in segments of lanes x items units (every pass that takes no other path)
  kShortRows,  // copyShortRows: whole rows shorter than a segment, a segment per lane (CPU drivers)
  kColumns,    // copyColumns: rows of at most 4 units shared by whole slices, by columns (one lane each)
};

// The row-gather kernel that moves rows in `unit_bytes` units (16, 8, 4; 2 and 1: kGatherRowBytes) on
// `path`, or its self-checking variant (copy units only). `int64_units` (Tuning::int64_units) picks
// the 64-bit-component modules for 16- and 8-byte units; the self-checking ones have none.
Kernel rowGatherKernel(uint32_t unit_bytes, bool self_check = false, bool int64_units = false,
                       RowPath path = RowPath::kSegments);
// The copy path a row-gather kernel of copy units (self-checking or not) holds alone, or nullopt for
// the sub-word one (every path).
std::optional<RowPath> rowGatherPath(Kernel kernel);
// True for the row-gather kernels (gather_rows.comp's modules and gather_row_bytes).
bool isRowGatherKernel(Kernel kernel);
// True for gather_rows.comp's self-checking modules.
bool isSelfCheckingRowGatherKernel(Kernel kernel);
// True for the two index-check kernels.
bool isCheckKernel(Kernel kernel);
// The ScatterND row-write kernel for `unit_bytes` units (16, 8 or 4), with `int64_units` as above.
Kernel scatterNDRowsKernel(uint32_t unit_bytes, bool int64_units);
// The unit a ScatterND row-write kernel moves (16, 8 or 4 bytes), or 0 for any other kernel.
uint32_t scatterNDRowsUnitBytes(Kernel kernel);
// The self-checking ScatterND row-write kernel for `unit_bytes` units (16, 8 or 4): no winner table.
Kernel scatterNDRowsCheckedKernel(uint32_t unit_bytes);
bool isSelfCheckingScatterNDRowsKernel(Kernel kernel);
// The out-of-place scatters' copy of the 16-byte-aligned bulk of data, with `int64_units` as above
// (the tail is kCopyWords).
Kernel bulkCopyKernel(bool int64_units);
// The unit a copy-words kernel moves (16 or 4 bytes), or 0 for any other kernel.
uint32_t copyWordsUnitBytes(Kernel kernel);
// The GatherElements kernel for `unit_bytes` units (16, 8, 4; 2 and 1: kGatherElementBytes), or its
// module that checks every index itself first (a few indices in one dispatch: fuseSmallChecks).
Kernel elementGatherKernel(uint32_t unit_bytes, bool self_checking = false);
// True for the eight GatherElements kernels.
bool isElementGatherKernel(Kernel kernel);
// True for the four self-checking ones.
bool isSelfCheckingElementGatherKernel(Kernel kernel);

// Specialization constant ids, named per kernel family (shaders/common/spec_ids.h, which the shaders
// read too): ids 0, 1 and 6 mean the same in every kernel, 2 to 5 what the kernel's family says.
enum SpecConstant : uint32_t {
  kSpecWorkgroupSize = VKINDEX_SPEC_WORKGROUP_SIZE,
  kSpecIndexWords = VKINDEX_SPEC_INDEX_WORDS,
  kSpecIndexPolicy = VKINDEX_SPEC_INDEX_POLICY,  // VKINDEX_POLICY_*: set by applyIndexPolicy (index_checks.hpp)
  // Copy family: row gathers, GatherElements, index checks, ScatterND rows, copies.
  kSpecUnitBytes = VKINDEX_SPEC_UNIT_BYTES,
  kSpecItems = VKINDEX_SPEC_ITEMS,
  kSpecRowLanes = VKINDEX_SPEC_ROW_LANES,
  kSpecTupleLength = VKINDEX_SPEC_TUPLE_LENGTH,
  kSpecDimCount = VKINDEX_SPEC_DIM_COUNT,
  kSpecBatchedLoads = VKINDEX_SPEC_BATCHED_LOADS,
  // Scatter family (id 5: kSpecTupleLength or kSpecDimCount).
  kSpecElementBytes = VKINDEX_SPEC_ELEMENT_BYTES,
  kSpecReduction = VKINDEX_SPEC_REDUCTION,
  kSpecElementKind = VKINDEX_SPEC_ELEMENT_KIND,
  // Fold-by-owner family.
  kSpecGroupReserve = VKINDEX_SPEC_GROUP_RESERVE,
  kSpecLongBuckets = VKINDEX_SPEC_LONG_BUCKETS,
  kSpecStagedRuns = VKINDEX_SPEC_STAGED_RUNS,
  // TensorScatter.
  kSpecElementBits = VKINDEX_SPEC_ELEMENT_BITS,
  // GatherBlockQuantized.
  kSpecCodeKind = VKINDEX_SPEC_CODE_KIND,
  kSpecCodeBits = VKINDEX_SPEC_CODE_BITS,
  kSpecScaleKind = VKINDEX_SPEC_SCALE_KIND,
  kSpecSegmentWords = VKINDEX_SPEC_SEGMENT_WORDS,
  kSpecCount = 7,
};
using SpecValues = std::array<uint32_t, kSpecCount>;

// What a binding refers to; the runner maps each role to the call's tensor (or its own status slot
// and scratch buffer). kScales and kZeroPoints: GatherBlockQuantized's quantization parameters.
enum class Role : uint32_t { kData, kIndices, kUpdates, kOutput, kStatus, kScratch, kScales, kZeroPoints };

struct Binding {
  Role role = Role::kData;
  Window window;  // bytes of the role's buffer; ignored for kStatus (the runner binds the op's slot)
};

// 128 bytes: the minimum maxPushConstantsSize every Vulkan device guarantees.
constexpr uint32_t kMaxPushWords = 32;

// What a step records. Dispatches run the kernels. The transfer kinds serve gathers whose indices the
// host holds (ops.hpp, HostIndices): they check nothing on the device and need no status slot.
enum class StepKind : uint8_t {
  kDispatch,
  kCopyRegions,     // vkCmdCopyBuffer of `regions` from data to output
  kUploadFromHost,  // vkCmdUpdateBuffer of `host_source` into bindings[0]'s window (its size in bytes)
};

// One vkCmdCopyBuffer region: byte offsets into the data and output buffers.
struct CopyRegion {
  uint64_t source = 0;
  uint64_t target = 0;
  uint64_t bytes = 0;
};

// One step of a plan: a dispatch, unless `kind` says otherwise. Word 0 of every kernel's push block
// is its status slot, which the runner fills.
struct Step {
  StepKind kind = StepKind::kDispatch;
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
  std::vector<CopyRegion> regions;  // kCopyRegions
  // kUploadFromHost: the bytes to record into the command buffer. Not owned: valid while the plan is
  // recorded (the caller's host indices).
  const void* host_source = nullptr;
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

// TensorScatter's rule for a write index (its report names the batch entry, not an axis index).
struct WriteIndexRule {
  int64_t axis = 0;  // the sequence axis
  uint64_t seq_len = 0;
  uint64_t max_seq = 0;
  bool circular = false;
};

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
  // Set for TensorScatter: the position is a batch entry, the value its write index.
  std::optional<WriteIndexRule> write_rule;
};

struct OpPlan {
  std::vector<Step> steps;
  // Whether any step dispatches a kernel: only those use a status slot.
  bool dispatches() const;
  IndexReport report;
  uint64_t scratch_bytes = 0;  // device scratch memory the steps bind as Role::kScratch
  // The last dispatch writes word 0 of the status slot whatever it finds ("no error" included), and no
  // step reads it before: the runner then skips its reset (a transfer and a barrier per operation).
  bool writes_own_status = false;
};

// Whether a step writes the operation's status slot: a check pass, TensorScatter's passes (its check
// and write passes report a bad write index), or a kernel that writes its own status. A plan without one
// checks nothing on the device (the skip policy, no indices): its dispatches read at most the status
// gate, bound to the status board's clean slot, so it takes no slot of its own, no reset and no barrier
// to the host. In a batch, such an operation waits on nothing but its data.
bool writesStatusSlot(const OpPlan& plan);
// Whether the runner resets the plan's status slot before its steps (a fill and its barrier): a plan
// that writes the slot resets it unless it writes its own status.
bool resetsStatusSlot(const OpPlan& plan);

// What src/ops/op_runner.cpp records for a plan, counted (the plan tests hold small operations to one
// dispatch and no barrier before it). The runner resets the status slot (resetsStatusSlot: a fill and
// its barrier), places a barrier per wait_for binding of a dispatch (and one before an indirect
// dispatch's arguments), two before a copy step and one after an upload, and ends with the status
// slot's barrier to the host wherever a step writes the slot (writesStatusSlot).
struct CommandCounts {
  uint32_t dispatches = 0;
  uint32_t transfers = 0;  // fills, copies and updates, the status reset included
  uint32_t barriers = 0;   // between the operation's own commands, the status reset's included
  uint32_t host_barriers = 0;
};
CommandCounts commandCounts(const OpPlan& plan);

// The bindings of `step` with role `role` (tests and simulators).
const Window* windowOf(const Step& step, Role role);

}  // namespace vkindex::plan
