#include "plan/op_plan.hpp"

namespace vkindex::plan {

Kernel rowGatherKernel(uint32_t unit_bytes, bool self_check) {
  switch (unit_bytes) {
    case 16: return self_check ? Kernel::kGatherRowsChecked : Kernel::kGatherRows;
    case 8: return self_check ? Kernel::kGatherRowsChecked8 : Kernel::kGatherRows8;
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
    case Kernel::kGatherRowsChecked4: return true;
    default: return false;
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
