#include "plan/op_plan.hpp"

namespace vkindex::plan {

Kernel rowGatherKernel(uint32_t unit_bytes, bool self_check, bool int64_units) {
  switch (unit_bytes) {
    case 16:
      return self_check ? Kernel::kGatherRowsChecked : int64_units ? Kernel::kGatherRowsInt64 : Kernel::kGatherRows;
    case 8:
      return self_check ? Kernel::kGatherRowsChecked8 : int64_units ? Kernel::kGatherRowsInt64_8 : Kernel::kGatherRows8;
    case 4: return self_check ? Kernel::kGatherRowsChecked4 : Kernel::kGatherRows4;
    default: return Kernel::kGatherRowBytes;
  }
}

bool isRowGatherKernel(Kernel kernel) {
  switch (kernel) {
    case Kernel::kGatherRows:
    case Kernel::kGatherRows8:
    case Kernel::kGatherRows4:
    case Kernel::kGatherRowBytes:
    case Kernel::kGatherRowsChecked:
    case Kernel::kGatherRowsChecked8:
    case Kernel::kGatherRowsChecked4:
    case Kernel::kGatherRowsInt64:
    case Kernel::kGatherRowsInt64_8: return true;
    default: return false;
  }
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
    default: return 0;
  }
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

Kernel elementGatherKernel(uint32_t unit_bytes) {
  switch (unit_bytes) {
    case 16: return Kernel::kGatherElements;
    case 8: return Kernel::kGatherElements8;
    case 4: return Kernel::kGatherElements4;
    default: return Kernel::kGatherElementBytes;
  }
}

bool isElementGatherKernel(Kernel kernel) {
  switch (kernel) {
    case Kernel::kGatherElements:
    case Kernel::kGatherElements8:
    case Kernel::kGatherElements4:
    case Kernel::kGatherElementBytes: return true;
    default: return false;
  }
}

const Window* windowOf(const Step& step, Role role) {
  for (const Binding& binding : step.bindings) {
    if (binding.role == role) return &binding.window;
  }
  return nullptr;
}

}  // namespace vkindex::plan
