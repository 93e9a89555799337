#include "plan_oracles.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>

#include "gather_elements_simulator.hpp"
#include "gather_simulator.hpp"
#include "plan/gather_elements_plan.hpp"
#include "plan/gather_nd_plan.hpp"
#include "plan/gather_plan.hpp"
#include "plan/index_checks.hpp"
#include "plan/scatter_plan.hpp"
#include "plan/segments.hpp"
#include "plan_checks.hpp"
#include "plan_test_support.hpp"
#include "scatter_simulator.hpp"

namespace vkindex::fuzz {
namespace {

using plan::OpPlan;
using plan::Placement;
using plan::Role;
using plan::Step;
using plan::test::failuresOf;

// Simulation budget per input, so the fuzzer keeps thousands of runs a second: every tensor at most
// 16 KiB and ending within 64 KiB of its buffer (the simulators allocate the buffer up to its end), at
// most 2^16 invocations over all steps.
constexpr uint64_t kMaxSimulatedBytes = 16 * 1024;
constexpr uint64_t kMaxSimulatedEnd = 64 * 1024;
// The structural checkers cost far more per step than planning: a plan of more steps (megabytes of
// indices through binding windows of a few hundred bytes) is only required to exist. Its parts are
// the same as in smaller plans with the same windows, which the fuzzer reaches too.
constexpr size_t kMaxCheckedSteps = 1024;
constexpr uint64_t kMaxSimulatedInvocations = uint64_t(1) << 16;
// Scatter passes walk many updates per invocation: at most this many visited over all passes.
constexpr uint64_t kMaxSimulatedUpdates = uint64_t(1) << 16;

// Planners bind big tensors a window at a time, and the element and row passes pair every output
// window with every data window: steps grow with (bytes / window capacity)^2, hundreds of megabytes
// of plan for a megabyte tensor under a 256-byte ContextOverrides::max_binding_bytes. That is a step
// budget question, not a correctness one, so such problems are skipped: at most 64 windows a tensor.
constexpr uint64_t kMaxWindowsPerTensor = 64;

bool tooManyWindows(std::initializer_list<Placement> tensors, const FakeDevice& device) {
  const uint64_t capacity = plan::windowCapacity(device);
  if (capacity == 0) return false;  // the planners refuse such devices up front
  for (const Placement& tensor : tensors) {
    if (tensor.bytes / capacity > kMaxWindowsPerTensor) return true;
  }
  return false;
}

// Where a gather's data, indices and output lie: the three placements every gather has (the
// GatherElements simulator's struct).
using GatherPlacements = plan::test::ElementsPlacements;

// The placements of `p`'s tensors, the output shaped `output_shape`, or nullopt where one has no
// placement or more windows than the checks take (tooManyWindows): such a problem is skipped.
std::optional<GatherPlacements> gatherPlacements(const PlanProblem& p, const plan::Shape& output_shape) {
  const auto data = placementOf(p.data_shape, p.data_type, p.data_offset);
  const auto indices = placementOf(p.indices_shape, p.index_type, p.indices_offset);
  const auto output = placementOf(output_shape, p.data_type, p.output_offset);
  if (!data || !indices || !output || tooManyWindows({*data, *indices, *output}, p.device)) return std::nullopt;
  return GatherPlacements{*data, *indices, *output};
}

// A planner may refuse a problem only as the caller's mistake or as something it cannot run.
void expectRefusal(const Status& status) {
  EXPECT_TRUE(status.code() == StatusCode::kInvalidArgument || status.code() == StatusCode::kUnsupported)
      << "refused with " << status.toString();
  EXPECT_FALSE(status.message().empty());
}

bool cheapToSimulate(const OpPlan& plan, std::initializer_list<Placement> tensors, const FakeDevice& device) {
  for (const Placement& tensor : tensors) {
    if (tensor.bytes > kMaxSimulatedBytes || tensor.offset + tensor.bytes > kMaxSimulatedEnd) return false;
  }
  uint64_t invocations = 0;
  for (const Step& step : plan.steps) {
    invocations += step.groups * device.workgroup_size;
    if (invocations > kMaxSimulatedInvocations) return false;
  }
  return true;
}

// The planted bad indices, moved to positions that exist among `elements` index elements.
plan::test::BadIndices plantable(const PlanProblem& p, uint64_t elements) {
  plan::test::BadIndices bad;
  if (elements == 0) return bad;
  for (const auto& [position, value] : p.bad) bad.emplace_back(position % elements, value);
  return bad;
}

// Runs `structure`, then (when it held) `simulation`, collecting the failures of both.
std::string checkThenSimulate(const std::function<void()>& structure, const std::function<void()>& simulation) {
  std::string failures = failuresOf(structure);
  if (failures.empty() && simulation) failures = failuresOf(simulation);
  return failures;
}

std::string checkRowGather(const PlanProblem& p, const StatusOr<OpPlan>& planned, const plan::RowGather& gather,
                           const GatherPlacements& at, const std::function<void()>& report) {
  const Placement &data = at.data, &indices = at.indices, &output = at.output;
  if (!planned.ok()) return failuresOf([&] { expectRefusal(planned.status()); });
  const OpPlan& op_plan = *planned;
  if (op_plan.steps.size() > kMaxCheckedSteps) return "";
  std::function<void()> simulation;
  if (cheapToSimulate(op_plan, {data, indices, output}, p.device)) {
    const uint64_t elements = gather.check.tuple_count * gather.check.extents.size();
    simulation = [&, elements] {
      plan::test::runRowGather(op_plan, gather, data, indices, output, p.device, plantable(p, elements), p.seed);
    };
  }
  return checkThenSimulate(
      [&] {
        plan::test::checkStructure(op_plan, gather, data, indices, output, p.device);
        report();
      },
      simulation);
}

std::string checkGather(const PlanProblem& p) {
  StatusOr<plan::GatherShape> shape =
      plan::inferGatherShape(p.data_shape, p.data_type, p.indices_shape, p.index_type, p.attribute);
  if (!shape.ok()) return failuresOf([&] { expectRefusal(shape.status()); });
  const std::optional<GatherPlacements> at = gatherPlacements(p, shape->output_shape);
  if (!at) return "";
  const StatusOr<OpPlan> planned =
      plan::planGather(*shape, p.index_type, at->data, at->indices, at->output, p.device, p.device);
  const plan::RowGather gather = plan::test::rowGatherOf(*shape, p.index_type);
  return checkRowGather(p, planned, gather, *at, [&] { plan::test::expectGatherReport(*planned, *shape); });
}

std::string checkGatherND(const PlanProblem& p) {
  StatusOr<plan::GatherNDShape> shape =
      plan::inferGatherNDShape(p.data_shape, p.data_type, p.indices_shape, p.index_type, p.attribute);
  if (!shape.ok()) return failuresOf([&] { expectRefusal(shape.status()); });
  const std::optional<GatherPlacements> at = gatherPlacements(p, shape->output_shape);
  if (!at) return "";
  const StatusOr<OpPlan> planned =
      plan::planGatherND(*shape, p.index_type, at->data, at->indices, at->output, p.device, p.device);
  // What GatherND must reduce to (ONNX): per batch, its own tuples addressing data dims batch_dims ..
  // batch_dims + k - 1, each copying the slice after them.
  plan::RowGather gather = plan::test::rowGather(shape->batch, shape->tuples, shape->row_bytes, shape->extents,
                                                 p.index_type, /*batched=*/true);
  gather.op = "GatherND";
  gather.row_name = "one slice after the indexed dims";
  return checkRowGather(p, planned, gather, *at, [&] {
    EXPECT_TRUE(planned->report.tuples);
    EXPECT_EQ(planned->report.indices_shape, shape->indices_shape);
    EXPECT_EQ(planned->report.extents, shape->extents);
  });
}

std::string checkGatherElements(const PlanProblem& p) {
  StatusOr<plan::GatherElementsShape> shape =
      plan::inferGatherElementsShape(p.data_shape, p.data_type, p.indices_shape, p.index_type, p.attribute);
  if (!shape.ok()) return failuresOf([&] { expectRefusal(shape.status()); });
  const std::optional<GatherPlacements> at = gatherPlacements(p, shape->output_shape);
  if (!at) return "";
  const StatusOr<OpPlan> planned =
      plan::planGatherElements(*shape, p.index_type, at->data, at->indices, at->output, p.device, p.device);
  if (!planned.ok()) return failuresOf([&] { expectRefusal(planned.status()); });
  if (planned->steps.size() > kMaxCheckedSteps) return "";
  std::function<void()> simulation;
  if (cheapToSimulate(*planned, {at->data, at->indices, at->output}, p.device)) {
    simulation = [&] {
      plan::test::ElementsCase c{
          p.data_shape,  p.data_type,      p.indices_shape, p.index_type, p.attribute,
          p.data_offset, p.indices_offset, p.output_offset, p.device,     plantable(p, shape->output_elements)};
      plan::test::runElementsPlan(*planned, c, p.seed);
    };
  }
  return checkThenSimulate(
      [&] {
        plan::test::checkElementsStructure(*planned, *shape, p.index_type, *at, p.device);
        plan::test::expectElementsReport(*planned, *shape);
      },
      simulation);
}

// What every scatter plan must satisfy: generic step parts, every window valid for its tensor (the
// scratch buffer is a tensor of scratch_bytes at offset 0), and the shared index checks.
void checkScatterStructure(const OpPlan& op_plan, const plan::ScatterShape& shape, const Placement& data,
                           const Placement& indices, const Placement& updates, const Placement& output, bool in_place,
                           const FakeDevice& device) {
  for (size_t i = 0; i < op_plan.steps.size(); ++i) {
    const Step& step = op_plan.steps[i];
    SCOPED_TRACE("step " + std::to_string(i) + ": " + plan::test::str(step));
    EXPECT_LT(static_cast<uint32_t>(step.kernel), static_cast<uint32_t>(plan::Kernel::kCount));
    EXPECT_EQ(step.push_bytes, plan::test::pushBytesOf(step.kernel));
    EXPECT_EQ(step.push[0], 0u) << "the status slot is the runner's to fill";
    EXPECT_GT(step.groups, 0u);
    // No group larger than the device's (a single one may be fitted to its work: plan::fitOneGroup).
    if (step.kind == plan::StepKind::kDispatch) {
      EXPECT_GE(step.spec[plan::kSpecWorkgroupSize], 1u);
      EXPECT_LE(step.spec[plan::kSpecWorkgroupSize], device.workgroup_size);
    }
  }
  plan::test::checkScatterWindows(op_plan, {data, indices, updates, output}, device);
  // A few updates in place without a reduction under the error policy (at most 16 components, and 256
  // components x workgroups) walk in one self-checking dispatch, and nothing else does: ScatterND's
  // whole-word slices in units (scatter_nd_rows_checked*) where their groups keep that bound, the
  // move-only walk otherwise. It writes its own status: nothing before it, no wait.
  const uint64_t components = shape.check.tuple_count * shape.check.extents.size();
  const bool small_walk = in_place && shape.reduction == Reduction::kNone &&
                          shape.check.policy == IndexPolicy::kError && components > 0 &&
                          components <= plan::kMaxSelfCheckedComponents;
  const auto fits = [&](const Step& walk) { return components * walk.groups <= plan::kMaxSelfCheckedWork; };
  const bool nd = shape.kind == plan::ScatterKind::kND;
  const plan::Kernel walk = nd ? plan::Kernel::kScatterNDMoveChecked : plan::Kernel::kScatterElementsMoveChecked;
  const bool rows = op_plan.steps.size() == 1 && plan::isSelfCheckingScatterNDRowsKernel(op_plan.steps[0].kernel);
  if (op_plan.steps.size() == 1 && (rows || plan::isSelfCheckingScatterWalkKernel(op_plan.steps[0].kernel))) {
    EXPECT_TRUE(small_walk && fits(op_plan.steps[0])) << plan::test::kernels(op_plan);
    EXPECT_EQ(plan::test::str(op_plan.steps[0].wait_for), "none");
    EXPECT_TRUE(op_plan.writes_own_status);
    if (rows) {
      EXPECT_TRUE(nd);
      const uint64_t slice_bytes = shape.slice_elements * shape.element_bytes;
      EXPECT_EQ(plan::scatterNDRowsUnitBytes(op_plan.steps[0].kernel),
                plan::largestUnit(slice_bytes | updates.offset | output.offset))
          << plan::test::kernels(op_plan);
    } else {
      EXPECT_EQ(op_plan.steps[0].kernel, walk) << plan::test::kernels(op_plan);
    }
    return;
  }
  plan::test::checkIndexSteps(op_plan, shape.check, indices, device);
  // A small call in place that another strategy served: the walk it would take instead must not fuse
  // (planScatter prefers a walk that does).
  const bool fusable = small_walk && op_plan.steps.size() == 3 && plan::isScatterWalkKernel(op_plan.steps[2].kernel) &&
                       fits(op_plan.steps[2]);
  EXPECT_FALSE(fusable) << "a small walk was not fused: " << plan::test::kernels(op_plan);
}

std::string checkScatter(const PlanProblem& p) {
  const bool nd = p.op == PlannedOp::kScatterND;
  StatusOr<plan::ScatterShape> shape =
      nd ? plan::inferScatterNDShape(p.data_shape, p.data_type, p.indices_shape, p.index_type, p.updates_shape,
                                     p.updates_type, p.reduction)
         : plan::inferScatterElementsShape(p.data_shape, p.data_type, p.indices_shape, p.index_type, p.updates_shape,
                                           p.updates_type, p.attribute, p.reduction);
  if (!shape.ok()) return failuresOf([&] { expectRefusal(shape.status()); });
  const auto data = placementOf(p.data_shape, p.data_type, p.data_offset);
  const auto indices = placementOf(p.indices_shape, p.index_type, p.indices_offset);
  const auto updates = placementOf(p.updates_shape, p.updates_type, p.updates_offset);
  const auto output = placementOf(p.data_shape, p.data_type, p.output_offset);
  if (!data || !indices || !updates || !output || tooManyWindows({*data, *indices, *updates, *output}, p.device)) {
    return "";
  }
  const StatusOr<OpPlan> planned =
      plan::planScatter(*shape, *data, *indices, *updates, *output, p.in_place, p.device, p.device);
  if (!planned.ok()) return failuresOf([&] { expectRefusal(planned.status()); });
  if (planned->steps.size() > kMaxCheckedSteps) return "";
  std::function<void()> simulation;
  if (cheapToSimulate(*planned, {*data, *indices, *updates, *output}, p.device) &&
      plan::test::scatterWork(*planned) <= kMaxSimulatedUpdates) {
    simulation = [&] {
      const plan::test::ScatterCase c{
          nd,         p.data_shape,  p.data_type,      p.indices_shape,  p.index_type,    p.attribute, p.reduction,
          p.in_place, p.data_offset, p.indices_offset, p.updates_offset, p.output_offset, p.device};
      EXPECT_TRUE(plan::test::simulateScatter(c, p.seed).ok());
    };
  }
  return checkThenSimulate(
      [&] { checkScatterStructure(*planned, *shape, *data, *indices, *updates, *output, p.in_place, p.device); },
      simulation);
}

}  // namespace

std::string planAndCheck(const PlanProblem& problem) {
  switch (problem.op) {
    case PlannedOp::kGather: return checkGather(problem);
    case PlannedOp::kGatherND: return checkGatherND(problem);
    case PlannedOp::kGatherElements: return checkGatherElements(problem);
    case PlannedOp::kScatterElements:
    case PlannedOp::kScatterND: return checkScatter(problem);
  }
  return "";
}

}  // namespace vkindex::fuzz
