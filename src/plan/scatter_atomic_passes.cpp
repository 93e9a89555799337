// Every update at once with atomics (scatter_passes.hpp).
#include "plan/scatter_passes.hpp"

namespace vkindex::plan {

void appendAtomicPasses(OpPlan& plan, const PassLayout& layout, bool wait_for_checks, bool output_written,
                        const Tuning& tuning) {
  const ScatterShape& shape = layout.shape;
  for (const SourceRun& run : layout.runs) {
    for (const TargetRange& target : layout.targets) {
      Step pass;
      pass.kernel = shape.kind == ScatterKind::kElements ? Kernel::kScatterElementsAtomic : Kernel::kScatterNDAtomic;
      setWinnerPass(pass, layout, run, target);
      pass.bindings = std::vector<Binding>{{Role::kUpdates, run.updates.window},
                                           indicesBinding(shape, run),
                                           {Role::kOutput, target.output.window},
                                           {Role::kStatus, {}}};
      pass.groups = perUpdateGroups(runUpdateElements(shape, run), layout.workgroup, tuning);
      orderPass(pass, target.output.window, wait_for_checks, output_written);
      plan.steps.push_back(pass);
    }
  }
}

}  // namespace vkindex::plan
