#include "support/typed_tensors.hpp"

#include <cassert>
#include <cstring>
#include <utility>

#include "support/half_floats.hpp"

namespace vkindex::test {
namespace {

// Appends the low `width` bytes of `value` (little-endian: the low bytes first).
template <typename T>
void append(HostTensor& tensor, T value, size_t width = sizeof(T)) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
  tensor.bytes.insert(tensor.bytes.end(), bytes, bytes + width);
}

HostTensor emptyTensor(DataType dtype, Shape shape) {
  HostTensor tensor;
  tensor.dtype = dtype;
  tensor.shape = std::move(shape);
  return tensor;
}

}  // namespace

HostTensor floats(Shape shape, const std::vector<float>& values) {
  HostTensor tensor = emptyTensor(DataType::kFloat32, std::move(shape));
  for (float value : values) append(tensor, value);
  return tensor;
}

HostTensor floatBitsTensor(Shape shape, const std::vector<uint32_t>& values) {
  HostTensor tensor = emptyTensor(DataType::kFloat32, std::move(shape));
  for (uint32_t bits : values) append(tensor, bits);
  return tensor;
}

HostTensor integers(DataType dtype, Shape shape, const std::vector<uint64_t>& values) {
  HostTensor tensor = emptyTensor(dtype, std::move(shape));
  for (uint64_t value : values) append(tensor, value, elementSize(dtype));
  return tensor;
}

HostTensor realTensor(DataType dtype, Shape shape, const std::vector<double>& values) {
  HostTensor tensor = emptyTensor(dtype, std::move(shape));
  for (double value : values) {
    switch (dtype) {
      case DataType::kFloat16: append(tensor, floatToHalf(static_cast<float>(value))); break;
      case DataType::kBFloat16: append(tensor, floatToBFloat16(static_cast<float>(value))); break;
      case DataType::kFloat32:
      case DataType::kComplex64: append(tensor, static_cast<float>(value)); break;
      case DataType::kFloat64:
      case DataType::kComplex128: append(tensor, value); break;
      default: assert(false && "not a float-like type");
    }
  }
  assert(tensor.bytes.size() == tensor.elementCount() * elementSize(dtype));
  return tensor;
}

HostTensor stringTensor(Shape shape, std::vector<std::string> values) {
  HostTensor tensor;
  tensor.dtype = DataType::kString;
  tensor.shape = std::move(shape);
  tensor.strings = std::move(values);
  return tensor;
}

}  // namespace vkindex::test
