// Row-gather planning, shared by Gather (one index per row) and GatherND (k-component index tuples):
// output row (o, n) of (outer, N) rows copies data row (o, tuple(o, n)) of (outer, A) rows, where the
// tuple sits at indices position o * index_outer_stride + n. Emits the index checks, then copy passes
// cut so that every tensor is bound through windows the device can bind.
#pragma once

#include "plan/index_checks.hpp"

namespace vkindex::plan {

struct RowGather {
  std::string op;        // for messages: "Gather", "GatherND"
  std::string row_name;  // for messages: "one slice after the axis"
  uint64_t outer = 0;
  uint64_t index_count = 0;         // N: output rows per outer slice
  uint64_t row_bytes = 0;           // R
  uint64_t index_outer_stride = 0;  // 0 (all outer slices share the tuples) or N (each has its own)
  IndexCheck check;                 // tuple extents; A = their product
  IndexReport report;               // how a bad index is described
};

// Plans `gather` with the tensors at the given placements. Leaves status_slot words 0.
StatusOr<OpPlan> planRowGather(const RowGather& gather, const Placement& data, const Placement& indices,
                               const Placement& output, const DeviceInfo& device, const Tuning& tuning);

}  // namespace vkindex::plan
