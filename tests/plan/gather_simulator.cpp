#include "gather_simulator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "plan_checks.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

constexpr uint32_t kNoError = 0xFFFFFFFFu;   // VKINDEX_NO_ERROR
constexpr uint32_t kNotBound = 0xFFFFFFFFu;  // gather.comp's kNotBound

// A storage-buffer binding as a kernel sees it: byte i of the binding is byte window.offset + i of the
// buffer, and an access past window.size fails the test (once) instead of touching memory.
class Binding {
 public:
  Binding(std::vector<uint8_t>& buffer, const Window& window, const char* name, bool& ok)
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
IndexValue loadIndex(Binding& indices, uint32_t word_offset, uint32_t position, uint32_t index_words) {
  const uint32_t word = word_offset + position * index_words;
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
  return std::min(wrapped, s - 1u);
}

}  // namespace

std::string describe(const SimCase& c) {
  const auto s = [](auto value) { return std::to_string(value); };
  std::string text = "data " + shapeString(c.data_shape) + " " + dataTypeName(c.data_type) + " at " + s(c.data_offset) +
                     ", indices " + shapeString(c.indices_shape) + " " + dataTypeName(c.index_type) + " at " +
                     s(c.indices_offset) + ", output at " + s(c.output_offset) + ", axis " + s(c.axis) + ", range " +
                     s(c.device.max_storage_buffer_range) + ", alignment " +
                     s(c.device.min_storage_buffer_offset_alignment) + ", workgroup " + s(c.device.workgroup_size) +
                     " x " + s(c.device.items_per_invocation);
  for (const auto& [position, value] : c.bad) text += ", bad [" + s(position) + "] = " + s(value);
  return text;
}

std::optional<GatherPlan> simulate(const SimCase& c, uint32_t seed) {
  SCOPED_TRACE(describe(c));
  std::mt19937 rng(seed);
  StatusOr<GatherShape> shape = inferGatherShape(c.data_shape, c.data_type, c.indices_shape, c.index_type, c.axis);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  if (!shape.ok()) return std::nullopt;
  const uint64_t O = shape->outer, A = shape->axis_size, N = shape->index_count, R = shape->row_bytes;
  const uint32_t W = c.index_type == DataType::kInt64 ? 2 : 1;
  const uint64_t out_bytes = *elementCount(shape->output_shape) * elementSize(c.data_type);
  EXPECT_EQ(out_bytes, O * N * R);
  const Placement data = placed(c.data_offset, *elementCount(c.data_shape) * elementSize(c.data_type));
  const Placement indices = placed(c.indices_offset, N * 4 * W), output = placed(c.output_offset, out_bytes);
  StatusOr<GatherPlan> planned = planGather(*shape, c.index_type, data, indices, output, c.device);
  if (!planned.ok()) {
    EXPECT_EQ(planned.status().code(), StatusCode::kUnsupported);
    EXPECT_NE(planned.status().message().find("one slice after the axis is " + std::to_string(R) + " bytes"),
              std::string::npos)
        << planned.status().message();
    EXPECT_GT(R, windowCapacity(c.device));
    return std::nullopt;
  }
  const GatherPlan& plan = *planned;
  if (!checkStructure(plan, *shape, c.index_type, data, indices, output, c.device)) return plan;
  const uint32_t U = plan.unit_bytes;
  bool ok = true;

  // Random bytes in and around every tensor; valid random indices, then the planted bad ones.
  const auto randomBuffer = [&](const Placement& t) {
    std::vector<uint8_t> buffer((t.offset + t.bytes + 3) / 4 * 4 + 64);
    for (size_t i = 0; i < buffer.size(); i += 4) {
      const uint32_t bits = static_cast<uint32_t>(rng());
      std::memcpy(&buffer[i], &bits, std::min<size_t>(4, buffer.size() - i));
    }
    return buffer;
  };
  std::vector<uint8_t> data_buf = randomBuffer(data), idx_buf = randomBuffer(indices), out_buf = randomBuffer(output);
  const std::vector<uint8_t> out_before = out_buf;
  std::vector<int64_t> idx(N);
  for (int64_t& v : idx) v = A == 0 ? 0 : std::uniform_int_distribution<int64_t>(-int64_t(A), int64_t(A) - 1)(rng);
  for (const auto& [position, value] : c.bad) {
    if (position < N) idx[position] = value;
  }
  for (uint64_t i = 0; i < N; ++i) {
    const int32_t narrow = static_cast<int32_t>(idx[i]);
    std::memcpy(&idx_buf[indices.offset + 4 * W * i], W == 2 ? static_cast<const void*>(&idx[i]) : &narrow, 4 * W);
  }
  uint64_t expected_bad = kNoError;
  for (uint64_t i = 0; i < N && expected_bad == kNoError; ++i) {
    if (idx[i] < -int64_t(A) || idx[i] >= int64_t(A)) expected_bad = i;
  }

  // check_indices.comp: every position of its window, smallest bad position wins.
  uint32_t status = kNoError;
  for (const CheckPass& check : plan.checks) {
    Binding window(idx_buf, check.indices, "check indices", ok);
    for (uint32_t i = 0; i < check.params.index_count && ok; ++i) {
      const IndexValue value = loadIndex(window, check.params.indices_word_offset, i, W);
      const uint64_t position = uint64_t(check.params.position_base) + i;
      if (position < N && !(value == split(idx[position]))) {
        ADD_FAILURE() << "check pass reads index " << position << " wrongly";
        ok = false;
      }
      if (!indexInRange(value, check.params.axis_size)) status = std::min(status, check.params.position_base + i);
    }
  }
  EXPECT_EQ(status, expected_bad);
  if (!ok) return plan;

  if (status != kNoError) {
    // Copy passes write nothing; the bad value is recorded by the copy passes (report_bad_index, with
    // their window beginning at index 0) or by report-only check dispatches.
    IndexValue recorded{0xDEADBEEFu, 0xDEADBEEFu};
    int reports = 0;
    const auto report = [&](const Window& window, uint32_t word_offset, uint32_t begin, uint32_t count) {
      if (status < begin || status - begin >= count) return;
      Binding binding(idx_buf, window, "reporting indices", ok);
      recorded = loadIndex(binding, word_offset, status - begin, W);
      ++reports;
    };
    if (plan.copy_passes_report) {
      for (const GatherPass& pass : plan.passes) {
        report(pass.indices, pass.params.indices_word_offset, 0, pass.params.index_count);
      }
    } else {
      for (const CheckPass& check : plan.checks) {
        report(check.indices, check.params.indices_word_offset, check.params.position_base, check.params.index_count);
      }
    }
    EXPECT_GE(reports, 1);
    if (status < N) {
      EXPECT_TRUE(recorded == split(idx[status])) << "recorded " << recorded.lo << ", " << recorded.hi;
    }
    return plan;
  }

  // gather.comp, pass after pass, counting the writes to every output byte.
  std::vector<uint32_t> writes(out_buf.size());
  for (const GatherPass& pass : plan.passes) {
    const abi::GatherParams& p = pass.params;
    Binding in(data_buf, pass.data, "data", ok), ix(idx_buf, pass.indices, "indices", ok);
    Binding out(out_buf, pass.output, "output", ok);
    const auto byRowUnits = [&](uint32_t n) {
      return fastDivide(n, p.row_units, p.row_units_multiplier, p.row_units_shift);
    };
    const auto boundDataRow = [&](uint32_t pass_row) {
      const uint32_t index_row = p.first_index + pass_row;
      const uint32_t outer_step = fastDivide(index_row, p.index_count, p.index_count_multiplier, p.index_count_shift);
      const uint32_t n = index_row - outer_step * p.index_count;
      const uint32_t row =
          (p.first_outer + outer_step) * p.axis_size +
          normalizeIndex(loadIndex(ix, p.indices_word_offset, n - p.index_window_begin, W), p.axis_size);
      return row < p.data_row_begin || row >= p.data_row_end ? kNotBound : row - p.data_row_begin;
    };
    const auto wrote = [&](uint64_t byte) { ++writes[out.absolute(byte)]; };
    const uint32_t pass_units = p.pass_rows * p.row_units;
    if (plan.row_tiled) {  // copyTiledBlock: one source row per block of workgroup x items units
      const uint32_t block = plan.workgroup_size * plan.items_per_invocation;
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
      if (!ok) return plan;
      continue;
    }
    if (U >= 4) {                                                  // copyUnit
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
      if (!ok) return plan;
      continue;
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
      out.setWord(word, (out.word(word) & ~owned) | value);  // a plain store when it owns the whole word
      for (uint32_t b = 0; b < 4; ++b) {
        if (((owned >> (8 * b)) & 0xFFu) != 0) wrote(uint64_t(word) * 4 + b);
      }
    }
    if (!ok) return plan;
  }

  std::vector<uint8_t> expected = out_before;
  for (uint64_t o = 0; o < O; ++o) {
    for (uint64_t n = 0; n < N; ++n) {
      const uint64_t a = static_cast<uint64_t>(idx[n] < 0 ? idx[n] + int64_t(A) : idx[n]);
      std::memcpy(&expected[output.offset + (o * N + n) * R], &data_buf[data.offset + (o * A + a) * R], R);
    }
  }
  for (uint64_t byte = 0; byte < out_buf.size(); ++byte) {
    const uint32_t want = byte >= output.offset && byte < output.offset + out_bytes ? 1 : 0;
    if (writes[byte] != want || out_buf[byte] != expected[byte]) {
      ADD_FAILURE() << "output buffer byte " << byte << " (tensor at " << output.offset << ", " << out_bytes
                    << " bytes) written " << writes[byte] << " times, expected " << want << "; value "
                    << int(out_buf[byte]) << ", expected " << int(expected[byte]);
      break;
    }
  }
  return plan;
}

}  // namespace vkindex::plan::test
