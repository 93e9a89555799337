// The gather family's operators: each is its planner pair from src/plan plus the three public forms,
// all through the family's front (ops/gather_family) and the one runner.
//   Gather (ONNX opsets 1, 11, 13):        plan/gather_plan
//   GatherElements (ONNX opsets 11, 13):   plan/gather_elements_plan
//   GatherND (ONNX opsets 11, 12, 13):     plan/gather_nd_plan
#include "ops/gather_family.hpp"
#include "plan/gather_elements_plan.hpp"
#include "plan/gather_nd_plan.hpp"
#include "plan/gather_plan.hpp"

namespace vkindex {
namespace {

using GatherPlanner = PlannedGather<plan::GatherShape, plan::inferGatherShape, plan::planGather>;
using GatherElementsPlanner =
    PlannedGather<plan::GatherElementsShape, plan::inferGatherElementsShape, plan::planGatherElements>;
using GatherNDPlanner = PlannedGather<plan::GatherNDShape, plan::inferGatherNDShape, plan::planGatherND>;

constexpr GatherFamilyOp kGather{"Gather", GatherPlanner::infer, GatherPlanner::plan};
constexpr GatherFamilyOp kGatherElements{"GatherElements", GatherElementsPlanner::infer, GatherElementsPlanner::plan};
constexpr GatherFamilyOp kGatherND{"GatherND", GatherNDPlanner::infer, GatherNDPlanner::plan};

}  // namespace

VKINDEX_DEFINE_GATHER_FAMILY_FORMS(gather, recordGather, kGather, axis)
VKINDEX_DEFINE_GATHER_FAMILY_FORMS(gatherElements, recordGatherElements, kGatherElements, axis)
VKINDEX_DEFINE_GATHER_FAMILY_FORMS(gatherND, recordGatherND, kGatherND, batch_dims)

}  // namespace vkindex
