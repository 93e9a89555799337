#include "plan/op_plan.hpp"

#include <algorithm>

namespace vkindex::plan {

namespace {

// The copy-unit row-gather modules by path, then by unit (16, 8, 4, 16 as 64-bit, 8 as 64-bit).
constexpr Kernel kRowGatherModules[3][5] = {
    {Kernel::kGatherRows, Kernel::kGatherRows8, Kernel::kGatherRows4, Kernel::kGatherRowsInt64,
     Kernel::kGatherRowsInt64_8},
    {Kernel::kGatherShortRows, Kernel::kGatherShortRows8, Kernel::kGatherShortRows4, Kernel::kGatherShortRowsInt64,
     Kernel::kGatherShortRowsInt64_8},
    {Kernel::kGatherColumns, Kernel::kGatherColumns8, Kernel::kGatherColumns4, Kernel::kGatherColumnsInt64,
     Kernel::kGatherColumnsInt64_8},
};
// The self-checking ones by path, then by unit (16, 8, 4).
constexpr Kernel kCheckedRowGatherModules[3][3] = {
    {Kernel::kGatherRowsChecked, Kernel::kGatherRowsChecked8, Kernel::kGatherRowsChecked4},
    {Kernel::kGatherShortRowsChecked, Kernel::kGatherShortRowsChecked8, Kernel::kGatherShortRowsChecked4},
    {Kernel::kGatherColumnsChecked, Kernel::kGatherColumnsChecked8, Kernel::kGatherColumnsChecked4},
};

}  // namespace

Kernel rowGatherKernel(uint32_t unit_bytes, bool self_check, bool int64_units, RowPath path) {
  const Kernel(&modules)[5] = kRowGatherModules[static_cast<uint32_t>(path)];
  const Kernel(&checked)[3] = kCheckedRowGatherModules[static_cast<uint32_t>(path)];
  switch (unit_bytes) {
    case 16: return self_check ? checked[0] : int64_units ? modules[3] : modules[0];
    case 8: return self_check ? checked[1] : int64_units ? modules[4] : modules[1];
    case 4: return self_check ? checked[2] : modules[2];
    default: return Kernel::kGatherRowBytes;
  }
}

std::optional<RowPath> rowGatherPath(Kernel kernel) {
  for (uint32_t path = 0; path < 3; ++path) {
    for (Kernel module : kRowGatherModules[path]) {
      if (module == kernel) return static_cast<RowPath>(path);
    }
    for (Kernel module : kCheckedRowGatherModules[path]) {
      if (module == kernel) return static_cast<RowPath>(path);
    }
  }
  return std::nullopt;
}

bool isRowGatherKernel(Kernel kernel) { return rowGatherPath(kernel).has_value() || kernel == Kernel::kGatherRowBytes; }

bool isSelfCheckingRowGatherKernel(Kernel kernel) {
  for (const auto& modules : kCheckedRowGatherModules) {
    for (Kernel module : modules) {
      if (module == kernel) return true;
    }
  }
  return false;
}

bool isCheckKernel(Kernel kernel) {
  return kernel == Kernel::kCheckIndices || kernel == Kernel::kCheckIndicesInt64 || kernel == Kernel::kCheckIndicesWide;
}

Kernel scatterNDRowsKernel(uint32_t unit_bytes, bool int64_units) {
  switch (unit_bytes) {
    case 16: return int64_units ? Kernel::kScatterNDRowsInt64 : Kernel::kScatterNDRows;
    case 8: return int64_units ? Kernel::kScatterNDRowsInt64_8 : Kernel::kScatterNDRows8;
    default: return Kernel::kScatterNDRows4;
  }
}

uint32_t scatterNDRowsUnitBytes(Kernel kernel) {
  switch (kernel) {
    case Kernel::kScatterNDRows:
    case Kernel::kScatterNDRowsInt64: return 16;
    case Kernel::kScatterNDRows8:
    case Kernel::kScatterNDRowsInt64_8: return 8;
    case Kernel::kScatterNDRows4: return 4;
    case Kernel::kScatterNDRowsChecked: return 16;
    case Kernel::kScatterNDRowsChecked8: return 8;
    case Kernel::kScatterNDRowsChecked4: return 4;
    default: return 0;
  }
}

Kernel scatterNDRowsCheckedKernel(uint32_t unit_bytes) {
  switch (unit_bytes) {
    case 16: return Kernel::kScatterNDRowsChecked;
    case 8: return Kernel::kScatterNDRowsChecked8;
    default: return Kernel::kScatterNDRowsChecked4;
  }
}

bool isSelfCheckingScatterNDRowsKernel(Kernel kernel) {
  return kernel == Kernel::kScatterNDRowsChecked || kernel == Kernel::kScatterNDRowsChecked8 ||
         kernel == Kernel::kScatterNDRowsChecked4;
}

Kernel bulkCopyKernel(bool int64_units) { return int64_units ? Kernel::kCopyWordsInt64 : Kernel::kCopyWords16; }

uint32_t copyWordsUnitBytes(Kernel kernel) {
  switch (kernel) {
    case Kernel::kCopyWords16:
    case Kernel::kCopyWordsInt64: return 16;
    case Kernel::kCopyWords: return 4;
    default: return 0;
  }
}

Kernel elementGatherKernel(uint32_t unit_bytes, bool self_checking) {
  switch (unit_bytes) {
    case 16: return self_checking ? Kernel::kGatherElementsChecked : Kernel::kGatherElements;
    case 8: return self_checking ? Kernel::kGatherElementsChecked8 : Kernel::kGatherElements8;
    case 4: return self_checking ? Kernel::kGatherElementsChecked4 : Kernel::kGatherElements4;
    default: return self_checking ? Kernel::kGatherElementBytesChecked : Kernel::kGatherElementBytes;
  }
}

bool isSelfCheckingElementGatherKernel(Kernel kernel) {
  switch (kernel) {
    case Kernel::kGatherElementsChecked:
    case Kernel::kGatherElementsChecked8:
    case Kernel::kGatherElementsChecked4:
    case Kernel::kGatherElementBytesChecked: return true;
    default: return false;
  }
}

bool isElementGatherKernel(Kernel kernel) {
  switch (kernel) {
    case Kernel::kGatherElements:
    case Kernel::kGatherElements8:
    case Kernel::kGatherElements4:
    case Kernel::kGatherElementBytes: return true;
    default: return isSelfCheckingElementGatherKernel(kernel);
  }
}

const Window* windowOf(const Step& step, Role role) {
  for (const Binding& binding : step.bindings) {
    if (binding.role == role) return &binding.window;
  }
  return nullptr;
}

bool OpPlan::dispatches() const {
  return std::any_of(steps.begin(), steps.end(), [](const Step& step) { return step.kind == StepKind::kDispatch; });
}

bool writesStatusSlot(const OpPlan& plan) {
  if (plan.writes_own_status) return plan.dispatches();
  return std::any_of(plan.steps.begin(), plan.steps.end(), [](const Step& step) {
    const bool writes = isCheckKernel(step.kernel) || step.kernel == Kernel::kTensorScatter;
    return step.kind == StepKind::kDispatch && writes;
  });
}

bool resetsStatusSlot(const OpPlan& plan) { return writesStatusSlot(plan) && !plan.writes_own_status; }

CommandCounts commandCounts(const OpPlan& plan) {
  CommandCounts counts;
  if (resetsStatusSlot(plan)) {
    counts.transfers += 1;
    counts.barriers += 1;
  }
  for (const Step& step : plan.steps) {
    switch (step.kind) {
      case StepKind::kDispatch:
        counts.dispatches += 1;
        counts.barriers += static_cast<uint32_t>(step.wait_for.size()) + (step.indirect_scratch_offset ? 1 : 0);
        break;
      case StepKind::kCopyRegions:
        if (step.regions.empty()) break;
        counts.transfers += 1;
        counts.barriers += 2;
        break;
      case StepKind::kUploadFromHost:
        counts.transfers += 1;
        counts.barriers += 1;
        break;
    }
  }
  if (writesStatusSlot(plan)) counts.host_barriers = 1;
  return counts;
}

}  // namespace vkindex::plan
