// Tensor's internal entry points, for the operators inside vkindex.
#pragma once

#include <string>

#include "vkindex/tensor.hpp"

namespace vkindex::internal {

struct TensorAccess {
  // Tensor::create, with errors naming the buffer `purpose` (e.g. "Gather output") rather than the
  // public call.
  static StatusOr<Tensor> create(Context& context, DataType type, Shape shape, const std::string& purpose) {
    return Tensor::createFor(context, type, std::move(shape), purpose);
  }
};

}  // namespace vkindex::internal
