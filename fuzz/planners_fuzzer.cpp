// Fuzzes every operator's planner (src/plan) with random problems and device limits
// (plan_problem.hpp) and holds each outcome to plan_oracles.hpp: a refusal with a message, or a plan
// the plan tests' checkers and simulators accept. A violated check aborts with the problem described,
// so libFuzzer saves the input; sanitizers catch crashes, overflow and out-of-bounds access.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz_check.hpp"
#include "plan_oracles.hpp"
#include "plan_problem.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  const vkindex::fuzz::PlanProblem problem = vkindex::fuzz::decodeProblem(input);
  // VKINDEX_FUZZ_VERBOSE=1 prints every problem, to see what a saved (slow, crashing) input holds.
  static const bool verbose = std::getenv("VKINDEX_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "%s\n", vkindex::fuzz::describe(problem).c_str());
  const std::string failures = vkindex::fuzz::planAndCheck(problem);
  if (!failures.empty()) vkindex::fuzz::fail(vkindex::fuzz::describe(problem) + "\n" + failures);
  return 0;
}
