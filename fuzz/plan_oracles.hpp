// What a planner must do with any problem: return kInvalidArgument or kUnsupported with a message, or
// a plan that the plan tests' checkers accept (tests/plan/plan_checks.hpp, the simulators). Gathers
// get the full structural check and, when small enough to be quick, the byte-level simulation with
// the planted bad indices; scatters (which have no simulator yet) the structural checks every plan
// shares: windows, push blocks, workgroups, scratch, and the index checks.
#pragma once

#include <string>

#include "plan_problem.hpp"

namespace vkindex::fuzz {

// Plans `problem` with its operator's planner and checks the outcome. Returns the checkers' failure
// messages, one a line; empty when everything held.
std::string planAndCheck(const PlanProblem& problem);

}  // namespace vkindex::fuzz
