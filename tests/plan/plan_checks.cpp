#include "plan_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

}  // namespace

uint32_t fastDivide(uint32_t n, uint32_t d, uint32_t multiplier, uint32_t shift) {
  if (d == 1u) return n;
  const uint32_t high = static_cast<uint32_t>((uint64_t(n) * multiplier) >> 32);
  return (((n - high) >> 1) + high) >> shift;
}

bool validWindow(const Window& w, const Placement& tensor, const FakeDevice& device, const char* what) {
  const uint64_t a = std::max<uint64_t>(16, device.min_storage_buffer_offset_alignment);
  const bool good = w.offset % a == 0 && w.size % 4 == 0 && w.size > 0 && w.size <= device.max_storage_buffer_range &&
                    w.offset >= tensor.offset / a * a &&
                    w.offset + w.size <= (tensor.offset + tensor.bytes + 3) / 4 * 4;
  EXPECT_TRUE(good) << what << " window " << str(w) << " is invalid for a tensor at [" << tensor.offset << ", "
                    << tensor.offset + tensor.bytes << ") (alignment " << a << ", range "
                    << device.max_storage_buffer_range << ")";
  return good;
}

bool checkScatterWindows(const OpPlan& plan, const ScatterTensors& tensors, const FakeDevice& device) {
  const Placement scratch{0, plan.scratch_bytes};
  const auto tensorOf = [&](Role role) {
    switch (role) {
      case Role::kData: return tensors.data;
      case Role::kIndices: return tensors.indices;
      case Role::kUpdates: return tensors.updates;
      case Role::kOutput: return tensors.output;
      case Role::kScratch: return scratch;
      case Role::kStatus:
      case Role::kScales:
      case Role::kZeroPoints: break;
    }
    return Placement{};
  };
  bool ok = true;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step& step = plan.steps[i];
    SCOPED_TRACE("step " + std::to_string(i) + ": " + str(step));
    for (const std::vector<Binding>* list : {&step.bindings, &step.wait_for}) {
      for (const Binding& binding : *list) {
        if (binding.role == Role::kStatus) {
          EXPECT_EQ(binding.window.size, 0u);
          ok = ok && binding.window.size == 0;
        } else {
          ok = validWindow(binding.window, tensorOf(binding.role), device, "scatter") && ok;
        }
      }
    }
  }
  return ok;
}

void checkStepBasics(const OpPlan& plan, const std::vector<Kernel>& writers) {
  const auto rank = [&writers](Kernel kernel) {
    if (isCheckKernel(kernel)) return 0;
    if (kernel == Kernel::kReportIndex) return 1;
    return std::find(writers.begin(), writers.end(), kernel) != writers.end() ? 2 : -1;
  };
  std::string writer_names;
  for (Kernel writer : writers) writer_names += std::string(writer_names.empty() ? "" : " or ") + kernelName(writer);
  EXPECT_EQ(plan.scratch_bytes, 0u);
  int last = 0;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step& step = plan.steps[i];
    SCOPED_TRACE("step " + std::to_string(i) + ": " + str(step));
    EXPECT_NE(rank(step.kernel), -1) << "the plan runs only check_indices, report_index and " << writer_names;
    EXPECT_GE(rank(step.kernel), last) << "steps out of order: " << kernels(plan);
    last = std::max(last, rank(step.kernel));
    EXPECT_EQ(step.push_bytes, pushBytesOf(step.kernel));
    EXPECT_EQ(step.push[0], 0u) << "the status slot is the runner's to fill";
    for (size_t w = (step.push_bytes + 3) / 4; w < step.push.size(); ++w) EXPECT_EQ(step.push[w], 0u) << "word " << w;
    EXPECT_GT(step.groups, 0u);
    for (const std::vector<Binding>* list : {&step.bindings, &step.wait_for}) {
      for (const Binding& binding : *list) {
        if (binding.role == Role::kStatus) {
          EXPECT_EQ(binding.window.offset, 0u);
          EXPECT_EQ(binding.window.size, 0u);
        }
      }
    }
  }
}

void expectTiledReads(PassReads reads, uint64_t total, const Reach& reach, const std::string& items) {
  uint64_t next = 0;
  for (auto& [range, data_ranges] : reads) {
    const std::string output =
        "output " + items + " [" + std::to_string(range.first) + ", " + std::to_string(range.second) + ")";
    EXPECT_EQ(range.first, next) << output << " do not follow " << next;
    next = range.second;
    std::sort(data_ranges.begin(), data_ranges.end());
    const auto [low, high] = reach(range.first, range.second);
    EXPECT_LE(data_ranges.front().first, low) << output;
    for (size_t i = 1; i < data_ranges.size(); ++i) {
      EXPECT_EQ(data_ranges[i].first, data_ranges[i - 1].second) << output;
    }
    EXPECT_GE(data_ranges.back().second, high) << output;
  }
  EXPECT_EQ(next, total);
}

bool checkIndexSteps(const OpPlan& plan, const IndexCheck& check, const Placement& indices, const FakeDevice& device) {
  const uint64_t k = check.extents.size();
  const uint64_t index_bytes = check.index_type == DataType::kInt64 ? 8 : 4;
  const std::vector<CheckStep> checks = checkSteps(plan), reports = reportSteps(plan);
  bool ok = true;
  // Check steps: consecutive runs of whole tuples, each bound from its first index on.
  uint64_t checked = 0;
  for (size_t i = 0; i < checks.size(); ++i) {
    const CheckStep& c = checks[i];
    const abi::CheckParams& p = c.params;
    SCOPED_TRACE("check step " + std::to_string(i) + ": " + str(c));
    // Positions in segments of lanes x items: up to the device's row lanes, no more than the window
    // has positions.
    uint32_t lanes = 1;
    while (lanes * 2 <= std::min<uint64_t>(device.row_lanes, p.index_count) &&
           device.workgroup_size % (lanes * 2) == 0) {
      lanes *= 2;
    }
    const uint32_t items = std::max<uint32_t>(device.row_items, 1);
    const uint64_t segments = ceilDiv(p.index_count, uint64_t(lanes) * items);
    EXPECT_EQ(c.step.spec, (SpecValues{expectedWorkgroup(device, c.step.groups, segments * lanes, lanes),
                                       uint32_t(index_bytes / 4), 0, items, lanes, 0}));
    EXPECT_EQ(str(c.step.bindings), "indices " + str(c.window(Role::kIndices)) + ", status");
    ok = validWindow(c.window(Role::kIndices), indices, device, "check indices") && ok;
    EXPECT_EQ(p.status_slot, 0u);
    EXPECT_EQ(p.position_base, checked);
    EXPECT_GT(p.index_count, 0u);
    EXPECT_EQ(p.index_count % k, 0u) << "a window of whole tuples";
    EXPECT_LE(p.index_count, kMaxPassItems);
    EXPECT_EQ(p.tuple_length, k);
    for (size_t e = 0; e < VKINDEX_MAX_TUPLE_LENGTH; ++e) {
      const uint64_t extent = e < k ? check.extents[e] : 0u;
      EXPECT_EQ(p.extents[e], uint32_t(extent)) << "extent " << e;
      EXPECT_EQ(p.extents_hi[e], uint32_t(extent >> 32)) << "extent " << e << "'s high word";
    }
    // Extents of 2^32 or more (empty data) need the 64-bit comparison; the others keep the short one.
    const bool wide =
        std::any_of(check.extents.begin(), check.extents.end(), [](uint64_t extent) { return extent > 0xFFFFFFFFu; });
    EXPECT_EQ(c.step.kernel == Kernel::kCheckIndicesWide, wide);
    const Window window = c.window(Role::kIndices);
    EXPECT_EQ(window.offset + 4 * p.indices_word_offset, indices.offset + checked * index_bytes);
    EXPECT_GE(window.offset + window.size, indices.offset + (checked + p.index_count) * index_bytes);
    EXPECT_EQ(c.step.groups, ceilDiv(segments, device.workgroup_size / lanes));
    EXPECT_EQ(str(c.step.wait_for), "none");
    checked += p.index_count;
  }
  EXPECT_EQ(checked, check.tuple_count * k);
  // Report steps: the check steps again (without segments), one invocation each, the first waiting for all the checks.
  EXPECT_EQ(reports.size(), checks.size());
  for (size_t i = 0; i < std::min(reports.size(), checks.size()); ++i) {
    const Step& report = reports[i].step;
    const Step& mirrored = checks[i].step;
    SCOPED_TRACE("report step " + std::to_string(i) + ": " + str(reports[i]));
    EXPECT_EQ(report.spec,
              (SpecValues{expectedWorkgroup(device, 1, 1, 1), mirrored.spec[kSpecIndexWords], 0, 0, 0, 0}));
    EXPECT_EQ(str(report.bindings), str(mirrored.bindings));
    EXPECT_EQ(report.push, mirrored.push);
    EXPECT_EQ(report.push_bytes, mirrored.push_bytes);
    EXPECT_EQ(report.groups, 1u);
    EXPECT_EQ(str(report.wait_for), i == 0 ? "status" : "none");
  }
  return ok && !::testing::Test::HasFailure();
}

bool checkStructure(const OpPlan& plan, const RowGather& g, const Placement& data, const Placement& indices,
                    const Placement& output, const FakeDevice& device) {
  const uint64_t O = g.outer, A = axisRows(g), N = g.index_count, R = g.row_bytes, S = g.index_outer_stride;
  const uint64_t k = g.check.extents.size(), index_bytes = g.check.index_type == DataType::kInt64 ? 8 : 4;
  const uint64_t tuple_bytes = k * index_bytes;
  EXPECT_TRUE(S == 0 || S == N) << "index_outer_stride " << S;
  EXPECT_EQ(g.check.tuple_count, S == 0 ? N : O * N);
  // The unit: the largest power of two up to 16 dividing the row and both offsets; its kernel.
  uint32_t largest = 16;
  while (largest > 1 && (R % largest != 0 || data.offset % largest != 0 || output.offset % largest != 0)) largest /= 2;
  const std::vector<RowsStep> passes = rowSteps(plan);
  const bool fused = passes.size() == 1 && largest >= 4 && isSelfCheckingRowGatherKernel(passes[0].step.kernel);
  // Each pass's module holds the copy path it takes (RowPath; the simulator checks which).
  std::vector<Kernel> writers;
  for (RowPath path : {RowPath::kSegments, RowPath::kShortRows, RowPath::kColumns}) {
    writers.push_back(rowGatherKernel(largest, fused, device.int64_units, path));
  }
  checkStepBasics(plan, writers);
  // A small operation (a check, a report and one copy of copy units over every tuple from the first,
  // with at most 16 index components, and 256 components x workgroups) runs as one self-checking
  // copy, and any other does not.
  const uint64_t elements = g.check.tuple_count * k;
  const auto wholeSmallPass = [&](const RowsStep& pass) {
    const abi::GatherRowsParams& p = pass.params;
    return p.first_outer == 0 && p.first_index == 0 && p.index_window_begin == 0 && uint64_t(p.pass_rows) == O * N &&
           elements <= 16 && elements * pass.step.groups <= 256;
  };
  bool ok = true;
  if (fused) {
    EXPECT_TRUE(checkSteps(plan).empty() && reportSteps(plan).empty()) << kernels(plan);
    EXPECT_TRUE(wholeSmallPass(passes[0])) << str(passes[0].params);
    // It writes the status slot itself, so nothing resets it first and it waits for nothing.
    EXPECT_TRUE(plan.writes_own_status);
  } else {
    EXPECT_FALSE(plan.writes_own_status);
    ok = checkIndexSteps(plan, g.check, indices, device);
    const std::vector<CheckStep> checks = checkSteps(plan);
    const bool fusable = largest >= 4 && passes.size() == 1 && checks.size() == 1 &&
                         checks[0].params.index_count == elements && wholeSmallPass(passes[0]);
    EXPECT_FALSE(fusable) << "a small operation was not fused: " << kernels(plan);
  }
  const bool has_checks = !checkSteps(plan).empty();
  EXPECT_EQ(passes.empty(), O == 0 || N == 0 || R == 0 || A == 0);
  if (passes.empty()) return ok && !::testing::Test::HasFailure();
  CopyShape shape = copyShape(plan);
  const uint32_t U = shape.unit_bytes;
  EXPECT_EQ(U, largest);
  if (U != largest) return false;
  EXPECT_EQ(shape.index_words, index_bytes / 4);
  // Copy units: row segments of `lanes` invocations (the largest power of two up to the device's
  // row_lanes and the row's units that divides the workgroup), each copying the device's row_items
  // units; rows that fit a segment share one, as many whole rows as fit. Sub-word rows: segments of
  // output words, laid out the same way (no more lanes than the output has words).
  const uint64_t row_units = R / U;
  uint32_t lanes = 1;
  while (lanes * 2 <= std::min<uint64_t>(device.row_lanes, U >= 4 ? row_units : ceilDiv(O * N * R, 4)) &&
         device.workgroup_size % (lanes * 2) == 0) {
    lanes *= 2;
  }
  // Every pass of several groups has the device's workgroup; one of one group, its fitted one (below).
  EXPECT_LE(shape.workgroup_size, device.workgroup_size);
  shape.workgroup_size = device.workgroup_size;
  EXPECT_EQ(shape.lanes, lanes);
  EXPECT_EQ(shape.items, std::max<uint32_t>(device.row_items, 1));
  const uint64_t segment_units = uint64_t(shape.lanes) * shape.items;
  const uint64_t segments_per_row = U >= 4 ? ceilDiv(row_units, segment_units) : row_units;
  const uint64_t rows_per_segment = U >= 4 && segments_per_row == 1 ? segment_units / row_units : 1;
  const uint64_t segments_per_group = shape.workgroup_size / shape.lanes;
  PassReads reads;
  for (size_t i = 0; i < passes.size(); ++i) {
    const RowsStep& pass = passes[i];
    const abi::GatherRowsParams& p = pass.params;
    SCOPED_TRACE("gather_rows step " + std::to_string(i) + ": " + str(p));
    const Window data_window = pass.window(Role::kData), index_window = pass.window(Role::kIndices);
    const Window output_window = pass.window(Role::kOutput);
    EXPECT_EQ(str(pass.step.bindings), "data " + str(data_window) + ", indices " + str(index_window) + ", output " +
                                           str(output_window) + ", status");
    ok = validWindow(data_window, data, device, "data") && ok;
    ok = validWindow(index_window, indices, device, "indices") && ok;
    ok = validWindow(output_window, output, device, "output") && ok;
    // Barriers: the first copy waits for the checks (a fused one for nothing); a sub-word copy shares
    // output words with the previous one (atomics on disjoint bytes), so it waits for its output.
    if (i == 0) {
      EXPECT_EQ(str(pass.step.wait_for), has_checks ? "status" : "none");
    } else {
      EXPECT_EQ(str(pass.step.wait_for), U < 4 ? "output " + str(output_window) : "none");
    }
    EXPECT_EQ(uint64_t(p.row_units) * U, R);
    EXPECT_EQ(p.index_count, N);
    EXPECT_EQ(p.axis_size, A);
    EXPECT_EQ(p.status_slot, 0u);
    EXPECT_EQ(p.index_outer_stride, S);
    EXPECT_EQ(pass.step.spec[kSpecTupleLength], k) << "the tuple length is a specialization constant";
    for (size_t e = 0; e < VKINDEX_MAX_TUPLE_LENGTH; ++e) {
      EXPECT_EQ(p.extents[e], e < k ? g.check.extents[e] : 0u) << "extent " << e;
    }
    EXPECT_EQ(p.segments_per_row, segments_per_row);
    expectExactDivision(p.segments_per_row, p.segments_per_row_multiplier, p.segments_per_row_shift,
                        "segments_per_row");
    expectExactDivision(p.index_count, p.index_count_multiplier, p.index_count_shift, "index_count");
    // Output rows [q0, q1) from data rows [begin, end): the push constants must locate exactly those.
    const uint64_t q0 = uint64_t(p.first_outer) * N + p.first_index, q1 = q0 + p.pass_rows;
    EXPECT_LT(p.first_index, N);
    EXPECT_GT(p.pass_rows, 0u);
    EXPECT_LE(q1, O * N);
    EXPECT_LT(p.data_row_begin, p.data_row_end);
    EXPECT_LE(p.data_row_end, O * A);
    EXPECT_EQ(output_window.offset + uint64_t(p.out_unit_offset) * U, output.offset + q0 * R);
    EXPECT_GE(output_window.offset + output_window.size, output.offset + q1 * R);
    EXPECT_EQ(data_window.offset + uint64_t(p.data_unit_offset) * U, data.offset + p.data_row_begin * R);
    EXPECT_GE(data_window.offset + data_window.size, data.offset + uint64_t(p.data_row_end) * R);
    // Tuple positions the rows use, (q / N) * S + q % N: with S == 0 one run inside a slice, or all N
    // across a slice boundary; with S == N exactly [q0, q1).
    const bool one_slice = q0 / N == (q1 - 1) / N;
    const uint64_t t_first = S != 0 ? q0 : one_slice ? q0 % N : 0;
    const uint64_t t_last = S != 0 ? q1 - 1 : one_slice ? (q1 - 1) % N : N - 1;
    EXPECT_LE(p.index_window_begin, t_first);
    EXPECT_EQ(index_window.offset + 4 * p.indices_word_offset, indices.offset + p.index_window_begin * tuple_bytes);
    EXPECT_GE(index_window.offset + index_window.size, indices.offset + (t_last + 1) * tuple_bytes);
    if (U < 4) {
      EXPECT_EQ(p.out_word_count, output_window.size / 4);
    }
    EXPECT_LE(U < 4 ? p.out_word_count : uint64_t(p.pass_rows) * p.row_units, kMaxPassItems);  // 32-bit counts
    const uint64_t segments = U < 4                   ? ceilDiv(p.out_word_count, segment_units)
                              : segments_per_row == 1 ? ceilDiv(p.pass_rows, rows_per_segment)
                                                      : uint64_t(p.pass_rows) * segments_per_row;
    // Short rows of whole slices that share their tuples go column by column with one lane per segment
    // (gather_rows.comp, copyColumns): one invocation per row position and block of slices.
    const uint64_t slices = p.pass_rows / N, block = std::max<uint64_t>(1, shape.items / p.row_units);
    const bool columns = U >= 4 && shape.lanes == 1 && p.row_units <= VKINDEX_SHORT_ROW_UNITS && S == 0 &&
                         p.first_index == 0 && p.pass_rows % N == 0 && slices >= block;
    EXPECT_EQ(pass.step.groups, columns ? ceilDiv(N * ceilDiv(slices, block), shape.workgroup_size)
                                        : ceilDiv(segments, segments_per_group));
    const uint64_t invocations = columns ? N * ceilDiv(slices, block) : segments * shape.lanes;
    EXPECT_EQ(pass.step.spec[kSpecWorkgroupSize],
              expectedWorkgroup(device, pass.step.groups, invocations, columns ? 1 : shape.lanes));
    reads[{q0, q1}].push_back({p.data_row_begin, p.data_row_end});
  }
  // Whatever the index values, an output row of outer slice o reads a row of slice o.
  expectTiledReads(
      std::move(reads), O * N,
      [&](uint64_t q0, uint64_t q1) { return std::make_pair(q0 / N * A, ((q1 - 1) / N + 1) * A); }, "rows");
  return ok && !::testing::Test::HasFailure();
}

void expectAxisReport(const OpPlan& plan, const std::string& op, const Shape& indices_shape, uint64_t axis_size,
                      int64_t axis) {
  EXPECT_EQ(plan.report.op, op);
  EXPECT_EQ(plan.report.input, "indices");
  EXPECT_EQ(plan.report.indices_shape, indices_shape);
  EXPECT_FALSE(plan.report.tuples);
  EXPECT_EQ(plan.report.extents, std::vector<uint64_t>{axis_size});
  EXPECT_EQ(plan.report.data_dims, std::vector<int64_t>{axis});
}

void expectGatherReport(const OpPlan& plan, const GatherShape& shape) {
  expectAxisReport(plan, "Gather", shape.indices_shape, shape.axis_size, shape.axis);
}

StatusOr<OpPlan> checkedPlan(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                             DataType index_type, int64_t axis, const FakeDevice& device, uint64_t data_offset,
                             uint64_t indices_offset, uint64_t output_offset) {
  StatusOr<GatherShape> shape = inferGatherShape(data_shape, data_type, indices_shape, index_type, axis);
  if (!shape.ok()) return shape.status();
  const uint64_t size = elementSize(data_type);
  const Placement data = placed(data_offset, *elementCount(data_shape) * size);
  const Placement indices = placed(indices_offset, shape->index_count * (index_type == DataType::kInt64 ? 8 : 4));
  const Placement output = placed(output_offset, *elementCount(shape->output_shape) * size);
  StatusOr<OpPlan> plan = planGather(*shape, index_type, data, indices, output, device, device);
  if (plan.ok()) {
    checkStructure(*plan, rowGatherOf(*shape, index_type), data, indices, output, device);
    expectGatherReport(*plan, *shape);
  }
  return plan;
}

StatusOr<OpPlan> checkedRowPlan(const RowGather& gather, const FakeDevice& device, uint64_t data_offset,
                                uint64_t indices_offset, uint64_t output_offset) {
  const Placement data = placed(data_offset, dataBytes(gather));
  const Placement indices = placed(indices_offset, indicesBytes(gather));
  const Placement output = placed(output_offset, outputBytes(gather));
  StatusOr<OpPlan> plan = planRowGather(gather, data, indices, output, device, device);
  if (plan.ok()) checkStructure(*plan, gather, data, indices, output, device);
  return plan;
}

}  // namespace vkindex::plan::test
