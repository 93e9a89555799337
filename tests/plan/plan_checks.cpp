#include "plan_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

// The constants for dividing by `d` are exact at the numerators where rounding errors show first.
void expectExactDivision(uint32_t d, uint32_t multiplier, uint32_t shift, const char* what) {
  for (uint32_t n : {0u, 1u, d - 1, d, d + 1, 2 * d - 1, 2 * d, 3 * d - 1, 0x3FFFFFFFu, 0x7FFFFFFFu, 0xFFFFFFFFu}) {
    EXPECT_EQ(fastDivide(n, d, multiplier, shift), n / d) << what << ": " << n << " / " << d;
  }
}

// A window starts at a multiple of max(16, minStorageBufferOffsetAlignment), is whole words, fits
// maxStorageBufferRange, and lies within its tensor's bytes: from the tensor's offset rounded down
// to the binding alignment to its end rounded up to a word.
bool validWindow(const Window& w, const Placement& tensor, const DeviceInfo& device, const char* what) {
  const uint64_t a = std::max<uint64_t>(16, device.min_storage_buffer_offset_alignment);
  const bool good = w.offset % a == 0 && w.size % 4 == 0 && w.size > 0 && w.size <= device.max_storage_buffer_range &&
                    w.offset >= tensor.offset / a * a &&
                    w.offset + w.size <= (tensor.offset + tensor.bytes + 3) / 4 * 4;
  EXPECT_TRUE(good) << what << " window " << str(w) << " is invalid for a tensor at [" << tensor.offset << ", "
                    << tensor.offset + tensor.bytes << ") (alignment " << a << ", range "
                    << device.max_storage_buffer_range << ")";
  return good;
}

}  // namespace

uint32_t fastDivide(uint32_t n, uint32_t d, uint32_t multiplier, uint32_t shift) {
  if (d == 1u) return n;
  const uint32_t high = static_cast<uint32_t>((uint64_t(n) * multiplier) >> 32);
  return (((n - high) >> 1) + high) >> shift;
}

// Checks everything about a plan that does not depend on the tensors' contents. Returns whether the
// plan is sound enough to run.
bool checkStructure(const GatherPlan& plan, const GatherShape& s, DataType index_type, const Placement& data,
                    const Placement& indices, const Placement& output, const DeviceInfo& device) {
  const uint64_t O = s.outer, A = s.axis_size, N = s.index_count, R = s.row_bytes;
  const uint64_t index_bytes = index_type == DataType::kInt64 ? 8 : 4;
  bool ok = true;
  EXPECT_EQ(plan.index_words, index_bytes / 4);
  EXPECT_EQ(plan.passes.empty(), O == 0 || N == 0 || R == 0 || A == 0);
  EXPECT_EQ(plan.copy_passes_report, plan.checks.size() == 1 && !plan.passes.empty());
  // Check passes: consecutive runs of positions, each bound from its first index on.
  uint64_t checked = 0;
  for (const CheckPass& check : plan.checks) {
    const abi::CheckParams& c = check.params;
    ok = validWindow(check.indices, indices, device, "check indices") && ok;
    EXPECT_EQ(c.position_base, checked);
    EXPECT_GT(c.index_count, 0u);
    EXPECT_EQ(c.axis_size, A);
    EXPECT_EQ(c.status_slot, 0u);
    EXPECT_EQ(c.report_only, 0u);
    EXPECT_EQ(check.indices.offset + 4 * c.indices_word_offset, indices.offset + checked * index_bytes);
    EXPECT_GE(check.indices.offset + check.indices.size, indices.offset + (checked + c.index_count) * index_bytes);
    EXPECT_EQ(check.groups, ceilDiv(c.index_count, device.workgroup_size));
    checked += c.index_count;
  }
  EXPECT_EQ(checked, N);
  if (plan.passes.empty()) return ok && !::testing::Test::HasFailure();
  const uint32_t U = plan.unit_bytes;
  uint32_t largest = 16;
  while (largest > 1 && (R % largest != 0 || data.offset % largest != 0 || output.offset % largest != 0)) largest /= 2;
  EXPECT_EQ(U, largest);
  if (U != largest) return false;
  // Copy passes run with the device's workgroup shape, or with the widest workgroup (halved down to
  // 32) whose blocks of the device's items make every row whole blocks; only copy units (not sub-word
  // rows) tile.
  uint64_t best_block = 0, best_size = 0;
  for (uint32_t size = device.workgroup_size; U >= 4 && size >= 32 && best_block == 0; size /= 2) {
    const uint64_t items = device.items_per_invocation;
    if ((R / U) % (size * items) == 0) {
      best_block = size * items;
      best_size = size;
    }
  }
  EXPECT_EQ(plan.row_tiled, best_block != 0);
  if (plan.row_tiled) {
    EXPECT_EQ(uint64_t(plan.workgroup_size) * plan.items_per_invocation, best_block);
    EXPECT_EQ(plan.workgroup_size, best_size);
  } else {
    EXPECT_EQ(plan.workgroup_size, device.workgroup_size);
    EXPECT_EQ(plan.items_per_invocation, device.items_per_invocation);
  }
  const uint64_t block = uint64_t(plan.workgroup_size) * plan.items_per_invocation;
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::pair<uint64_t, uint64_t>>> reads;
  for (const GatherPass& pass : plan.passes) {
    const abi::GatherParams& p = pass.params;
    ok = validWindow(pass.data, data, device, "data") && ok;
    ok = validWindow(pass.indices, indices, device, "indices") && ok;
    ok = validWindow(pass.output, output, device, "output") && ok;
    EXPECT_EQ(uint64_t(p.row_units) * U, R);
    EXPECT_EQ(p.index_count, N);
    EXPECT_EQ(p.axis_size, A);
    EXPECT_EQ(p.status_slot, 0u);
    EXPECT_EQ(p.report_bad_index, plan.copy_passes_report ? 1u : 0u);
    expectExactDivision(p.row_units, p.row_units_multiplier, p.row_units_shift, "row_units");
    expectExactDivision(p.index_count, p.index_count_multiplier, p.index_count_shift, "index_count");
    // Output rows [q0, q1) from data rows [begin, end): the push constants must locate exactly those.
    const uint64_t q0 = uint64_t(p.first_outer) * N + p.first_index, q1 = q0 + p.pass_rows;
    EXPECT_LT(p.first_index, N);
    EXPECT_GT(p.pass_rows, 0u);
    EXPECT_LE(q1, O * N);
    EXPECT_LT(p.data_row_begin, p.data_row_end);
    EXPECT_LE(p.data_row_end, O * A);
    EXPECT_EQ(pass.output.offset + uint64_t(p.out_unit_offset) * U, output.offset + q0 * R);
    EXPECT_GE(pass.output.offset + pass.output.size, output.offset + q1 * R);
    EXPECT_EQ(pass.data.offset + uint64_t(p.data_unit_offset) * U, data.offset + p.data_row_begin * R);
    EXPECT_GE(pass.data.offset + pass.data.size, data.offset + uint64_t(p.data_row_end) * R);
    // Index positions the rows use: one run inside a slice, or all of them across a slice boundary.
    const bool one_slice = q0 / N == (q1 - 1) / N;
    const uint64_t n_first = one_slice ? q0 % N : 0, n_last = one_slice ? (q1 - 1) % N : N - 1;
    EXPECT_LE(p.index_window_begin, n_first);
    EXPECT_EQ(pass.indices.offset + 4 * p.indices_word_offset, indices.offset + p.index_window_begin * index_bytes);
    EXPECT_GE(pass.indices.offset + pass.indices.size, indices.offset + (n_last + 1) * index_bytes);
    if (U < 4) {
      EXPECT_EQ(p.out_word_count, pass.output.size / 4);
    }
    const uint64_t items = U < 4 ? p.out_word_count : uint64_t(p.pass_rows) * p.row_units;
    EXPECT_LE(items, uint64_t(1) << 30);  // the kernels count in 32 bits with headroom
    EXPECT_EQ(pass.groups, ceilDiv(items, block));
    reads[{q0, q1}].push_back({p.data_row_begin, p.data_row_end});
  }
  // The passes' output row ranges tile [0, O * N). For each range, the data row ranges bound for it
  // tile (at least) every row its outer slices can read, so whatever the index values, every output
  // row is copied by exactly one pass.
  uint64_t next = 0;
  for (auto& [rows, data_ranges] : reads) {
    EXPECT_EQ(rows.first, next) << "output rows [" << rows.first << ", " << rows.second << ") do not follow " << next;
    next = rows.second;
    std::sort(data_ranges.begin(), data_ranges.end());
    EXPECT_LE(data_ranges.front().first, rows.first / N * A);
    for (size_t i = 1; i < data_ranges.size(); ++i) EXPECT_EQ(data_ranges[i].first, data_ranges[i - 1].second);
    EXPECT_GE(data_ranges.back().second, ((rows.second - 1) / N + 1) * A);
  }
  EXPECT_EQ(next, O * N);
  return ok && !::testing::Test::HasFailure();
}

// Plans a problem and checks the plan's structure (for problems too large to simulate).
StatusOr<GatherPlan> checkedPlan(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                                 DataType index_type, int64_t axis, const DeviceInfo& device, uint64_t data_offset,
                                 uint64_t indices_offset, uint64_t output_offset) {
  StatusOr<GatherShape> shape = inferGatherShape(data_shape, data_type, indices_shape, index_type, axis);
  if (!shape.ok()) return shape.status();
  const uint64_t size = elementSize(data_type);
  const Placement data = placed(data_offset, *elementCount(data_shape) * size);
  const Placement indices = placed(indices_offset, shape->index_count * (index_type == DataType::kInt64 ? 8 : 4));
  const Placement output = placed(output_offset, *elementCount(shape->output_shape) * size);
  StatusOr<GatherPlan> plan = planGather(*shape, index_type, data, indices, output, device);
  if (plan.ok()) checkStructure(*plan, *shape, index_type, data, indices, output, device);
  return plan;
}

}  // namespace vkindex::plan::test
