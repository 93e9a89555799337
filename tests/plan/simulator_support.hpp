// Shared by the byte-level plan simulators (gather_simulator, gather_elements_simulator): storage
// bindings that fail the test on any access outside their window, indices.glsl word for word, random
// tensors with planted bad indices, check_indices.comp and report_index.comp run against one status
// slot (with the expectations on what they found and reported), and a record of every write to an
// output buffer (each byte of the tensor exactly once, nothing else). Failures are reported through
// GoogleTest expectations.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/check_params.h"
#include "fake_device.hpp"
#include "plan/index_checks.hpp"
#include "plan/op_plan.hpp"

namespace vkindex::plan::test {

// (flat index element position, value) pairs planted among random valid indices.
using BadIndices = std::vector<std::pair<uint64_t, int64_t>>;

constexpr uint32_t kNoError = 0xFFFFFFFFu;    // VKINDEX_NO_ERROR
constexpr uint32_t kUntouched = 0xDEADBEEFu;  // status words 1-3 before any step runs
constexpr uint32_t kNotBound = 0xFFFFFFFFu;   // the gather kernels' kNotBound: a source outside the bound window

// A storage-buffer binding as a kernel sees it: byte i of the binding is byte window.offset + i of the
// buffer, and an access past window.size fails the test (once, through `ok`) instead of touching memory.
class BufferBinding {
 public:
  BufferBinding(std::vector<uint8_t>& buffer, const Window& window, const char* name, bool& ok)
      : buffer_(buffer), window_(window), name_(name), ok_(ok) {}
  bool inside(uint64_t byte, uint64_t count);
  uint8_t* at(uint64_t byte) { return buffer_.data() + window_.offset + byte; }
  uint64_t absolute(uint64_t byte) const { return window_.offset + byte; }
  uint32_t word(uint64_t index);
  void setWord(uint64_t index, uint32_t value);

 private:
  std::vector<uint8_t>& buffer_;
  Window window_;
  const char* name_;
  bool& ok_;
};

// indices.glsl, word for word: an index as (lo, hi) words.
struct IndexValue {
  uint32_t lo = 0, hi = 0;
  bool operator==(const IndexValue& other) const { return lo == other.lo && hi == other.hi; }
};
IndexValue split(int64_t value);
IndexValue loadIndex(BufferBinding& indices, uint32_t first_word, uint32_t position, uint32_t index_words);
bool indexInRange(IndexValue value, uint32_t s);
// The same for a 64-bit extent (check_indices_wide), in int64 arithmetic.
bool indexInRangeWide(IndexValue value, uint64_t s);
uint32_t normalizeIndex(IndexValue value, uint32_t s);

// Random bytes in and around a tensor: the buffer holds the tensor at its offset, rounded up to a
// word, and 64 bytes more.
std::vector<uint8_t> randomBuffer(const Placement& tensor, std::mt19937& rng);

// Every index element of `check` (tuple-major): random valid components, each within its extent (0
// for an extent of 0), then the planted bad ones.
std::vector<int64_t> randomIndices(const IndexCheck& check, const BadIndices& bad, std::mt19937& rng);

// For describing cases: "range 1024, alignment 16, workgroup 64 x 4"; ", bad [3] = -7" per bad index.
std::string deviceString(const FakeDevice& device);
std::string badString(const BadIndices& bad);

// The indices and the status slot of one simulated operation, and the two kernels every indexing
// plan starts with.
class IndexSimulator {
 public:
  // Stores `values` (one per index element) into `buffer` (which outlives this) at `indices`.
  IndexSimulator(const IndexCheck& check, const Placement& indices, std::vector<uint8_t>& buffer,
                 std::vector<int64_t> values, bool& ok);

  const std::vector<int64_t>& values() const { return values_; }
  std::vector<uint8_t>& buffer() { return buffer_; }
  uint32_t statusWord(uint32_t i) const;
  // status_gate.glsl: whether a writing kernel with push word status_slot = `slot` skips everything.
  bool badIndexFound(uint32_t slot) const { return statusWord(slot * 4) != kNoError; }

  // check_indices.comp: every position of its window, per-component extents, smallest bad position
  // wins; also expects each index read to be the one stored at that position.
  void checkIndices(const Step& step);
  // report_index.comp: one invocation; copies the bad index's value when this window holds it.
  void reportIndex(const Step& step, size_t step_index);
  // common/self_check.glsl in the writing step `writer` (step `step_index`): the check and the report of
  // `check`'s positions over the indices `writer` binds (every invocation does it; the result is the
  // same as once).
  void selfCheck(const Step& writer, const abi::CheckParams& check, size_t step_index);

  // After the plan ran: the slot holds the first bad position (or none), exactly the report step
  // whose window holds it recorded its value, and nothing else touched the slot. Returns whether a
  // bad index was planted or found (the writing steps must then have written nothing; with a bad
  // index there is no reference output to compare with).
  bool expectStatus(const OpPlan& plan) const;

 private:
  BufferBinding statusBinding();

  std::vector<uint8_t>& buffer_;
  std::vector<int64_t> values_;
  std::vector<uint8_t> status_;
  uint32_t expected_bad_ = kNoError;
  std::vector<size_t> reporters_;  // plan positions of the report steps that recorded a value
  bool& ok_;
};

// An output buffer and how often each of its bytes was written.
class OutputRecord {
 public:
  explicit OutputRecord(std::vector<uint8_t> buffer)
      : buffer_(std::move(buffer)), before_(buffer_), writes_(buffer_.size(), 0) {}
  std::vector<uint8_t>& buffer() { return buffer_; }
  const std::vector<uint8_t>& before() const { return before_; }
  void wrote(uint64_t absolute_byte) { ++writes_[absolute_byte]; }
  // Nothing was written: no byte counted, the buffer unchanged.
  void expectUntouched() const;
  // Every byte of the tensor at `output` written exactly once and equal to `expected` (a whole
  // buffer), no other byte written.
  void expectWrittenOnce(const std::vector<uint8_t>& expected, const Placement& output) const;

 private:
  std::vector<uint8_t> buffer_, before_;
  std::vector<uint32_t> writes_;
};

}  // namespace vkindex::plan::test
