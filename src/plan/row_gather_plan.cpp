#include "plan/row_gather_plan.hpp"

#include <algorithm>

#include "common/gather_rows_params.h"
#include "plan/fast_division.hpp"
#include "plan/segments.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan {
namespace {

// How the copy passes move rows: unit width and workgroup shape.
struct PassShape {
  uint32_t unit_bytes = 0;  // 16/8/4 copy units, 2/1 sub-word assembly
  uint32_t workgroup_size = 0;
  // Copy units: `lanes` invocations copy a row segment of lanes x items units together. Sub-word
  // units: the same with output words in place of units, the pass's words being one long run.
  uint32_t items = 0;
  uint32_t lanes = 1;
  uint64_t segments_per_row = 0;  // copy units: ceil(row units / segment units); sub-word: row units
  // Copy units: whole rows per segment when a row fits one (segments_per_row 1), else 1. The kernel
  // derives the same from its constants (gather_rows.comp, rowsPerSegment).
  uint64_t rows_per_segment = 1;

  // Segments a pass of `pass_rows` rows owning `out_words` output words has.
  uint64_t passSegments(uint64_t pass_rows, uint64_t out_words) const {
    if (unit_bytes < 4) return SegmentLayout{lanes, items}.segmentsOf(out_words);
    return segments_per_row == 1 ? (pass_rows + rows_per_segment - 1) / rows_per_segment : pass_rows * segments_per_row;
  }
};

// gather_rows.comp's columnBlockSlices() and slicesShareRows(): the pass copies its short rows
// column by column, one invocation per row position and block of slices (columnItems of them).
uint64_t columnBlockSlices(const abi::GatherRowsParams& p, const PassShape& shape) {
  return std::max<uint64_t>(1, shape.items / std::max<uint32_t>(p.row_units, 1));
}

bool copiesColumns(const abi::GatherRowsParams& p, const PassShape& shape) {
  return shape.unit_bytes >= 4 && shape.lanes == 1 && p.row_units <= VKINDEX_SHORT_ROW_UNITS &&
         p.index_outer_stride == 0 && p.first_index == 0 && p.index_count != 0 && p.pass_rows % p.index_count == 0 &&
         p.pass_rows / p.index_count >= columnBlockSlices(p, shape);
}

// The copy path gather_rows.comp takes for the pass: columns, whole short rows with one lane per
// segment (copySegment), or segments; the pass's module holds that path alone.
RowPath rowPathOf(const abi::GatherRowsParams& p, const PassShape& shape) {
  if (copiesColumns(p, shape)) return RowPath::kColumns;
  const bool short_rows = shape.lanes == 1 && p.segments_per_row == 1 && p.row_units < shape.items;
  return short_rows ? RowPath::kShortRows : RowPath::kSegments;
}

uint64_t columnItems(const abi::GatherRowsParams& p, const PassShape& shape) {
  const uint64_t slices = p.pass_rows / p.index_count, block = columnBlockSlices(p, shape);
  return uint64_t(p.index_count) * ((slices + block - 1) / block);
}

// Builds the copy passes for output rows [q0, q1) that read tuples [t_begin, t_end) (bound as one
// window): one pass per data window the rows can read from.
struct PassBuilder {
  const RowGather& gather;
  uint64_t axis_rows;  // A
  const Placement& data;
  const Placement& indices;
  const Placement& output;
  const DeviceInfo& device;
  const Tuning& tuning;
  const PassShape& shape;
  uint64_t data_rows_per_window;
  bool wait_for_checks;
  OpPlan& plan;

  void add(uint64_t q0, uint64_t q1, uint64_t t_begin, uint64_t t_end) {
    const uint64_t R = gather.row_bytes, A = axis_rows, N = gather.index_count;
    const uint64_t data_rows = gather.outer * A, tuple_bytes = tupleBytes(gather.check);
    // Data rows this output range can read: whole axis slices of the outer indices it covers.
    const uint64_t needed_begin = (q0 / N) * A, needed_end = ((q1 - 1) / N + 1) * A;
    uint64_t index_lead = 0, data_lead = 0, out_lead = 0;
    const Window index_window =
        windowFor(indices.offset + t_begin * tuple_bytes, indices.offset + t_end * tuple_bytes, device, &index_lead);
    const Window output_window = windowFor(output.offset + q0 * R, output.offset + q1 * R, device, &out_lead);
    if (A == 0) {
      // Empty indexed dims (only planned under the skip policy): every tuple is skipped, so the pass
      // reads no data and zeros every row. The output window stands in for the data binding, and
      // data row 0, the one bound, is where every outer slice's zeros belong (the kernel's rule).
      addPass(q0, q1, t_begin, index_window, index_lead, output_window, out_lead, {Role::kOutput, output_window}, 0, 0,
              1);
      return;
    }
    // Data windows are a fixed partition of the data rows, so every pass binds the same way.
    const uint64_t step = data_rows_per_window;
    for (uint64_t w = needed_begin / step * step; w < needed_end; w += step) {
      const uint64_t r0 = std::max(w, needed_begin);
      const uint64_t r1 = std::min({w + step, needed_end, data_rows});
      const Window data_window = windowFor(data.offset + r0 * R, data.offset + r1 * R, device, &data_lead);
      addPass(q0, q1, t_begin, index_window, index_lead, output_window, out_lead, {Role::kData, data_window}, data_lead,
              r0, r1);
    }
  }

  // One pass: output rows [q0, q1) from tuples bound from t_begin and data rows [r0, r1), bound by
  // `data_binding` (the data's window, or the output's where no data is read).
  void addPass(uint64_t q0, uint64_t q1, uint64_t t_begin, const Window& index_window, uint64_t index_lead,
               const Window& output_window, uint64_t out_lead, const Binding& data_binding, uint64_t data_lead,
               uint64_t r0, uint64_t r1) {
    const uint64_t R = gather.row_bytes, A = axis_rows, N = gather.index_count;
    {
      abi::GatherRowsParams p{};
      p.row_units = static_cast<uint32_t>(R / shape.unit_bytes);
      p.segments_per_row = static_cast<uint32_t>(shape.segments_per_row);
      const FastDivisor by_segments = fastDivisor(p.segments_per_row);
      p.segments_per_row_multiplier = by_segments.multiplier;
      p.segments_per_row_shift = by_segments.shift;
      p.index_count = static_cast<uint32_t>(N);
      const FastDivisor by_index_count = fastDivisor(p.index_count);
      p.index_count_multiplier = by_index_count.multiplier;
      p.index_count_shift = by_index_count.shift;
      p.axis_size = static_cast<uint32_t>(A);
      p.pass_rows = static_cast<uint32_t>(q1 - q0);
      p.first_outer = static_cast<uint32_t>(q0 / N);
      p.first_index = static_cast<uint32_t>(q0 % N);
      p.data_row_begin = static_cast<uint32_t>(r0);
      p.data_row_end = static_cast<uint32_t>(r1);
      p.data_unit_offset = static_cast<uint32_t>(data_lead / shape.unit_bytes);
      p.out_unit_offset = static_cast<uint32_t>(out_lead / shape.unit_bytes);
      p.out_word_count = static_cast<uint32_t>(output_window.size / 4);
      p.indices_word_offset = static_cast<uint32_t>(index_lead / 4);
      p.index_window_begin = static_cast<uint32_t>(t_begin);
      p.index_outer_stride = static_cast<uint32_t>(gather.index_outer_stride);
      for (size_t c = 0; c < gather.check.extents.size(); ++c) {
        p.extents[c] = static_cast<uint32_t>(gather.check.extents[c]);
      }
      Step pass;
      pass.kernel = rowGatherKernel(shape.unit_bytes, false, tuning.int64_units, rowPathOf(p, shape));
      pass.spec = {shape.workgroup_size, gather.check.index_type == DataType::kInt64 ? 2u : 1u,
                   shape.unit_bytes,     shape.items,
                   shape.lanes,          static_cast<uint32_t>(gather.check.extents.size())};
      pass.bindings = {
          data_binding, {Role::kIndices, index_window}, {Role::kOutput, output_window}, {Role::kStatus, {}}};
      setPush(pass, p);
      const bool columns = copiesColumns(p, shape);
      const uint64_t invocations =
          columns ? columnItems(p, shape) : shape.passSegments(p.pass_rows, p.out_word_count) * shape.lanes;
      pass.groups = groupsForItems(invocations, shape.workgroup_size);
      fitOneGroup(pass, invocations, columns ? 1 : shape.lanes, device);
      if (wait_for_checks) {
        waitForChecks(pass);
        wait_for_checks = false;
      } else if (shape.unit_bytes < 4 && !plan.steps.empty() && plan.steps.back().kernel == Kernel::kGatherRowBytes) {
        // Sub-word passes may share an output word with the previous pass (atomics on disjoint bytes),
        // so passes are ordered.
        pass.wait_for.push_back({Role::kOutput, output_window});
      }
      plan.steps.push_back(pass);
    }
  }
};

// A check, a report and one copy pass over every tuple from the first, with few components: one
// self-checking dispatch (fuseSmallChecks).
void fuseSmallPlan(OpPlan& plan, const RowGather& gather, uint32_t unit_bytes) {
  if (unit_bytes < 4 || plan.steps.size() != 3) return;
  const abi::GatherRowsParams p = pushOf<abi::GatherRowsParams>(plan.steps[2]);
  const bool whole = p.first_outer == 0 && p.first_index == 0 && p.index_window_begin == 0 &&
                     uint64_t(p.pass_rows) == gather.outer * gather.index_count;
  // The self-checking module of the pass's own copy path.
  const std::optional<RowPath> path = rowGatherPath(plan.steps[2].kernel);
  if (whole && path) fuseSmallChecks(plan, gather.check, rowGatherKernel(unit_bytes, true, false, *path));
}

StatusOr<OpPlan> planRowGatherPasses(const RowGather& gather, const Placement& data, const Placement& indices,
                                     const Placement& output, const DeviceInfo& device, const Tuning& tuning) {
  OpPlan plan;
  plan.report = gather.report;
  const uint64_t R = gather.row_bytes, O = gather.outer, N = gather.index_count;
  const uint64_t tuple_count = gather.index_outer_stride == 0 ? N : O * N;
  if (tuple_count != gather.check.tuple_count) return internalError(gather.op + ": inconsistent row-gather plan");
  const Shape indexed_dims(gather.check.extents.begin(), gather.check.extents.end());
  std::optional<uint64_t> A = productOf(indexed_dims, 0, indexed_dims.size());
  if (N >= kMax32) {
    return unsupported(gather.op + ": " + std::to_string(N) + " index tuples, more than 2^32-2, are not supported");
  }
  if (tuple_count == 0) return plan;  // no tuples: nothing to check or copy, whatever the data's dims
  // An empty output (empty data rows, or no outer slices) copies nothing, so only the check's limits
  // apply: data [0, 2^33] gathered along its long axis is such a case.
  const bool copies = R != 0 && O != 0;
  if (copies && (!A || *A > kMax32)) {
    return unsupported(gather.op + ": the indexed dims " + shapeString(indexed_dims) +
                       " of input 'data' address more than 2^32-1 rows, which is not supported");
  }
  // Check passes: every index, whatever the output size (an empty slice still has indices to check).
  VKINDEX_ASSIGN_OR_RETURN(bool checked, appendIndexChecks(plan, gather.check, indices, device, tuning, gather.op));
  // Nothing to copy. A == 0: the check fails, or under the skip policy every row is zeros.
  if (!copies || (*A == 0 && gather.check.policy == IndexPolicy::kError)) return plan;

  PassShape shape;
  shape.unit_bytes = largestUnit(R | data.offset | output.offset);
  if (O * *A > kMax32 || O * N > kMax32) {
    return unsupported(gather.op + ": more than 2^32-1 slices (outer dims x indexed dims) are not supported");
  }
  const uint64_t capacity = windowCapacity(device);
  const uint64_t rows_per_window = std::min(capacity / R, kMaxPassItems / std::max<uint64_t>(1, R / shape.unit_bytes));
  if (rows_per_window == 0) {
    if (R > capacity) {
      return unsupported(gather.op + ": " + gather.row_name + " is " + std::to_string(R) +
                         " bytes, more than this device can bind at once (maxStorageBufferRange " +
                         std::to_string(device.max_storage_buffer_range) + ")");
    }
    return unsupported(gather.op + ": " + gather.row_name + " is " + std::to_string(R) + " bytes, more than the " +
                       std::to_string(kMaxPassItems) + " units of " + std::to_string(shape.unit_bytes) +
                       " bytes one vkindex dispatch moves");
  }
  shape.workgroup_size = tuning.workgroup_size;
  const uint64_t row_units = R / shape.unit_bytes;
  shape.segments_per_row = row_units;
  // Sub-word units: segments of output words, the output's words being one long run.
  const uint64_t output_words = (O * N * R + 3) / 4;
  const SegmentLayout layout =
      segmentLayout(tuning, shape.workgroup_size, shape.unit_bytes >= 4 ? row_units : output_words);
  shape.lanes = layout.lanes;
  shape.items = layout.items;
  if (shape.unit_bytes >= 4) {
    // Row segments; the row's index is read once per row of the segment, and rows shorter than a
    // segment are grouped, whole, into one.
    shape.segments_per_row = layout.segmentsOf(row_units);
    if (shape.segments_per_row == 1) shape.rows_per_segment = layout.units() / row_units;
  }
  PassBuilder builder{gather, *A, data, indices, output, device, tuning, shape, rows_per_window, checked, plan};
  const uint64_t tuples_per_window = tuplesPerWindow(gather.check, device);
  if (tuple_count <= tuples_per_window) {
    // All tuples fit one window: passes are cut only by the output and data windows.
    for (uint64_t q0 = 0; q0 < O * N; q0 += rows_per_window) {
      builder.add(q0, std::min(O * N, q0 + rows_per_window), 0, tuple_count);
    }
    fuseSmallPlan(plan, gather, shape.unit_bytes);
    return plan;
  }
  // Tuples span several windows: each pass stays inside one outer slice and one tuple window.
  const uint64_t chunk = std::min(tuples_per_window, rows_per_window);
  for (uint64_t o = 0; o < O; ++o) {
    for (uint64_t n0 = 0; n0 < N; n0 += chunk) {
      const uint64_t n1 = std::min(N, n0 + chunk);
      const uint64_t t0 = o * gather.index_outer_stride + n0;
      builder.add(o * N + n0, o * N + n1, t0, t0 + (n1 - n0));
    }
  }
  return plan;
}

}  // namespace

StatusOr<OpPlan> planRowGather(const RowGather& gather, const Placement& data, const Placement& indices,
                               const Placement& output, const DeviceInfo& device, const Tuning& tuning) {
  VKINDEX_ASSIGN_OR_RETURN(OpPlan plan, planRowGatherPasses(gather, data, indices, output, device, tuning));
  applyIndexPolicy(plan, gather.check.policy);
  return plan;
}

}  // namespace vkindex::plan
