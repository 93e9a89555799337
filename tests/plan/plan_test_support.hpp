// Shared by the planner unit tests (src/plan), no GPU needed: fake devices, planning a Gather with its
// tensors at given byte offsets, reading an OpPlan back (the steps of one kernel with their push
// blocks decoded, the copy passes' shape from their specialization values), printing steps and push
// blocks for exact comparison, and checking error statuses.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/check_params.h"
#include "common/gather_elements_params.h"
#include "common/gather_rows_params.h"
#include "fake_device.hpp"
#include "plan/gather_plan.hpp"
#include "plan/op_plan.hpp"
#include "plan/row_gather_plan.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan::test {

// A device with the given binding limits (maxStorageBufferRange, minStorageBufferOffsetAlignment) and
// copy-pass workgroup shape.
FakeDevice fakeDevice(uint64_t range, uint64_t alignment, uint32_t workgroup = 64, uint32_t items = 4);

inline Placement placed(uint64_t offset, uint64_t bytes) { return Placement{offset, bytes}; }
inline uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Infers the shape and plans it with each tensor at the given byte offset of its buffer.
StatusOr<OpPlan> planFor(const Shape& data_shape, DataType data_type, const Shape& indices_shape, DataType index_type,
                         int64_t axis, const FakeDevice& device, uint64_t data_offset = 0, uint64_t indices_offset = 0,
                         uint64_t output_offset = 0);

// A GatherND-like row gather: `outer` batches of `count` output rows of `row_bytes`, each addressed by
// a tuple of extents.size() components; batched (index_outer_stride = count) or shared (0).
RowGather rowGather(uint64_t outer, uint64_t count, uint64_t row_bytes, const std::vector<uint64_t>& extents,
                    DataType index_type, bool batched);

// Gather as the row gather planGather must reduce it to: one-component tuples addressing the axis,
// shared by every outer slice.
RowGather rowGatherOf(const GatherShape& shape, DataType index_type);

// Tensor sizes of a row gather: data (outer, A, row), indices (tuples x k), output (outer, N, row).
uint64_t dataBytes(const RowGather& gather);
uint64_t indicesBytes(const RowGather& gather);
uint64_t outputBytes(const RowGather& gather);
uint64_t axisRows(const RowGather& gather);  // A: the product of the tuple extents

// One point of a simulation sweep: a tiny fake device, an index type and the three tensors' offsets.
struct SweepPoint {
  uint64_t range = 0, alignment = 0;
  DataType index_type = DataType::kInt32;
  uint64_t data_offset = 0, indices_offset = 0, output_offset = 0;
  FakeDevice device() const { return fakeDevice(range, alignment); }
};

// Calls `visit` on every combination of range, alignment, index type (int32, int64) and data, indices
// and output offset, nested in that order, until it returns false.
void forEachSweepPoint(const std::vector<uint64_t>& ranges, const std::vector<uint64_t>& alignments,
                       const std::vector<uint64_t>& offsets, const std::function<bool(const SweepPoint&)>& visit);

// ---------------------------------------------------------------------------------------------
// Reading plans back

// The push block each kernel reads (sizeof is what a step's push_bytes must be).
uint32_t pushBytesOf(Kernel kernel);
const char* kernelName(Kernel kernel);

// The window `step` binds for `role` (a test failure and {} when it binds no such role).
Window boundWindow(const Step& step, Role role);

// One step with its push block decoded. Holds a copy of the step, so it outlives the plan.
template <typename Params>
struct Decoded {
  Step step;
  Params params{};
  Window window(Role role) const { return boundWindow(step, role); }
};
using CheckStep = Decoded<abi::CheckParams>;              // kCheckIndices and kReportIndex
using RowsStep = Decoded<abi::GatherRowsParams>;          // kGatherRows
using ElementsStep = Decoded<abi::GatherElementsParams>;  // kGatherElements

std::vector<CheckStep> checkSteps(const OpPlan& plan);       // both check kernels, in plan order
std::vector<CheckStep> reportSteps(const OpPlan& plan);      // kReportIndex
std::vector<RowsStep> rowSteps(const OpPlan& plan);          // kGatherRows: the copy passes
std::vector<ElementsStep> elementSteps(const OpPlan& plan);  // kGatherElements: the element passes

// How many windows, told apart by where they start, the plan's `kernel` steps bind for `role`.
size_t distinctWindows(const OpPlan& plan, Kernel kernel, Role role);
size_t distinctWindows(const OpPlan& plan, const std::function<bool(Kernel)>& kernels, Role role);

// The copy passes' specialization values, named.
struct CopyShape {
  uint32_t workgroup_size = 0;
  uint32_t index_words = 0;
  uint32_t unit_bytes = 0;
  uint32_t items = 0;
  uint32_t lanes = 0;  // copy units: invocations per row segment; sub-word: 1
};
CopyShape copyShapeOf(const Step& step);
// The shape all of the plan's kGatherRows steps share but for the workgroup size (a test failure when
// they differ or there are none), whose largest it takes: a pass of one group may have fitted its
// workgroup to its work (expectedWorkgroup).
CopyShape copyShape(const OpPlan& plan);

// The workgroup size of a step of `groups` groups whose work is `invocations` invocations in
// segments of `lanes` on `device`: a single group's fitted to its work (plan::fitOneGroup), else the
// device's.
uint32_t expectedWorkgroup(const FakeDevice& device, uint64_t groups, uint64_t invocations, uint32_t lanes);

// ---------------------------------------------------------------------------------------------
// Printing

std::string str(const Window& w);
// "status", "output {0, 32}", ...: a list of bindings (a step's wait_for), comma-separated; "none" if empty.
std::string str(const std::vector<Binding>& bindings);
// The kernels of the plan in order, e.g. "check report rows rows".
std::string kernels(const OpPlan& plan);
// Every GatherRowsParams field, in header order, with the fast-division constants in parentheses.
std::string str(const abi::GatherRowsParams& p);
// Every GatherElementsParams field in header order, the dims as "(extent: stride, ...)" with the
// axis dim starred.
std::string str(const abi::GatherElementsParams& p);
// Every CheckParams field in header order, then the indices window and the workgroup count.
std::string str(const CheckStep& c);
// A step's generic parts: kernel, specialization values, bindings, push bytes, groups and waits.
std::string str(const Step& step);

// The GoogleTest failures `check` reports, intercepted (they do not fail the calling test), joined
// into one text, one message a line: for tests of the checkers and simulators themselves.
std::string failuresOf(const std::function<void()>& check);

// Expects exactly this code and message.
void expectError(const Status& status, StatusCode code, const std::string& message);

}  // namespace vkindex::plan::test
