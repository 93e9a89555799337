// A structural checker for any row-gather plan (Gather, and GatherND's batched k-component tuples), of
// any size: every step's generic parts (kernel, push block size, bindings, specialization, barriers);
// every window aligned, whole words, within maxStorageBufferRange and within its tensor; push
// constants locating exactly the rows and index tuples each step claims; check steps covering every
// index position once with whole tuples, and report steps mirroring them; output rows partitioned
// among copy passes, each row's possible source rows bound exactly once; exact fast-division
// constants. Failures are reported through GoogleTest expectations. The window, generic-step and
// index-check parts serve every operator's checker (gather_elements_simulator.hpp too).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fake_device.hpp"
#include "plan/gather_plan.hpp"
#include "plan/op_plan.hpp"
#include "plan/row_gather_plan.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan::test {

// fast_division.glsl, word for word, with the plan's constants.
uint32_t fastDivide(uint32_t n, uint32_t d, uint32_t multiplier, uint32_t shift);

// A window starts at a multiple of max(16, minStorageBufferOffsetAlignment), is whole words, fits
// maxStorageBufferRange, and lies within its tensor's bytes: from the tensor's offset rounded down
// to the binding alignment to its end rounded up to a word. `what` names it in the failure message.
bool validWindow(const Window& w, const Placement& tensor, const FakeDevice& device, const char* what);

// The tensors a scatter plan's roles name; Role::kScratch is the plan's scratch_bytes at offset 0.
struct ScatterTensors {
  Placement data, indices, updates, output;
};

// Every binding and wait of every step of a scatter plan, read by its kernel or not, is a valid window
// (validWindow) of the tensor its role names; status bindings carry no window.
bool checkScatterWindows(const OpPlan& plan, const ScatterTensors& tensors, const FakeDevice& device);

// The generic parts of every step of a plan whose writing kernels are among `writers`: only
// check_indices, report_index and those, in that order; the push block of that kernel's size with its status
// slot word left 0 and nothing after it; the status slot named without a window; at least one
// workgroup; no scratch memory.
void checkStepBasics(const OpPlan& plan, const std::vector<Kernel>& writers);

// What the writing passes of a plan read: for each range [q0, q1) of output items (rows, elements)
// a pass writes, the range of data items each pass writing it binds.
using PassReads = std::map<std::pair<uint64_t, uint64_t>, std::vector<std::pair<uint64_t, uint64_t>>>;
// The data items output items [q0, q1) can read, whatever their index values: [lowest, highest + 1).
using Reach = std::function<std::pair<uint64_t, uint64_t>(uint64_t q0, uint64_t q1)>;

// The output ranges tile [0, total), and each one's data ranges tile a run covering its reach: so
// whatever the index values, every output item is copied by exactly one pass. `items` ("rows",
// "elements") names them in failure messages.
void expectTiledReads(PassReads reads, uint64_t total, const Reach& reach, const std::string& items);

// The check and report steps of `plan` for indices `check` placed at `indices`: one check step per
// window of whole tuples, together covering every index position once, then one report step per check
// step with the same window and push block, the first waiting for the status slot.
bool checkIndexSteps(const OpPlan& plan, const IndexCheck& check, const Placement& indices, const FakeDevice& device);

// Checks everything about a row-gather plan that does not depend on the tensors' contents. Returns
// whether the plan is sound enough to run.
bool checkStructure(const OpPlan& plan, const RowGather& gather, const Placement& data, const Placement& indices,
                    const Placement& output, const FakeDevice& device);

// The plan of `op` describes its bad indices as one index per element of indices (of shape
// `indices_shape`) into data dim `axis` of size `axis_size` (Gather, GatherElements).
void expectAxisReport(const OpPlan& plan, const std::string& op, const Shape& indices_shape, uint64_t axis_size,
                      int64_t axis);

// Gather's plan describes its bad indices as one index per element into data dim `axis`.
void expectGatherReport(const OpPlan& plan, const GatherShape& shape);

// Plans a Gather problem and checks the plan's structure (for problems too large to simulate).
StatusOr<OpPlan> checkedPlan(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                             DataType index_type, int64_t axis, const FakeDevice& device, uint64_t data_offset,
                             uint64_t indices_offset, uint64_t output_offset);

// Plans a row gather with its tensors at the given offsets and checks the plan's structure.
StatusOr<OpPlan> checkedRowPlan(const RowGather& gather, const FakeDevice& device, uint64_t data_offset,
                                uint64_t indices_offset, uint64_t output_offset);

}  // namespace vkindex::plan::test
