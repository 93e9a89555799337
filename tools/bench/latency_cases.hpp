// The small operations the latency section times (latency.cpp), each with kBatchOps instances on
// disjoint views of shared storage, so that a batch of them needs no barriers between its operations.
// Instance 0 alone is the single-operation case.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "copy_baselines.hpp"
#include "kernels/recorder.hpp"
#include "vkindex/ops.hpp"

namespace vkindex::bench {

// Operations per command buffer in the batched measurement: an engine's decode step records about one
// such operation per layer, and 100 is near the layer count of the largest common models (and far below
// the 1024 status slots a Context has for pending recorded operations).
constexpr int kBatchOps = 100;

class LatencyCase {
 public:
  virtual ~LatencyCase() = default;
  // Records operation `i` (0 <= i < kBatchOps) into `cmd`.
  virtual StatusOr<RecordedOp> record(Context& context, VkCommandBuffer cmd, int i) = 0;
  // Operation 0 through the synchronous API (its submit-and-wait form into an existing output).
  virtual Status call(Context& context) = 0;
  // Compares every operation's output with the CPU's. Every operation is idempotent, so any number of
  // runs leaves the same bytes.
  virtual Status check() const = 0;

  // Sets the four fields below.
  void describe(std::string row_name, std::string operator_name, std::string row_shapes, uint64_t bytes) {
    name = std::move(row_name);
    op = std::move(operator_name);
    shapes = std::move(row_shapes);
    written_bytes = bytes;
  }

  std::string name;
  std::string op;
  std::string shapes;
  uint64_t written_bytes = 0;  // bytes one operation writes: what the bare-dispatch baseline moves
};

// The rows, in table order. `quick` makes the tables smaller (a row's cost does not depend on them).
// A row that cannot be created (e.g. out of memory) is named in `failures` with its status.
std::vector<std::unique_ptr<LatencyCase>> createLatencyCases(Context& context, bool quick,
                                                             std::vector<std::pair<std::string, Status>>& failures);

// The baseline: one dispatch of vkindex's compute copy kernel (no status slot, no index check, no
// barrier) moving `bytes` bytes, instance i from its own source slot to its own target slot; and the
// same followed by the barrier a checked operation recorded alone ends with (compute writes made
// visible to the host), which some drivers make cost more than the dispatch.
class BareCopies {
 public:
  static StatusOr<std::unique_ptr<BareCopies>> create(Context& context, uint64_t bytes);
  // Records copy `i` (0 <= i < kBatchOps), then with `host_barrier` a barrier from its compute write to
  // host reads of its target slot; the descriptor sets it uses stay in `this` until clear().
  Status record(Context& context, VkCommandBuffer cmd, int i, bool host_barrier = false);
  // Frees the descriptor sets of the copies recorded so far (their commands have completed).
  void clear();
  // Every target slot holds its source slot's bytes.
  Status check() const;

 private:
  uint64_t bytes_ = 0, slot_bytes_ = 0;
  // The row gathers' segments for the device, in a group sized to the work as the operations'
  // single-group dispatches are (plan::fitOneGroup).
  CopyLayout layout_;
  Tensor sources_, targets_;
  std::vector<kernels::DescriptorPool> pools_;
};

}  // namespace vkindex::bench
