#include "support/defined_reductions.hpp"

namespace vkindex::test {

bool reductionDefined(DataType dtype, Reduction reduction) {
  if (reduction == Reduction::kNone) return true;
  switch (dtype) {
    case DataType::kBool: return reduction == Reduction::kAdd || reduction == Reduction::kMul;
    case DataType::kString: return reduction == Reduction::kAdd;
    case DataType::kComplex64:
    case DataType::kComplex128: return reduction == Reduction::kAdd || reduction == Reduction::kMul;
    default: return true;
  }
}

std::vector<ReductionPair> definedReductionPairs() {
  std::vector<ReductionPair> pairs;
  for (DataType dtype : kClassicDataTypes) {
    for (Reduction reduction : {Reduction::kAdd, Reduction::kMul, Reduction::kMax, Reduction::kMin}) {
      if (reductionDefined(dtype, reduction)) pairs.push_back({dtype, reduction});
    }
  }
  return pairs;
}

}  // namespace vkindex::test
