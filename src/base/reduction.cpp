#include "vkindex/reduction.hpp"

namespace vkindex {

const char* reductionName(Reduction reduction) {
  switch (reduction) {
    case Reduction::kNone: return "none";
    case Reduction::kAdd: return "add";
    case Reduction::kMul: return "mul";
    case Reduction::kMax: return "max";
    case Reduction::kMin: return "min";
  }
  return "unknown";
}

}  // namespace vkindex
