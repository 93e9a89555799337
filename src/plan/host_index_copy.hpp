// Row gathers (Gather, GatherND) whose index values are in host memory, e.g. token ids from a CPU
// sampler. The values are checked here, on the host, and the output rows become copy regions for
// vkCmdCopyBuffer, with runs of consecutive rows merged into one region; or, when the regions would be
// too small to copy well, the row gather kernel runs on an uploaded copy of the values. Pure C++.
#pragma once

#include <optional>
#include <vector>

#include "plan/row_gather_plan.hpp"

namespace vkindex::plan {

// The first index element (in the indices' flat order) outside the range of the axis it addresses.
struct BadIndex {
  uint64_t position = 0;
  int64_t value = 0;
};

// Scans the check.tuple_count * check.extents.size() values (int32 or int64, check.index_type, in
// native byte order; `values` need not be aligned) for the first one out of its range [-s, s-1], or
// under check.policy kSkip the first one outside [0, s-1] (the first skipped one).
std::optional<BadIndex> findBadIndex(const IndexCheck& check, const void* values);

// How a row gather with host indices runs.
enum class HostIndexPath {
  kCopyRegions,  // vkCmdCopyBuffer of the regions
  kKernel,       // the row gather kernel on the values uploaded into the command buffer
};

// Regions are built only up to this many rows: beyond it their host memory (24 bytes a row) and the
// recording time outgrow what the kernel path costs for the same rows.
inline constexpr uint64_t kMaxCopyRows = uint64_t(1) << 20;

// The output rows of `gather` as copy regions, data starting at byte `data_offset` of its buffer and
// the output at `output_offset`; the values must have passed findBadIndex. Consecutive rows that are
// also consecutive in the data merge into one region. Sorted by source (then target): the drivers
// copy regions one after another, and both CPU drivers copy faster reading the data in order than in
// index order (docs/tuning.md).
// Empty when the output is empty.
std::vector<CopyRegion> rowCopyRegions(const RowGather& gather, const void* values, uint64_t data_offset,
                                       uint64_t output_offset);

// Where a device's copy regions beat its kernel (Tuning::few_copy_regions and
// min_copy_region_bytes, the crossovers measured on its driver: docs/tuning.md).
struct CopyRegionCrossover {
  uint64_t few_regions = 0;       // up to this many regions copy whatever their size
  uint64_t min_region_bytes = 0;  // more regions copy when they average at least this many bytes
};

// The path for `gather` whose merged regions would be `region_count` (see rowCopyRegions): copy
// regions where `crossover` says they win and the rows are at most kMaxCopyRows, the kernel otherwise.
HostIndexPath chooseHostIndexPath(const RowGather& gather, uint64_t region_count, CopyRegionCrossover crossover);

// The bytes of `gather`'s index values (its tuples' components, int32 or int64).
uint64_t hostIndexBytes(const RowGather& gather);

// The copy path as a plan: one step copying `regions` from data to output (plan::StepKind::kCopyRegions).
OpPlan copyRegionsPlan(std::vector<CopyRegion> regions);

// The kernel path as a plan: the host's index values (`values`, the gather's tuples) recorded into the
// device tensor at `indices` (plan::StepKind::kUploadFromHost), then `gather`'s row gather reading them
// there. `values` must outlive the recording of the plan.
StatusOr<OpPlan> uploadedIndicesPlan(const RowGather& gather, const void* values, const Placement& data,
                                     const Placement& indices, const Placement& output, const DeviceInfo& device,
                                     const Tuning& tuning);

}  // namespace vkindex::plan
