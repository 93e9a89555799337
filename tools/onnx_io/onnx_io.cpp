// The small helpers declared next to the onnx_io data structures.
#include "onnx_io.hpp"

namespace vkindex::onnxio {

int64_t HostTensor::elementCount() const {
  // A zero dim first: [INT64_MAX, 2, 0] holds nothing, and multiplying first would overflow.
  for (int64_t dim : dims) {
    if (dim == 0) return 0;
  }
  int64_t count = 1;
  for (int64_t dim : dims) count *= dim;
  return count;
}

std::string formatDims(const std::vector<int64_t>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

const char* attributeKindName(AttributeValue::Kind kind) {
  switch (kind) {
    case AttributeValue::Kind::kInt: return "INT";
    case AttributeValue::Kind::kFloat: return "FLOAT";
    case AttributeValue::Kind::kString: return "STRING";
    case AttributeValue::Kind::kInts: return "INTS";
    case AttributeValue::Kind::kFloats: return "FLOATS";
    case AttributeValue::Kind::kStrings: return "STRINGS";
    case AttributeValue::Kind::kTensor: return "TENSOR";
  }
  return "UNKNOWN";
}

const char* valueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kUndeclared: return "undeclared";
    case ValueKind::kTensor: return "tensor";
    case ValueKind::kSequence: return "sequence";
    case ValueKind::kMap: return "map";
    case ValueKind::kOptional: return "optional";
    case ValueKind::kSparseTensor: return "sparse tensor";
    case ValueKind::kOther: return "non-tensor value";
  }
  return "unknown";
}

}  // namespace vkindex::onnxio
