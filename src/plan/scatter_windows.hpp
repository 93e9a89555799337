// How the scatter passes split tensors that do not fit one storage-buffer binding: the output into
// target ranges, and the updates with their indices into runs, each bound as a window. A pass joins
// one run with one target range; the pass builders (scatter_passes.hpp) order the passes.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/scatter_plan.hpp"
#include "plan/windows.hpp"

namespace vkindex::plan {

// A tensor's window and where the tensor starts relative to it, in words, modulo 2^32: below zero
// when the window starts past the tensor's first byte (a later window of a large tensor). The kernels
// form only addresses inside the window, which the wrapped offset brings back (push blocks' notes).
struct Bound {
  Window window;
  uint32_t word = 0;
};

// Binds bytes [begin, end) of `tensor`.
Bound bindBytes(const Placement& tensor, uint64_t begin, uint64_t end, const DeviceInfo& device);

bool fitsOneBinding(const Placement& tensor, const DeviceInfo& device);

// Elements of data that one pass may write, [begin, end), and the output window holding them.
struct TargetRange {
  uint64_t begin = 0, end = 0;
  Bound output;
};

// A run of updates that one pass reads, with their windows and the indices' windows. ScatterND:
// tuples [walk_begin, walk_end), every slice element a line. ScatterElements: lines [line_begin,
// line_end) at axis positions [walk_begin, walk_end).
struct SourceRun {
  uint64_t line_begin = 0, line_end = 0;
  uint64_t walk_begin = 0, walk_end = 0;
  Bound updates, indices;
};

// The output's windows: one where it fits a binding, with the range [0, 2^32-1) that kernels read as
// "every target" (no per-update test), else a partition of the data elements (whole slices for
// ScatterND). Each target lies in exactly one range, so it is written by that range's
// passes alone, in the order they run.
StatusOr<std::vector<TargetRange>> targetRanges(const ScatterShape& shape, const Placement& output,
                                                const DeviceInfo& device);

// ScatterND's runs: all tuples where updates and indices each fit a binding, else as many whole
// tuples (with their slices) as a window holds.
StatusOr<std::vector<SourceRun>> tupleRuns(const ScatterShape& shape, const Placement& updates,
                                           const Placement& indices, const DeviceInfo& device);

// ScatterElements' runs. Indices (= updates) are [outer, axis X, inner B] row-major, and line l is
// outer l / B, inner l % B: all of them where both tensors fit a binding, else groups of whole outer
// slices, else axis ranges of one outer slice, else inner ranges at one axis position. A line's axis
// positions stay in order across runs.
StatusOr<std::vector<SourceRun>> lineRuns(const ScatterShape& shape, const Placement& updates, const Placement& indices,
                                          const DeviceInfo& device);

}  // namespace vkindex::plan
