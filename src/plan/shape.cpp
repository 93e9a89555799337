#include "plan/shape.hpp"

namespace vkindex::plan {

std::optional<uint64_t> productOf(const Shape& dims, size_t begin, size_t end) {
  // A zero dim makes the product 0 wherever it sits, even after dims whose partial product overflows.
  bool has_zero = false;
  for (size_t i = begin; i < end; ++i) {
    if (dims[i] < 0) return std::nullopt;
    has_zero = has_zero || dims[i] == 0;
  }
  if (has_zero) return 0;
  uint64_t product = 1;
  for (size_t i = begin; i < end; ++i) {
    uint64_t dim = static_cast<uint64_t>(dims[i]);
    if (dim != 0 && product > (uint64_t(INT64_MAX) / dim)) return std::nullopt;
    product *= dim;
  }
  return product;
}

std::string shapeString(const Shape& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + "]";
}

Status checkClassicType(const std::string& op, const char* input, DataType type) {
  if (isClassicDataType(type)) return Status::Ok();
  return invalidArgument(op + ": input '" + input + "' has type " + dataTypeName(type) + ", which " + op +
                         " does not take (ONNX allows the float8, int4, uint4 and float4e2m1 types in TensorScatter, "
                         "not in " +
                         op + ")");
}

Status checkOutputShape(const std::string& op, const Shape& output) {
  std::optional<uint64_t> count = elementCount(output);
  if (!count || *count > uint64_t(INT64_MAX) / 16) {
    return invalidArgument(op + ": the output shape " + shapeString(output) + " is too large");
  }
  return Status::Ok();
}

std::string coordinatesString(const Shape& dims, uint64_t position) {
  Shape coordinates(dims.size());
  for (size_t i = dims.size(); i-- > 0;) {
    uint64_t dim = dims[i] > 0 ? static_cast<uint64_t>(dims[i]) : 1;
    coordinates[i] = static_cast<int64_t>(position % dim);
    position /= dim;
  }
  return shapeString(coordinates);
}

}  // namespace vkindex::plan
