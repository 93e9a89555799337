#include "plan/gather_plan.hpp"

#include <algorithm>

#include "plan/fast_division.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan {
namespace {

constexpr uint64_t kMax32 = 0xFFFFFFFFull;
// Kernels count units and rows in 32 bits and step grid-stride loops without overflow while every
// count stays below 2^30.
constexpr uint64_t kMaxPassItems = uint64_t(1) << 30;

// The largest power of two up to 16 dividing `value` (value 0 counts as divisible by everything).
uint32_t largestUnit(uint64_t value) {
  uint32_t unit = 16;
  while (unit > 1 && value % unit != 0) unit /= 2;
  return unit;
}

}  // namespace

StatusOr<GatherShape> inferGatherShape(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                                       DataType index_type, int64_t axis) {
  if (index_type != DataType::kInt32 && index_type != DataType::kInt64) {
    return invalidArgument(std::string("Gather: input 'indices' has type ") + dataTypeName(index_type) +
                           "; allowed types are int32 and int64");
  }
  const int64_t rank = static_cast<int64_t>(data_shape.size());
  if (rank == 0) return invalidArgument("Gather: input 'data' must have rank >= 1, got a scalar (rank 0)");
  if (axis < -rank || axis >= rank) {
    return invalidArgument("Gather: attribute 'axis' = " + std::to_string(axis) +
                           " is out of range for input "
                           "'data' of rank " +
                           std::to_string(rank) + " (allowed [" + std::to_string(-rank) + ", " +
                           std::to_string(rank - 1) + "])");
  }
  GatherShape shape;
  shape.axis = axis < 0 ? axis + rank : axis;
  const size_t a = static_cast<size_t>(shape.axis);

  std::optional<uint64_t> outer = productOf(data_shape, 0, a);
  std::optional<uint64_t> inner = productOf(data_shape, a + 1, data_shape.size());
  std::optional<uint64_t> index_count = elementCount(indices_shape);
  if (!outer || !inner || data_shape[a] < 0 || !elementCount(data_shape)) {
    return invalidArgument("Gather: input 'data' has an invalid shape " + shapeString(data_shape));
  }
  if (!index_count)
    return invalidArgument("Gather: input 'indices' has an invalid shape " + shapeString(indices_shape));
  shape.outer = *outer;
  shape.axis_size = static_cast<uint64_t>(data_shape[a]);
  shape.index_count = *index_count;
  shape.row_bytes = *inner * elementSize(data_type);

  shape.output_shape.assign(data_shape.begin(), data_shape.begin() + shape.axis);
  shape.output_shape.insert(shape.output_shape.end(), indices_shape.begin(), indices_shape.end());
  shape.output_shape.insert(shape.output_shape.end(), data_shape.begin() + shape.axis + 1, data_shape.end());
  std::optional<uint64_t> output_count = elementCount(shape.output_shape);
  if (!output_count || *output_count > uint64_t(INT64_MAX) / 16) {
    return invalidArgument("Gather: the output shape " + shapeString(shape.output_shape) + " is too large");
  }
  return shape;
}

namespace {

// Builds the copy passes for output rows [q0, q1) that read indices [n_begin, n_end) (bound as one
// window): one pass per data window the rows can read from.
struct PassBuilder {
  const GatherShape& shape;
  const Placement& data;
  const Placement& indices;
  const Placement& output;
  const DeviceInfo& device;
  uint32_t unit_bytes;
  uint32_t workgroup_size;
  uint32_t items_per_invocation;
  uint64_t index_bytes;
  uint64_t data_rows_per_window;
  std::vector<GatherPass>& passes;

  void add(uint64_t q0, uint64_t q1, uint64_t n_begin, uint64_t n_end, bool report) const {
    const uint64_t R = shape.row_bytes, A = shape.axis_size, N = shape.index_count;
    const uint64_t data_rows = shape.outer * A;
    // Data rows this output range can read: whole axis slices of the outer indices it covers.
    const uint64_t needed_begin = (q0 / N) * A, needed_end = ((q1 - 1) / N + 1) * A;
    uint64_t index_lead = 0, data_lead = 0, out_lead = 0;
    const Window index_window =
        windowFor(indices.offset + n_begin * index_bytes, indices.offset + n_end * index_bytes, device, &index_lead);
    const Window output_window = windowFor(output.offset + q0 * R, output.offset + q1 * R, device, &out_lead);
    // Data windows are a fixed partition of the data rows, so every pass binds the same way.
    const uint64_t step = data_rows_per_window;
    for (uint64_t w = needed_begin / step * step; w < needed_end; w += step) {
      const uint64_t r0 = std::max(w, needed_begin);
      const uint64_t r1 = std::min({w + step, needed_end, data_rows});
      GatherPass pass;
      pass.data = windowFor(data.offset + r0 * R, data.offset + r1 * R, device, &data_lead);
      pass.indices = index_window;
      pass.output = output_window;
      abi::GatherParams& p = pass.params;
      p.row_units = static_cast<uint32_t>(R / unit_bytes);
      const FastDivisor by_row_units = fastDivisor(p.row_units);
      p.row_units_multiplier = by_row_units.multiplier;
      p.row_units_shift = by_row_units.shift;
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
      p.data_unit_offset = static_cast<uint32_t>(data_lead / unit_bytes);
      p.out_unit_offset = static_cast<uint32_t>(out_lead / unit_bytes);
      p.out_word_count = static_cast<uint32_t>(output_window.size / 4);
      p.indices_word_offset = static_cast<uint32_t>(index_lead / 4);
      p.index_window_begin = static_cast<uint32_t>(n_begin);
      p.report_bad_index = report ? 1 : 0;
      const uint64_t items = unit_bytes < 4 ? p.out_word_count : uint64_t(p.pass_rows) * p.row_units;
      const uint64_t block = uint64_t(workgroup_size) * items_per_invocation;
      pass.groups = (items + block - 1) / block;
      passes.push_back(pass);
    }
  }
};

}  // namespace

StatusOr<GatherPlan> planGather(const GatherShape& shape, DataType index_type, const Placement& data,
                                const Placement& indices, const Placement& output, const DeviceInfo& device) {
  GatherPlan plan;
  plan.index_words = index_type == DataType::kInt64 ? 2 : 1;
  const uint64_t index_bytes = uint64_t(plan.index_words) * 4;
  const uint64_t capacity = windowCapacity(device);
  const uint64_t R = shape.row_bytes, O = shape.outer, A = shape.axis_size, N = shape.index_count;
  if (N >= kMax32 || A > kMax32) {
    return unsupported("Gather: more than 2^32-2 indices, or an axis longer than 2^32-1, is not supported");
  }
  const uint64_t indices_per_window = std::min(capacity / index_bytes, kMaxPassItems);
  if (indices_per_window == 0) return unsupported("Gather: this device's storage-buffer bindings are too small");

  // Check passes: every index, whatever the output size (an empty slice still has indices to check).
  for (uint64_t p0 = 0; p0 < N; p0 += indices_per_window) {
    const uint64_t p1 = std::min(N, p0 + indices_per_window);
    CheckPass check;
    uint64_t lead = 0;
    check.indices = windowFor(indices.offset + p0 * index_bytes, indices.offset + p1 * index_bytes, device, &lead);
    check.params.index_count = static_cast<uint32_t>(p1 - p0);
    check.params.position_base = static_cast<uint32_t>(p0);
    check.params.axis_size = static_cast<uint32_t>(A);
    check.params.indices_word_offset = static_cast<uint32_t>(lead / 4);
    check.groups = (p1 - p0 + device.workgroup_size - 1) / device.workgroup_size;
    plan.checks.push_back(check);
  }
  if (R == 0 || O == 0 || N == 0 || A == 0) return plan;  // nothing to copy (A == 0: the check fails)

  plan.unit_bytes = largestUnit(R | data.offset | output.offset);
  if (O * A > kMax32 || O * N > kMax32) {
    return unsupported("Gather: more than 2^32-1 slices (outer dims x axis) are not supported");
  }
  const uint64_t rows_per_window = std::min(capacity / R, kMaxPassItems / std::max<uint64_t>(1, R / plan.unit_bytes));
  if (rows_per_window == 0) {
    if (R > capacity) {
      return unsupported("Gather: one slice after the axis is " + std::to_string(R) +
                         " bytes, more than this "
                         "device can bind at once (maxStorageBufferRange " +
                         std::to_string(device.max_storage_buffer_range) + ")");
    }
    return unsupported("Gather: one slice after the axis is " + std::to_string(R) + " bytes, more than the " +
                       std::to_string(kMaxPassItems) + " units of " + std::to_string(plan.unit_bytes) +
                       " bytes one vkindex dispatch moves");
  }
  // Row tiling: the widest workgroup (a power of two from the device's size down to 32) whose blocks of
  // the device's items per invocation divide every row. Items stay fixed: measured with `vkindex bench`
  // (embedding rows on lavapipe and SwiftShader), 4 items in 64-wide groups ran 1.8x and 2.8x faster
  // than 1 item in 256-wide groups, whose loads per invocation are too few to hide latency. Only for
  // copy units; sub-word rows assemble words across rows.
  plan.workgroup_size = device.workgroup_size;
  plan.items_per_invocation = device.items_per_invocation;
  const uint64_t row_units = R / plan.unit_bytes;
  for (uint32_t size = device.workgroup_size; plan.unit_bytes >= 4 && size >= 32; size /= 2) {
    if ((size & (size - 1)) == 0 && row_units % (uint64_t(size) * device.items_per_invocation) == 0) {
      plan.workgroup_size = size;
      plan.row_tiled = true;
      break;
    }
  }
  PassBuilder builder{shape,
                      data,
                      indices,
                      output,
                      device,
                      plan.unit_bytes,
                      plan.workgroup_size,
                      plan.items_per_invocation,
                      index_bytes,
                      rows_per_window,
                      plan.passes};
  if (plan.checks.size() == 1) {
    // All indices fit one window: passes are cut only by the output and data windows.
    plan.copy_passes_report = true;
    for (uint64_t q0 = 0; q0 < O * N; q0 += rows_per_window) {
      builder.add(q0, std::min(O * N, q0 + rows_per_window), 0, N, true);
    }
    return plan;
  }
  // Indices span several windows: each pass stays inside one outer slice and one index window.
  const uint64_t chunk = std::min(indices_per_window, rows_per_window);
  for (uint64_t o = 0; o < O; ++o) {
    for (uint64_t n0 = 0; n0 < N; n0 += chunk) {
      const uint64_t n1 = std::min(N, n0 + chunk);
      builder.add(o * N + n0, o * N + n1, n0, n1, false);
    }
  }
  return plan;
}

}  // namespace vkindex::plan
