#include "plan/host_index_copy.hpp"

#include <algorithm>
#include <cstring>

namespace vkindex::plan {
namespace {

// Index element `i` of `values`, sign-extended.
int64_t indexValue(DataType type, const void* values, uint64_t i) {
  const auto* bytes = static_cast<const unsigned char*>(values);
  if (type == DataType::kInt32) {
    int32_t value = 0;
    std::memcpy(&value, bytes + i * sizeof(value), sizeof(value));
    return value;
  }
  int64_t value = 0;
  std::memcpy(&value, bytes + i * sizeof(value), sizeof(value));
  return value;
}

// `value`, already checked to lie in [-extent, extent - 1], as a position in [0, extent).
uint64_t normalized(int64_t value, uint64_t extent) {
  return value < 0 ? extent - static_cast<uint64_t>(-(value + 1)) - 1 : static_cast<uint64_t>(value);
}

}  // namespace

std::optional<BadIndex> findBadIndex(const IndexCheck& check, const void* values) {
  const uint64_t k = check.extents.size();
  for (uint64_t i = 0; i < check.tuple_count * k; ++i) {
    const int64_t value = indexValue(check.index_type, values, i);
    const uint64_t extent = check.extents[i % k];
    // value in [-extent, extent - 1], compared without forming -extent (extent can exceed INT64_MAX).
    // Under the skip policy only [0, extent - 1] addresses a row: nothing negative wraps.
    const bool fits = value >= 0 ? static_cast<uint64_t>(value) < extent
                                 : check.policy == IndexPolicy::kError && static_cast<uint64_t>(-(value + 1)) < extent;
    if (!fits) return BadIndex{i, value};
  }
  return std::nullopt;
}

std::vector<CopyRegion> rowCopyRegions(const RowGather& gather, const void* values, uint64_t data_offset,
                                       uint64_t output_offset) {
  std::vector<CopyRegion> regions;
  const uint64_t R = gather.row_bytes, N = gather.index_count, k = gather.check.extents.size();
  if (R == 0 || N == 0 || gather.outer == 0) return regions;
  uint64_t axis_rows = 1;  // A: the rows one outer slice of data holds
  for (uint64_t extent : gather.check.extents) axis_rows *= extent;
  for (uint64_t o = 0; o < gather.outer; ++o) {
    for (uint64_t n = 0; n < N; ++n) {
      const uint64_t first = (o * gather.index_outer_stride + n) * k;
      uint64_t row = 0;
      for (uint64_t c = 0; c < k; ++c) {
        const uint64_t extent = gather.check.extents[c];
        row = row * extent + normalized(indexValue(gather.check.index_type, values, first + c), extent);
      }
      const uint64_t source = data_offset + (o * axis_rows + row) * R;
      const uint64_t target = output_offset + (o * N + n) * R;
      if (!regions.empty() && regions.back().source + regions.back().bytes == source &&
          regions.back().target + regions.back().bytes == target) {
        regions.back().bytes += R;
      } else {
        regions.push_back({source, target, R});
      }
    }
  }
  // Regions in source order read data front to back, whatever the index order; their order means nothing
  // to vkCmdCopyBuffer (no two share a target byte). Merging first is complete: rows consecutive in the
  // output are neighbours in index order.
  std::sort(regions.begin(), regions.end(), [](const CopyRegion& a, const CopyRegion& b) {
    return a.source != b.source ? a.source < b.source : a.target < b.target;
  });
  return regions;
}

HostIndexPath chooseHostIndexPath(const RowGather& gather, uint64_t region_count, CopyRegionCrossover crossover) {
  const uint64_t rows = gather.outer * gather.index_count;
  if (rows > kMaxCopyRows || region_count == 0) return HostIndexPath::kKernel;
  if (region_count <= crossover.few_regions) return HostIndexPath::kCopyRegions;
  return rows * gather.row_bytes / region_count >= crossover.min_region_bytes ? HostIndexPath::kCopyRegions
                                                                              : HostIndexPath::kKernel;
}

uint64_t hostIndexBytes(const RowGather& gather) {
  return gather.check.tuple_count * gather.check.extents.size() * elementSize(gather.check.index_type);
}

OpPlan copyRegionsPlan(std::vector<CopyRegion> regions) {
  OpPlan plan;
  if (regions.empty()) return plan;
  Step copy;
  copy.kind = StepKind::kCopyRegions;
  copy.regions = std::move(regions);
  plan.steps.push_back(std::move(copy));
  return plan;
}

StatusOr<OpPlan> uploadedIndicesPlan(const RowGather& gather, const void* values, const Placement& data,
                                     const Placement& indices, const Placement& output, const DeviceInfo& device,
                                     const Tuning& tuning) {
  VKINDEX_ASSIGN_OR_RETURN(OpPlan plan, planRowGather(gather, data, indices, output, device, tuning));
  const uint64_t bytes = hostIndexBytes(gather);
  if (bytes == 0) return plan;
  Step upload;
  upload.kind = StepKind::kUploadFromHost;
  upload.bindings = {{Role::kIndices, {indices.offset, bytes}}};
  upload.host_source = values;
  plan.steps.insert(plan.steps.begin(), std::move(upload));
  return plan;
}

}  // namespace vkindex::plan
