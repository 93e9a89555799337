#include "plan/op_plan.hpp"

namespace vkindex::plan {

const Window* windowOf(const Step& step, Role role) {
  for (const Binding& binding : step.bindings) {
    if (binding.role == role) return &binding.window;
  }
  return nullptr;
}

}  // namespace vkindex::plan
