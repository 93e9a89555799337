#include "gather_simulator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "plan_checks.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

constexpr uint32_t kNoError = 0xFFFFFFFFu;    // VKINDEX_NO_ERROR
constexpr uint32_t kNotBound = 0xFFFFFFFFu;   // gather_rows.comp's kNotBound
constexpr uint32_t kUntouched = 0xDEADBEEFu;  // status words 1-3 before any step runs

// A storage-buffer binding as a kernel sees it: byte i of the binding is byte window.offset + i of the
// buffer, and an access past window.size fails the test (once) instead of touching memory.
class BufferBinding {
 public:
  BufferBinding(std::vector<uint8_t>& buffer, const Window& window, const char* name, bool& ok)
      : buffer_(buffer), window_(window), name_(name), ok_(ok) {}
  bool inside(uint64_t byte, uint64_t count) {
    if (byte + count <= window_.size && window_.offset + byte + count <= buffer_.size()) return true;
    if (ok_) {
      ADD_FAILURE() << name_ << " binding accessed at [" << byte << ", " << byte + count << "), outside its "
                    << window_.size << "-byte window";
    }
    ok_ = false;
    return false;
  }
  uint8_t* at(uint64_t byte) { return buffer_.data() + window_.offset + byte; }
  uint64_t absolute(uint64_t byte) const { return window_.offset + byte; }
  uint32_t word(uint64_t index) {
    uint32_t value = 0;
    if (inside(4 * index, 4)) std::memcpy(&value, at(4 * index), 4);
    return value;
  }
  void setWord(uint64_t index, uint32_t value) {
    if (inside(4 * index, 4)) std::memcpy(at(4 * index), &value, 4);
  }

 private:
  std::vector<uint8_t>& buffer_;
  Window window_;
  const char* name_;
  bool& ok_;
};

// indices.glsl, word for word.
struct IndexValue {
  uint32_t lo = 0, hi = 0;
  bool operator==(const IndexValue& other) const { return lo == other.lo && hi == other.hi; }
};
IndexValue split(int64_t value) {
  const uint64_t bits = static_cast<uint64_t>(value);
  return {static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
}
IndexValue loadIndex(BufferBinding& indices, uint32_t first_word, uint32_t position, uint32_t index_words) {
  const uint32_t word = first_word + position * index_words;
  if (index_words == 2) return {indices.word(word), indices.word(word + 1u)};
  const uint32_t lo = indices.word(word);
  return {lo, (lo >> 31) != 0 ? 0xFFFFFFFFu : 0u};
}
bool indexInRange(IndexValue value, uint32_t s) {
  if (s == 0u) return false;
  if (value.hi == 0u) return value.lo < s;
  if (value.hi == 0xFFFFFFFFu) return value.lo >= 0u - s;
  return false;
}
uint32_t normalizeIndex(IndexValue value, uint32_t s) {
  const uint32_t wrapped = value.hi != 0u ? value.lo + s : value.lo;
  return std::min(wrapped, std::max(s, 1u) - 1u);
}

// The tensors, the status slot and the record of what the steps did to them.
class Machine {
 public:
  Machine(const RowGather& gather, const Placement& data, const Placement& indices, const Placement& output,
          const BadIndices& bad, uint32_t seed)
      : gather_(gather), data_(data), indices_(indices), output_(output), rng_(seed) {
    const uint64_t k = gather.check.extents.size(), elements = gather.check.tuple_count * k;
    const uint32_t W = gather.check.index_type == DataType::kInt64 ? 2 : 1;
    data_buf_ = randomBuffer(data);
    idx_buf_ = randomBuffer(indices);
    out_buf_ = randomBuffer(output);
    out_before_ = out_buf_;
    writes_.assign(out_buf_.size(), 0);
    // Valid random components, each within its extent, then the planted bad ones.
    idx_.resize(elements);
    for (uint64_t e = 0; e < elements; ++e) {
      const int64_t extent = static_cast<int64_t>(gather.check.extents[e % k]);
      idx_[e] = extent == 0 ? 0 : std::uniform_int_distribution<int64_t>(-extent, extent - 1)(rng_);
    }
    for (const auto& [position, value] : bad) {
      if (position < elements) idx_[position] = value;
    }
    for (uint64_t e = 0; e < elements; ++e) {
      const int32_t narrow = static_cast<int32_t>(idx_[e]);
      std::memcpy(&idx_buf_[indices.offset + 4 * W * e], W == 2 ? static_cast<const void*>(&idx_[e]) : &narrow, 4 * W);
    }
    for (uint64_t e = 0; e < elements && expected_bad_ == kNoError; ++e) {
      const int64_t extent = static_cast<int64_t>(gather.check.extents[e % k]);
      if (idx_[e] < -extent || idx_[e] >= extent) expected_bad_ = static_cast<uint32_t>(e);
    }
    status_buf_.resize(4 * 4);
    const uint32_t status[4] = {kNoError, kUntouched, kUntouched, kUntouched};
    std::memcpy(status_buf_.data(), status, sizeof(status));
  }

  // Runs every step of `plan` in order. Returns false once a kernel went out of bounds.
  bool run(const OpPlan& plan) {
    for (size_t i = 0; i < plan.steps.size() && ok_; ++i) {
      const Step& step = plan.steps[i];
      SCOPED_TRACE("step " + std::to_string(i) + ": " + str(step));
      switch (step.kernel) {
        case Kernel::kCheckIndices: checkIndices(step); break;
        case Kernel::kReportIndex: reportIndex(step, i); break;
        case Kernel::kGatherRows: gatherRows(step); break;
        default: ADD_FAILURE() << "the simulator has no " << kernelName(step.kernel); ok_ = false;
      }
    }
    return ok_;
  }

  // Compares the status slot and the output buffer with what the indices call for.
  void expectResult(const OpPlan& plan) {
    const uint32_t status = statusWord(0);
    EXPECT_EQ(status, expected_bad_);
    EXPECT_EQ(statusWord(3), kUntouched);
    if (status != kNoError) {
      // Exactly the report step whose window holds the position recorded its value; nothing was written.
      EXPECT_EQ(reporters_.size(), 1u);
      for (size_t reporter : reporters_) {
        const CheckStep report{plan.steps[reporter], pushOf<abi::CheckParams>(plan.steps[reporter])};
        EXPECT_GE(status, report.params.position_base) << str(report);
        EXPECT_LT(status - report.params.position_base, report.params.index_count) << str(report);
      }
      if (status < idx_.size()) {
        const IndexValue recorded{statusWord(1), statusWord(2)};
        EXPECT_TRUE(recorded == split(idx_[status])) << "recorded " << recorded.lo << ", " << recorded.hi;
      }
      EXPECT_EQ(std::count(writes_.begin(), writes_.end(), 0u), static_cast<std::ptrdiff_t>(writes_.size()))
          << "a copy pass wrote although a bad index was found";
      EXPECT_TRUE(out_buf_ == out_before_) << "the output buffer changed although a bad index was found";
      return;
    }
    EXPECT_TRUE(reporters_.empty()) << "a report step ran without a bad index";
    EXPECT_EQ(statusWord(1), kUntouched);
    EXPECT_EQ(statusWord(2), kUntouched);
    // The reference: output row (o, n) is data row (o, tuple(o * stride + n)) read row-major.
    const RowGather& g = gather_;
    const uint64_t O = g.outer, A = axisRows(g), N = g.index_count, R = g.row_bytes, k = g.check.extents.size();
    std::vector<uint8_t> expected = out_before_;
    for (uint64_t o = 0; o < O && R > 0 && A > 0; ++o) {
      for (uint64_t n = 0; n < N; ++n) {
        const uint64_t t = o * g.index_outer_stride + n;
        uint64_t row = 0;
        for (uint64_t c = 0; c < k; ++c) {
          const int64_t extent = static_cast<int64_t>(g.check.extents[c]), value = idx_[t * k + c];
          row = row * static_cast<uint64_t>(extent) + static_cast<uint64_t>(value < 0 ? value + extent : value);
        }
        std::memcpy(&expected[output_.offset + (o * N + n) * R], &data_buf_[data_.offset + (o * A + row) * R], R);
      }
    }
    const uint64_t out_bytes = outputBytes(g);
    for (uint64_t byte = 0; byte < out_buf_.size(); ++byte) {
      const uint32_t want = byte >= output_.offset && byte < output_.offset + out_bytes ? 1 : 0;
      if (writes_[byte] != want || out_buf_[byte] != expected[byte]) {
        ADD_FAILURE() << "output buffer byte " << byte << " (tensor at " << output_.offset << ", " << out_bytes
                      << " bytes) written " << writes_[byte] << " times, expected " << want << "; value "
                      << int(out_buf_[byte]) << ", expected " << int(expected[byte]);
        break;
      }
    }
  }

 private:
  // Random bytes in and around a tensor.
  std::vector<uint8_t> randomBuffer(const Placement& t) {
    std::vector<uint8_t> buffer((t.offset + t.bytes + 3) / 4 * 4 + 64);
    for (size_t i = 0; i < buffer.size(); i += 4) {
      const uint32_t bits = static_cast<uint32_t>(rng_());
      std::memcpy(&buffer[i], &bits, std::min<size_t>(4, buffer.size() - i));
    }
    return buffer;
  }

  uint32_t statusWord(uint32_t i) const {
    uint32_t value = 0;
    std::memcpy(&value, &status_buf_[4 * i], 4);
    return value;
  }

  // The slot's words as the kernel binds them (the runner's slot 0 here).
  BufferBinding statusBinding() { return BufferBinding(status_buf_, Window{0, status_buf_.size()}, "status", ok_); }

  // check_indices.comp: every position of its window, per-component extents, smallest bad position wins.
  void checkIndices(const Step& step) {
    const abi::CheckParams p = pushOf<abi::CheckParams>(step);
    const uint32_t W = step.spec[kSpecIndexWords];
    BufferBinding indices(idx_buf_, boundWindow(step, Role::kIndices), "check indices", ok_);
    BufferBinding status = statusBinding();
    for (uint32_t position = 0; position < p.index_count && ok_; ++position) {
      const uint32_t extent = p.tuple_length == 1u ? p.extents[0] : p.extents[position % p.tuple_length];
      const IndexValue value = loadIndex(indices, p.indices_word_offset, position, W);
      const uint64_t absolute = uint64_t(p.position_base) + position;
      if (absolute < idx_.size() && !(value == split(idx_[absolute]))) {
        ADD_FAILURE() << "check step reads index " << absolute << " wrongly";
        ok_ = false;
      }
      if (!indexInRange(value, extent)) {
        const uint32_t word = p.status_slot * 4;  // atomicMin
        status.setWord(word, std::min(status.word(word), p.position_base + position));
      }
    }
  }

  // report_index.comp: one invocation; copies the bad index's value when this window holds it.
  void reportIndex(const Step& step, size_t step_index) {
    const abi::CheckParams p = pushOf<abi::CheckParams>(step);
    const uint32_t W = step.spec[kSpecIndexWords];
    BufferBinding indices(idx_buf_, boundWindow(step, Role::kIndices), "report indices", ok_);
    BufferBinding status = statusBinding();
    const uint32_t base = p.status_slot * 4;
    const uint32_t position = status.word(base);
    if (position == kNoError || position < p.position_base || position - p.position_base >= p.index_count) return;
    const IndexValue value = loadIndex(indices, p.indices_word_offset, position - p.position_base, W);
    status.setWord(base + 1u, value.lo);
    status.setWord(base + 2u, value.hi);
    reporters_.push_back(step_index);
  }

  // gather_rows.comp, counting the writes to every output byte.
  void gatherRows(const Step& step) {
    const abi::GatherRowsParams p = pushOf<abi::GatherRowsParams>(step);
    const CopyShape shape = copyShapeOf(step);
    const uint32_t U = shape.unit_bytes, W = shape.index_words;
    BufferBinding status = statusBinding();
    if (status.word(p.status_slot * 4) != kNoError) return;  // badIndexFound()
    bool& ok = ok_;
    BufferBinding in(data_buf_, boundWindow(step, Role::kData), "data", ok);
    BufferBinding ix(idx_buf_, boundWindow(step, Role::kIndices), "indices", ok);
    BufferBinding out(out_buf_, boundWindow(step, Role::kOutput), "output", ok);
    const auto byRowUnits = [&](uint32_t n) {
      return fastDivide(n, p.row_units, p.row_units_multiplier, p.row_units_shift);
    };
    // tupleRow: the row-major position within the addressed dims of the tuple at `position`.
    const auto tupleRow = [&](uint32_t position) {
      const uint32_t first_word = p.indices_word_offset + position * p.tuple_length * W;
      uint32_t row = 0;
      for (uint32_t c = 0; c < p.tuple_length && c < VKINDEX_MAX_TUPLE_LENGTH; ++c) {
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
    const auto wrote = [&](uint64_t byte) { ++writes_[out.absolute(byte)]; };
    const uint32_t pass_units = p.pass_rows * p.row_units;
    if (shape.row_tiled) {  // copyTiledBlock: one source row per block of workgroup x items units
      const uint32_t block = shape.workgroup_size * shape.items;
      for (uint32_t base = 0; base < pass_units && ok; base += block) {
        const uint32_t pass_row = byRowUnits(base), data_row = boundDataRow(pass_row);
        if (data_row == kNotBound) continue;
        const uint64_t source = p.data_unit_offset + data_row * p.row_units + (base - pass_row * p.row_units);
        const uint64_t target = uint64_t(p.out_unit_offset) + base;
        for (uint32_t offset = 0; offset < block; ++offset) {  // i * workgroup + local, over all i and local
          if (!in.inside((source + offset) * U, U) || !out.inside((target + offset) * U, U)) break;
          std::memcpy(out.at((target + offset) * U), in.at((source + offset) * U), U);
          for (uint32_t b = 0; b < U; ++b) wrote((target + offset) * U + b);
        }
      }
      return;
    }
    if (U >= 4) {                                                  // copyRowUnit
      uint32_t cached_pass_row = kNotBound, data_row = kNotBound;  // boundDataRow depends on the row only
      for (uint32_t unit = 0; unit < pass_units && ok; ++unit) {
        const uint32_t pass_row = byRowUnits(unit);
        if (pass_row != cached_pass_row) data_row = boundDataRow(cached_pass_row = pass_row);
        if (data_row == kNotBound) continue;
        const uint64_t source = p.data_unit_offset + data_row * p.row_units + (unit - pass_row * p.row_units);
        const uint64_t target = uint64_t(p.out_unit_offset) + unit;
        if (!in.inside(source * U, U) || !out.inside(target * U, U)) break;
        std::memcpy(out.at(target * U), in.at(source * U), U);
        for (uint32_t b = 0; b < U; ++b) wrote(target * U + b);
      }
      return;
    }
    const uint32_t units_per_word = 4u / U, unit_mask = U == 1 ? 0xFFu : 0xFFFFu;
    for (uint32_t word = 0; word < p.out_word_count && ok; ++word) {
      // copyWholeWord: the word's units all come from one bound row of this pass.
      const uint32_t first = word * units_per_word;
      if (first >= p.out_unit_offset && first - p.out_unit_offset + units_per_word <= pass_units) {
        const uint32_t unit = first - p.out_unit_offset, pass_row = byRowUnits(unit);
        const uint32_t in_row = unit - pass_row * p.row_units;
        const uint32_t data_row = in_row + units_per_word <= p.row_units ? boundDataRow(pass_row) : kNotBound;
        if (data_row != kNotBound) {
          const uint32_t source_byte = (p.data_unit_offset + data_row * p.row_units + in_row) * U;
          const uint32_t shift = (source_byte & 3u) * 8u;
          uint32_t value = in.word(source_byte >> 2) >> shift;
          if (shift != 0u) value |= in.word((source_byte >> 2) + 1u) << (32u - shift);
          out.setWord(word, value);
          for (uint32_t b = 0; b < 4; ++b) wrote(uint64_t(word) * 4 + b);
          continue;
        }
      }
      // assembleWord's general case.
      uint32_t value = 0, owned = 0;
      for (uint32_t k = 0; k < units_per_word; ++k) {
        const uint32_t unit_in_binding = word * units_per_word + k;
        if (unit_in_binding < p.out_unit_offset) continue;
        const uint32_t unit = unit_in_binding - p.out_unit_offset;
        if (unit >= pass_units) break;
        const uint32_t pass_row = byRowUnits(unit), data_row = boundDataRow(pass_row);
        if (data_row == kNotBound) continue;
        const uint32_t source = p.data_unit_offset + data_row * p.row_units + (unit - pass_row * p.row_units);
        const uint32_t bits = (in.word(source / units_per_word) >> ((source % units_per_word) * 8u * U)) & unit_mask;
        value |= bits << (k * 8u * U);
        owned |= unit_mask << (k * 8u * U);
      }
      if (owned == 0) continue;
      out.setWord(word, (out.word(word) & ~owned) | value);  // storeOwnedBits: a plain store when all owned
      for (uint32_t b = 0; b < 4; ++b) {
        if (((owned >> (8 * b)) & 0xFFu) != 0) wrote(uint64_t(word) * 4 + b);
      }
    }
  }

  const RowGather& gather_;
  Placement data_, indices_, output_;
  std::mt19937 rng_;
  std::vector<uint8_t> data_buf_, idx_buf_, out_buf_, out_before_, status_buf_;
  std::vector<uint32_t> writes_;
  std::vector<int64_t> idx_;  // every index element, tuple-major
  uint32_t expected_bad_ = kNoError;
  std::vector<size_t> reporters_;  // plan positions of the report steps that recorded a value
  bool ok_ = true;
};

// Planning may only fail for a slice larger than a window.
void expectSliceTooLarge(const Status& status, const RowGather& gather, const DeviceInfo& device) {
  EXPECT_EQ(status.code(), StatusCode::kUnsupported);
  EXPECT_EQ(status.message(), gather.op + ": " + gather.row_name + " is " + std::to_string(gather.row_bytes) +
                                  " bytes, more than this device can bind at once (maxStorageBufferRange " +
                                  std::to_string(device.max_storage_buffer_range) + ")");
  EXPECT_GT(gather.row_bytes, windowCapacity(device));
}

std::string deviceString(const DeviceInfo& device) {
  const auto s = [](auto value) { return std::to_string(value); };
  return "range " + s(device.max_storage_buffer_range) + ", alignment " +
         s(device.min_storage_buffer_offset_alignment) + ", workgroup " + s(device.workgroup_size) + " x " +
         s(device.items_per_invocation);
}

std::string badString(const BadIndices& bad) {
  std::string text;
  for (const auto& [position, value] : bad)
    text += ", bad [" + std::to_string(position) + "] = " + std::to_string(value);
  return text;
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
                  const Placement& output, const DeviceInfo& device, const BadIndices& bad, uint32_t seed) {
  if (!checkStructure(plan, gather, data, indices, output, device)) return false;
  Machine machine(gather, data, indices, output, bad, seed);
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
  StatusOr<OpPlan> plan = planGather(*shape, c.index_type, data, indices, output, c.device);
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
  StatusOr<OpPlan> plan = planRowGather(c.gather, data, indices, output, c.device);
  if (!plan.ok()) {
    expectSliceTooLarge(plan.status(), c.gather, c.device);
    return std::nullopt;
  }
  runRowGather(*plan, c.gather, data, indices, output, c.device, c.bad, seed);
  return std::move(*plan);
}

}  // namespace vkindex::plan::test
