#include "gather_simulator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <utility>

#include "plan_checks.hpp"
#include "plan_test_support.hpp"
#include "simulator_support.hpp"

namespace vkindex::plan::test {
namespace {

// The tensors, the status slot and the record of what the steps did to them.
class RowGatherMachine {
 public:
  RowGatherMachine(const RowGather& gather, const Placement& data, const Placement& indices, const Placement& output,
                   const BadIndices& bad, uint32_t seed)
      : gather_(gather),
        data_(data),
        output_(output),
        rng_(seed),
        data_buf_(randomBuffer(data, rng_)),
        idx_buf_(randomBuffer(indices, rng_)),
        out_(randomBuffer(output, rng_)),
        index_(gather.check, indices, idx_buf_, randomIndices(gather.check, bad, rng_), ok_) {}

  // Runs every step of `plan` in order. Returns false once a kernel went out of bounds.
  bool run(const OpPlan& plan) {
    for (size_t i = 0; i < plan.steps.size() && ok_; ++i) {
      const Step& step = plan.steps[i];
      SCOPED_TRACE("step " + std::to_string(i) + ": " + str(step));
      switch (step.kernel) {
        case Kernel::kCheckIndices:
        case Kernel::kCheckIndicesInt64:
        case Kernel::kCheckIndicesWide: index_.checkIndices(step); break;
        case Kernel::kReportIndex: index_.reportIndex(step, i); break;
        case Kernel::kGatherRows:
        case Kernel::kGatherRows8:
        case Kernel::kGatherRows4:
        case Kernel::kGatherRowsInt64:
        case Kernel::kGatherRowsInt64_8:
        case Kernel::kGatherShortRows:
        case Kernel::kGatherShortRows8:
        case Kernel::kGatherShortRows4:
        case Kernel::kGatherShortRowsInt64:
        case Kernel::kGatherShortRowsInt64_8:
        case Kernel::kGatherColumns:
        case Kernel::kGatherColumns8:
        case Kernel::kGatherColumns4:
        case Kernel::kGatherColumnsInt64:
        case Kernel::kGatherColumnsInt64_8:
        case Kernel::kGatherRowBytes: gatherRows(step); break;
        default:
          if (isSelfCheckingRowGatherKernel(step.kernel)) {
            selfCheck(step, i);
            gatherRows(step);
            break;
          }
          ADD_FAILURE() << "the simulator has no " << kernelName(step.kernel);
          ok_ = false;
      }
    }
    return ok_;
  }

  // Compares the status slot and the output buffer with what the indices call for.
  void expectResult(const OpPlan& plan) {
    if (index_.expectStatus(plan)) {
      out_.expectUntouched();  // nothing written
      return;
    }
    // The reference: output row (o, n) is data row (o, tuple(o * stride + n)) read row-major.
    const RowGather& g = gather_;
    const std::vector<int64_t>& idx = index_.values();
    const uint64_t O = g.outer, A = axisRows(g), N = g.index_count, R = g.row_bytes, k = g.check.extents.size();
    std::vector<uint8_t> expected = out_.before();
    for (uint64_t o = 0; o < O && R > 0 && A > 0; ++o) {
      for (uint64_t n = 0; n < N; ++n) {
        const uint64_t t = o * g.index_outer_stride + n;
        uint64_t row = 0;
        for (uint64_t c = 0; c < k; ++c) {
          const int64_t extent = static_cast<int64_t>(g.check.extents[c]), value = idx[t * k + c];
          row = row * static_cast<uint64_t>(extent) + static_cast<uint64_t>(value < 0 ? value + extent : value);
        }
        std::memcpy(&expected[output_.offset + (o * N + n) * R], &data_buf_[data_.offset + (o * A + row) * R], R);
      }
    }
    out_.expectWrittenOnce(expected, placed(output_.offset, outputBytes(g)));
  }

 private:
  // gather_rows.comp's VKINDEX_SELF_CHECK part: check_indices.comp and report_index.comp over every
  // component of every tuple of the pass, from the first (every invocation does it; the result is the
  // same as once).
  void selfCheck(const Step& step, size_t step_index) {
    const abi::GatherRowsParams p = pushOf<abi::GatherRowsParams>(step);
    const uint32_t tuple_length = step.spec[kSpecTupleLength];
    abi::CheckParams check{};
    check.status_slot = p.status_slot;
    check.index_count = (p.index_outer_stride == 0 ? p.index_count : p.pass_rows) * tuple_length;
    check.indices_word_offset = p.indices_word_offset;
    check.tuple_length = tuple_length;
    std::copy(std::begin(p.extents), std::end(p.extents), std::begin(check.extents));
    index_.selfCheck(step, check, step_index);
  }

  // gather_rows.comp, counting the writes to every output byte.
  void gatherRows(const Step& step) {
    const abi::GatherRowsParams p = pushOf<abi::GatherRowsParams>(step);
    const CopyShape shape = copyShapeOf(step);
    const uint32_t U = shape.unit_bytes, W = shape.index_words;
    if (index_.badIndexFound(p.status_slot)) return;
    bool& ok = ok_;
    BufferBinding in(data_buf_, boundWindow(step, Role::kData), "data", ok);
    BufferBinding ix(idx_buf_, boundWindow(step, Role::kIndices), "indices", ok);
    BufferBinding out(out_.buffer(), boundWindow(step, Role::kOutput), "output", ok);
    const auto bySegments = [&](uint32_t n) {  // (sub-word rows: segments_per_row == row_units)
      return fastDivide(n, p.segments_per_row, p.segments_per_row_multiplier, p.segments_per_row_shift);
    };
    // tupleRow: the row-major position within the addressed dims of the tuple at `position`.
    const uint32_t tuple_length = step.spec[kSpecTupleLength];  // TUPLE_LENGTH
    const auto tupleRow = [&](uint32_t position) {
      const uint32_t first_word = p.indices_word_offset + position * tuple_length * W;
      uint32_t row = 0;
      for (uint32_t c = 0; c < tuple_length && c < VKINDEX_MAX_TUPLE_LENGTH; ++c) {
        const uint32_t extent = p.extents[c];
        row = row * extent + normalizeIndex(loadIndex(ix, first_word, c, W), extent);
      }
      return row;
    };
    const auto boundDataRow = [&](uint32_t pass_row) {
      const uint32_t index_row = p.first_index + pass_row;
      const uint32_t outer_step = fastDivide(index_row, p.index_count, p.index_count_multiplier, p.index_count_shift);
      const uint32_t outer = p.first_outer + outer_step;
      const uint32_t n = index_row - outer_step * p.index_count;
      const uint32_t row = outer * p.axis_size + tupleRow(outer * p.index_outer_stride + n - p.index_window_begin);
      return row < p.data_row_begin || row >= p.data_row_end ? kNotBound : row - p.data_row_begin;
    };
    const auto wrote = [&](uint64_t byte) { out_.wrote(out.absolute(byte)); };
    const uint32_t pass_units = p.pass_rows * p.row_units;
    const auto copyRow = [&](uint32_t pass_row, uint32_t data_row, uint32_t first_unit, uint32_t end_unit,
                             uint32_t unit_stride) {
      for (uint32_t unit = first_unit; unit < end_unit; unit += unit_stride) {
        const uint64_t source = p.data_unit_offset + uint64_t(data_row) * p.row_units + unit;
        const uint64_t target = p.out_unit_offset + uint64_t(pass_row) * p.row_units + unit;
        if (!in.inside(source * U, U) || !out.inside(target * U, U)) return;
        std::memcpy(out.at(target * U), in.at(source * U), U);
        for (uint32_t b = 0; b < U; ++b) wrote(target * U + b);
      }
    };
    // copyColumns: short rows of whole slices sharing their tuples, column n of a block of slices at a
    // time (one lane per segment only). The order of blocks does not change the bytes.
    const uint32_t block_slices = std::max(1u, shape.items / std::max(p.row_units, 1u));
    const bool by_columns = U >= 4 && shape.lanes == 1 && p.row_units <= VKINDEX_SHORT_ROW_UNITS &&
                            p.index_outer_stride == 0 && p.first_index == 0 && p.index_count != 0 &&
                            p.pass_rows % p.index_count == 0 && p.pass_rows / p.index_count >= block_slices;
    // A module holding one path runs only that one (gather_rows.comp, VKINDEX_ROW_PATH): the pass must
    // take it.
    const bool short_rows = !by_columns && shape.lanes == 1 && p.segments_per_row == 1 && p.row_units < shape.items;
    const RowPath taken = by_columns ? RowPath::kColumns : short_rows ? RowPath::kShortRows : RowPath::kSegments;
    if (const std::optional<RowPath> held = rowGatherPath(step.kernel); held && *held != taken) {
      ADD_FAILURE() << kernelName(step.kernel) << " holds copy path " << static_cast<int>(*held)
                    << " but its pass takes path " << static_cast<int>(taken) << ": " << str(p);
      ok_ = false;
      return;
    }
    if (by_columns) {
      const uint32_t slices = p.pass_rows / p.index_count;
      for (uint32_t column = 0; column < p.index_count && ok; ++column) {
        const uint32_t axis_row = tupleRow(column - p.index_window_begin);
        for (uint32_t slice = 0; slice < slices && ok; ++slice) {
          const uint32_t row = (p.first_outer + slice) * p.axis_size + axis_row;
          if (row < p.data_row_begin || row >= p.data_row_end) continue;
          copyRow(slice * p.index_count + column, row - p.data_row_begin, 0, p.row_units, 1);
        }
      }
      return;
    }
    if (U >= 4) {  // copySegment: lanes x items units of a row, or whole short rows, per segment
      const uint32_t segment_units = shape.lanes * shape.items;
      const bool whole_rows = p.segments_per_row == 1;  // rowsPerSegment()
      const uint32_t rows_per_segment = whole_rows ? std::max(1u, segment_units / std::max(p.row_units, 1u)) : 1u;
      const uint32_t total = whole_rows ? p.pass_rows / rows_per_segment + (p.pass_rows % rows_per_segment != 0)
                                        : p.pass_rows * p.segments_per_row;
      for (uint32_t segment = 0; segment < total && ok; ++segment) {
        uint32_t first_row = segment * rows_per_segment, end_row = first_row + 1, begin = 0, end = p.row_units;
        if (whole_rows) {
          end_row = first_row + std::min(rows_per_segment, p.pass_rows - first_row);
        } else {
          first_row = bySegments(segment);
          end_row = first_row + 1;
          begin = (segment - first_row * p.segments_per_row) * segment_units;
          end = std::min(begin + segment_units, p.row_units);
        }
        // copyRows, or copyShortRows: the same units of the same rows
        for (uint32_t pass_row = first_row; pass_row < end_row && ok; ++pass_row) {
          const uint32_t data_row = boundDataRow(pass_row);
          if (data_row == kNotBound) continue;
          for (uint32_t lane = 0; lane < shape.lanes; ++lane) {
            const uint64_t lane_end = begin + lane + uint64_t(shape.items) * shape.lanes;
            copyRow(pass_row, data_row, begin + lane, static_cast<uint32_t>(std::min<uint64_t>(end, lane_end)),
                    shape.lanes);
          }
        }
      }
      return;
    }
    const uint32_t units_per_word = 4u / U, unit_mask = U == 1 ? 0xFFu : 0xFFFFu;
    const auto storeOwnedBits = [&](uint32_t word, uint32_t value, uint32_t owned) {
      if (owned == 0) return;
      out.setWord(word, (out.word(word) & ~owned) | value);  // a plain store when all owned
      for (uint32_t b = 0; b < 4; ++b) {
        if (((owned >> (8 * b)) & 0xFFu) != 0) wrote(uint64_t(word) * 4 + b);
      }
    };
    const auto loadSubUnit = [&](uint32_t source) {
      return (in.word(source / units_per_word) >> ((source % units_per_word) * 8u * U)) & unit_mask;
    };
    // assembleUnitRows: one-unit rows stepping their (outer, n) coordinates through the word.
    const auto assembleUnitRows = [&](uint32_t word, std::pair<uint32_t, uint32_t> at) {
      uint32_t value = 0, owned = 0;
      for (uint32_t k = 0; k < units_per_word; ++k) {
        const auto [outer, n] = at;
        const uint32_t row = outer * p.axis_size + tupleRow(outer * p.index_outer_stride + n - p.index_window_begin);
        if (row >= p.data_row_begin && row < p.data_row_end) {
          value |= loadSubUnit(p.data_unit_offset + row - p.data_row_begin) << (k * 8u * U);
          owned |= unit_mask << (k * 8u * U);
        }
        at = n + 1 == p.index_count ? std::make_pair(outer + 1, 0u) : std::make_pair(outer, n + 1);
      }
      storeOwnedBits(word, value, owned);
      return at;
    };
    const auto assembleWord = [&](uint32_t word) {
      // copyWholeWord: the word's units all come from one bound row of this pass.
      const uint32_t first = word * units_per_word;
      if (first >= p.out_unit_offset && first - p.out_unit_offset + units_per_word <= pass_units) {
        const uint32_t unit = first - p.out_unit_offset, pass_row = bySegments(unit);
        const uint32_t in_row = unit - pass_row * p.row_units;
        const uint32_t data_row = in_row + units_per_word <= p.row_units ? boundDataRow(pass_row) : kNotBound;
        if (data_row != kNotBound) {
          const uint32_t source_byte = (p.data_unit_offset + data_row * p.row_units + in_row) * U;
          const uint32_t shift = (source_byte & 3u) * 8u;
          uint32_t value = in.word(source_byte >> 2) >> shift;
          if (shift != 0u) value |= in.word((source_byte >> 2) + 1u) << (32u - shift);
          storeOwnedBits(word, value, 0xFFFFFFFFu);
          return;
        }
      }
      // The general case.
      uint32_t value = 0, owned = 0;
      for (uint32_t k = 0; k < units_per_word; ++k) {
        const uint32_t unit_in_binding = word * units_per_word + k;
        if (unit_in_binding < p.out_unit_offset) continue;
        const uint32_t unit = unit_in_binding - p.out_unit_offset;
        if (unit >= pass_units) break;
        const uint32_t pass_row = bySegments(unit), data_row = boundDataRow(pass_row);
        if (data_row == kNotBound) continue;
        value |= loadSubUnit(p.data_unit_offset + data_row * p.row_units + (unit - pass_row * p.row_units))
                 << (k * 8u * U);
        owned |= unit_mask << (k * 8u * U);
      }
      storeOwnedBits(word, value, owned);
    };
    // assembleColumns: one-unit rows of whole outer slices that share their tuples, word `column` of
    // every slice from the same units_per_word tuples.
    if (p.row_units == 1 && p.index_outer_stride == 0 && p.first_index == 0 && p.index_count != 0 &&
        p.index_count % units_per_word == 0 && p.pass_rows % p.index_count == 0 &&
        p.out_unit_offset % units_per_word == 0) {
      const uint32_t columns = p.index_count / units_per_word, slices = p.pass_rows / p.index_count;
      for (uint32_t column = 0; column < columns && ok; ++column) {
        for (uint32_t slice = 0; slice < slices && ok; ++slice) {
          uint32_t value = 0, owned = 0;
          for (uint32_t k = 0; k < units_per_word; ++k) {
            const uint32_t row =
                (p.first_outer + slice) * p.axis_size + tupleRow(column * units_per_word + k - p.index_window_begin);
            if (row < p.data_row_begin || row >= p.data_row_end) continue;
            value |= loadSubUnit(p.data_unit_offset + row - p.data_row_begin) << (k * 8u * U);
            owned |= unit_mask << (k * 8u * U);
          }
          storeOwnedBits(p.out_unit_offset / units_per_word + slice * columns + column, value, owned);
        }
      }
      return;
    }
    // assembleSegment, segment by segment and lane by lane (the kernel's order; with one lane the
    // coordinates carry from word to word, as there).
    const uint32_t segment_words = shape.lanes * shape.items;
    const uint32_t segments = p.out_word_count / segment_words + (p.out_word_count % segment_words != 0);
    for (uint32_t index = 0; index < segments * shape.lanes && ok; ++index) {
      const uint32_t segment = index / shape.lanes, lane = index % shape.lanes;
      bool carried = false;
      std::pair<uint32_t, uint32_t> at;
      for (uint32_t i = 0; i < shape.items && ok; ++i) {
        const uint32_t word = segment * segment_words + lane + i * shape.lanes;
        if (word >= p.out_word_count) break;
        const uint32_t first = word * units_per_word;
        if (p.row_units != 1 || first < p.out_unit_offset || first - p.out_unit_offset + units_per_word > pass_units) {
          carried = false;
          assembleWord(word);
          continue;
        }
        if (!carried) {
          const uint32_t index_row = p.first_index + first - p.out_unit_offset;
          const uint32_t outer_step =
              fastDivide(index_row, p.index_count, p.index_count_multiplier, p.index_count_shift);
          at = {p.first_outer + outer_step, index_row - outer_step * p.index_count};
        }
        at = assembleUnitRows(word, at);
        carried = shape.lanes == 1;
      }
    }
  }

  const RowGather& gather_;
  Placement data_, output_;
  bool ok_ = true;  // declared before the members that bind it
  std::mt19937 rng_;
  std::vector<uint8_t> data_buf_, idx_buf_;
  OutputRecord out_;
  IndexSimulator index_;
};

// Planning may only fail for a slice larger than a window.
void expectSliceTooLarge(const Status& status, const RowGather& gather, const FakeDevice& device) {
  EXPECT_EQ(status.code(), StatusCode::kUnsupported);
  EXPECT_EQ(status.message(), gather.op + ": " + gather.row_name + " is " + std::to_string(gather.row_bytes) +
                                  " bytes, more than this device can bind at once (maxStorageBufferRange " +
                                  std::to_string(device.max_storage_buffer_range) + ")");
  EXPECT_GT(gather.row_bytes, windowCapacity(device));
}

}  // namespace

std::string describe(const SimCase& c) {
  const auto s = [](auto value) { return std::to_string(value); };
  return "data " + shapeString(c.data_shape) + " " + dataTypeName(c.data_type) + " at " + s(c.data_offset) +
         ", indices " + shapeString(c.indices_shape) + " " + dataTypeName(c.index_type) + " at " + s(c.indices_offset) +
         ", output at " + s(c.output_offset) + ", axis " + s(c.axis) + ", " + deviceString(c.device) + badString(c.bad);
}

std::string describe(const RowGatherCase& c) {
  const auto s = [](auto value) { return std::to_string(value); };
  const RowGather& g = c.gather;
  std::string extents;
  for (uint64_t extent : g.check.extents) extents += (extents.empty() ? "" : ", ") + s(extent);
  return "outer " + s(g.outer) + ", " + s(g.index_count) + " rows of " + s(g.row_bytes) + " bytes at " +
         s(c.data_offset) + " -> " + s(c.output_offset) + ", " + s(g.check.tuple_count) + " tuples (" + extents +
         ") of " + dataTypeName(g.check.index_type) + " at " + s(c.indices_offset) + ", outer stride " +
         s(g.index_outer_stride) + ", " + deviceString(c.device) + badString(c.bad);
}

bool runRowGather(const OpPlan& plan, const RowGather& gather, const Placement& data, const Placement& indices,
                  const Placement& output, const FakeDevice& device, const BadIndices& bad, uint32_t seed) {
  if (!checkStructure(plan, gather, data, indices, output, device)) return false;
  RowGatherMachine machine(gather, data, indices, output, bad, seed);
  if (!machine.run(plan)) return false;
  machine.expectResult(plan);
  return !::testing::Test::HasFailure();
}

std::optional<OpPlan> simulate(const SimCase& c, uint32_t seed) {
  SCOPED_TRACE(describe(c));
  StatusOr<GatherShape> shape = inferGatherShape(c.data_shape, c.data_type, c.indices_shape, c.index_type, c.axis);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  if (!shape.ok()) return std::nullopt;
  const RowGather gather = rowGatherOf(*shape, c.index_type);
  const uint64_t out_bytes = *elementCount(shape->output_shape) * elementSize(c.data_type);
  EXPECT_EQ(out_bytes, outputBytes(gather));
  const Placement data = placed(c.data_offset, *elementCount(c.data_shape) * elementSize(c.data_type));
  const Placement indices = placed(c.indices_offset, indicesBytes(gather)), output = placed(c.output_offset, out_bytes);
  StatusOr<OpPlan> plan = planGather(*shape, c.index_type, data, indices, output, c.device, c.device);
  if (!plan.ok()) {
    expectSliceTooLarge(plan.status(), gather, c.device);
    return std::nullopt;
  }
  expectGatherReport(*plan, *shape);
  runRowGather(*plan, gather, data, indices, output, c.device, c.bad, seed);
  return std::move(*plan);
}

std::optional<OpPlan> simulate(const RowGatherCase& c, uint32_t seed) {
  SCOPED_TRACE(describe(c));
  const Placement data = placed(c.data_offset, dataBytes(c.gather));
  const Placement indices = placed(c.indices_offset, indicesBytes(c.gather));
  const Placement output = placed(c.output_offset, outputBytes(c.gather));
  StatusOr<OpPlan> plan = planRowGather(c.gather, data, indices, output, c.device, c.device);
  if (!plan.ok()) {
    expectSliceTooLarge(plan.status(), c.gather, c.device);
    return std::nullopt;
  }
  runRowGather(*plan, c.gather, data, indices, output, c.device, c.bad, seed);
  return std::move(*plan);
}

}  // namespace vkindex::plan::test
