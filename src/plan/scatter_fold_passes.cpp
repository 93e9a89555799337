// The fold by owner for either scatter operator: its locate pass, then the fold's own passes
// (scatter_fold_plan.hpp).
#include <utility>

#include "plan/scatter_passes.hpp"

namespace vkindex::plan {

void appendFoldByOwner(OpPlan& plan, const PassLayout& layout, const FoldLayout& fold, bool wait_for_checks,
                       bool output_written, const Tuning& tuning) {
  const ScatterShape& shape = layout.shape;
  const SourceRun& run = layout.runs.front();
  const TargetRange& target = layout.targets.front();
  Step locate;
  locate.kernel = shape.kind == ScatterKind::kElements ? Kernel::kScatterElementsLocate : Kernel::kScatterNDLocate;
  setWinnerPass(locate, layout, run, target);
  locate.bindings = std::vector<Binding>{
      indicesBinding(shape, run), {Role::kScratch, fold.targets}, {Role::kScratch, fold.counts}, {Role::kStatus, {}}};
  locate.groups = perUpdateGroups(runUpdateElements(shape, run), layout.workgroup, tuning);
  const FoldTensors tensors{run.updates.window, target.output.window, run.updates.word, target.output.word};
  appendFoldPasses(plan, fold, std::move(locate), walkKernel(shape, kFold, tuning.native_float32_add),
                   scatterSpec(shape, layout.workgroup, 0), tensors, wait_for_checks, output_written, tuning);
}

}  // namespace vkindex::plan
