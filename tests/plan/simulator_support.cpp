#include "simulator_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "plan_test_support.hpp"

namespace vkindex::plan::test {

bool BufferBinding::inside(uint64_t byte, uint64_t count) {
  if (byte + count <= window_.size && window_.offset + byte + count <= buffer_.size()) return true;
  if (ok_) {
    ADD_FAILURE() << name_ << " binding accessed at [" << byte << ", " << byte + count << "), outside its "
                  << window_.size << "-byte window";
  }
  ok_ = false;
  return false;
}

uint32_t BufferBinding::word(uint64_t index) {
  uint32_t value = 0;
  if (inside(4 * index, 4)) std::memcpy(&value, at(4 * index), 4);
  return value;
}

void BufferBinding::setWord(uint64_t index, uint32_t value) {
  if (inside(4 * index, 4)) std::memcpy(at(4 * index), &value, 4);
}

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

bool indexInRangeWide(IndexValue value, uint64_t s) {
  const int64_t v = static_cast<int64_t>(uint64_t(value.hi) << 32 | value.lo);
  const int64_t size = static_cast<int64_t>(s);  // a dim: at most INT64_MAX
  return size > 0 && v >= -size && v < size;
}

uint32_t normalizeIndex(IndexValue value, uint32_t s) {
  const uint32_t wrapped = value.hi != 0u ? value.lo + s : value.lo;
  return std::min(wrapped, std::max(s, 1u) - 1u);
}

std::vector<uint8_t> randomBuffer(const Placement& tensor, std::mt19937& rng) {
  std::vector<uint8_t> buffer((tensor.offset + tensor.bytes + 3) / 4 * 4 + 64);
  for (size_t i = 0; i < buffer.size(); i += 4) {
    const uint32_t bits = static_cast<uint32_t>(rng());
    std::memcpy(&buffer[i], &bits, std::min<size_t>(4, buffer.size() - i));
  }
  return buffer;
}

std::vector<int64_t> randomIndices(const IndexCheck& check, const BadIndices& bad, std::mt19937& rng) {
  const uint64_t k = check.extents.size(), elements = check.tuple_count * k;
  std::vector<int64_t> values(elements);
  // int32 indices hold [-2^31, 2^31 - 1] at most: a longer dim's valid values are drawn from that.
  const uint64_t representable = check.index_type == DataType::kInt32 ? uint64_t{1} << 31 : uint64_t{INT64_MAX};
  for (uint64_t e = 0; e < elements; ++e) {
    const int64_t extent = static_cast<int64_t>(std::min<uint64_t>(check.extents[e % k], representable));
    values[e] = extent == 0 ? 0 : std::uniform_int_distribution<int64_t>(-extent, extent - 1)(rng);
  }
  for (const auto& [position, value] : bad) {
    if (position < elements) values[position] = value;
  }
  return values;
}

std::string deviceString(const FakeDevice& device) {
  const auto s = [](auto value) { return std::to_string(value); };
  return "range " + s(device.max_storage_buffer_range) + ", alignment " +
         s(device.min_storage_buffer_offset_alignment) + ", workgroup " + s(device.workgroup_size) + " x " +
         s(device.items_per_invocation) + ", walks from " + s(device.min_walk_lines) + " lines" +
         (device.claim_by_store ? ", claims by store" : "");
}

std::string badString(const BadIndices& bad) {
  std::string text;
  for (const auto& [position, value] : bad)
    text += ", bad [" + std::to_string(position) + "] = " + std::to_string(value);
  return text;
}

// ---------------------------------------------------------------------------------------------

IndexSimulator::IndexSimulator(const IndexCheck& check, const Placement& indices, std::vector<uint8_t>& buffer,
                               std::vector<int64_t> values, bool& ok)
    : buffer_(buffer), values_(std::move(values)), ok_(ok) {
  const uint64_t k = check.extents.size();
  const uint32_t W = check.index_type == DataType::kInt64 ? 2 : 1;
  for (uint64_t e = 0; e < values_.size(); ++e) {
    // What the device reads: int32 indices hold the value's low 32 bits.
    if (W == 1) values_[e] = static_cast<int32_t>(values_[e]);
    const int32_t narrow = static_cast<int32_t>(values_[e]);
    std::memcpy(&buffer_[indices.offset + 4 * W * e], W == 2 ? static_cast<const void*>(&values_[e]) : &narrow, 4 * W);
  }
  for (uint64_t e = 0; e < values_.size() && expected_bad_ == kNoError; ++e) {
    const int64_t extent = static_cast<int64_t>(check.extents[e % k]);
    if (values_[e] < -extent || values_[e] >= extent) expected_bad_ = static_cast<uint32_t>(e);
  }
  status_.resize(4 * 4);
  const uint32_t status[4] = {kNoError, kUntouched, kUntouched, kUntouched};
  std::memcpy(status_.data(), status, sizeof(status));
}

uint32_t IndexSimulator::statusWord(uint32_t i) const {
  uint32_t value = 0;
  std::memcpy(&value, &status_[4 * i], 4);
  return value;
}

// The slot's words as the kernel binds them (the runner's slot 0 here).
BufferBinding IndexSimulator::statusBinding() {
  return BufferBinding(status_, Window{0, status_.size()}, "status", ok_);
}

void IndexSimulator::checkIndices(const Step& step) {
  const abi::CheckParams p = pushOf<abi::CheckParams>(step);
  const uint32_t W = step.spec[kSpecIndexWords];
  BufferBinding indices(buffer_, boundWindow(step, Role::kIndices), "check indices", ok_);
  BufferBinding status = statusBinding();
  if (step.kernel == Kernel::kCheckIndicesInt64 && (W != 2 || p.indices_word_offset % 2 != 0)) {
    ADD_FAILURE() << "check_indices_int64 needs int64 indices at an 8-byte offset (index words " << W
                  << ", word offset " << p.indices_word_offset << ")";
    ok_ = false;
  }
  for (uint32_t position = 0; position < p.index_count && ok_; ++position) {
    const uint32_t component = p.tuple_length == 1u ? 0u : position % p.tuple_length;
    const bool wide = step.kernel == Kernel::kCheckIndicesWide;
    const IndexValue value = loadIndex(indices, p.indices_word_offset, position, W);
    const uint64_t absolute = uint64_t(p.position_base) + position;
    if (absolute < values_.size() && !(value == split(values_[absolute]))) {
      ADD_FAILURE() << "check step reads index " << absolute << " wrongly";
      ok_ = false;
    }
    const bool in_range = wide ? indexInRangeWide(value, uint64_t(p.extents_hi[component]) << 32 | p.extents[component])
                               : indexInRange(value, p.extents[component]);
    if (!in_range) {
      const uint32_t word = p.status_slot * 4;  // atomicMin
      status.setWord(word, std::min(status.word(word), p.position_base + position));
    }
  }
}

void IndexSimulator::selfCheck(const Step& writer, const abi::CheckParams& check, size_t step_index) {
  Step checking;
  checking.kernel = Kernel::kCheckIndices;
  checking.spec[kSpecIndexWords] = writer.spec[kSpecIndexWords];
  checking.bindings = {{Role::kIndices, boundWindow(writer, Role::kIndices)}, {Role::kStatus, {}}};
  setPush(checking, check);
  checkIndices(checking);
  reportIndex(checking, step_index);
}

void IndexSimulator::reportIndex(const Step& step, size_t step_index) {
  const abi::CheckParams p = pushOf<abi::CheckParams>(step);
  const uint32_t W = step.spec[kSpecIndexWords];
  BufferBinding indices(buffer_, boundWindow(step, Role::kIndices), "report indices", ok_);
  BufferBinding status = statusBinding();
  const uint32_t base = p.status_slot * 4;
  const uint32_t position = status.word(base);
  if (position == kNoError || position < p.position_base || position - p.position_base >= p.index_count) return;
  const IndexValue value = loadIndex(indices, p.indices_word_offset, position - p.position_base, W);
  status.setWord(base + 1u, value.lo);
  status.setWord(base + 2u, value.hi);
  reporters_.push_back(step_index);
}

bool IndexSimulator::expectStatus(const OpPlan& plan) const {
  const uint32_t status = statusWord(0);
  EXPECT_EQ(status, expected_bad_);
  EXPECT_EQ(statusWord(3), kUntouched);
  if (status == kNoError && expected_bad_ == kNoError) {
    EXPECT_TRUE(reporters_.empty()) << "a report step ran without a bad index";
    EXPECT_EQ(statusWord(1), kUntouched);
    EXPECT_EQ(statusWord(2), kUntouched);
    return false;
  }
  // (A bad index the checks missed was reported above: the output cannot be compared then.) Exactly
  // the report step whose window holds the position recorded its value.
  EXPECT_EQ(reporters_.size(), 1u);
  for (size_t reporter : reporters_) {
    if (plan.steps[reporter].kernel != Kernel::kReportIndex) continue;  // self-checking: every position
    const CheckStep report{plan.steps[reporter], pushOf<abi::CheckParams>(plan.steps[reporter])};
    EXPECT_GE(status, report.params.position_base) << str(report);
    EXPECT_LT(status - report.params.position_base, report.params.index_count) << str(report);
  }
  if (status < values_.size()) {
    const IndexValue recorded{statusWord(1), statusWord(2)};
    EXPECT_TRUE(recorded == split(values_[status])) << "recorded " << recorded.lo << ", " << recorded.hi;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------

void OutputRecord::expectUntouched() const {
  EXPECT_EQ(std::count(writes_.begin(), writes_.end(), 0u), static_cast<std::ptrdiff_t>(writes_.size()))
      << "a writing step wrote although a bad index was found";
  EXPECT_TRUE(buffer_ == before_) << "the output buffer changed although a bad index was found";
}

void OutputRecord::expectWrittenOnce(const std::vector<uint8_t>& expected, const Placement& output) const {
  for (uint64_t byte = 0; byte < buffer_.size(); ++byte) {
    const uint32_t want = byte >= output.offset && byte < output.offset + output.bytes ? 1 : 0;
    if (writes_[byte] != want || buffer_[byte] != expected[byte]) {
      ADD_FAILURE() << "output buffer byte " << byte << " (tensor at " << output.offset << ", " << output.bytes
                    << " bytes) written " << writes_[byte] << " times, expected " << want << "; value "
                    << int(buffer_[byte]) << ", expected " << int(expected[byte]);
      break;
    }
  }
}

}  // namespace vkindex::plan::test
