#include "support/host_tensor.hpp"

#include <cstring>

namespace vkindex::test {

uint64_t HostTensor::elementCount() const {
  uint64_t count = 1;
  for (int64_t dim : shape) count *= static_cast<uint64_t>(dim);
  return count;
}

HostTensor indexTensor(DataType index_type, Shape shape, const std::vector<int64_t>& values) {
  HostTensor tensor;
  tensor.dtype = index_type;
  tensor.shape = std::move(shape);
  for (int64_t value : values) {
    if (index_type == DataType::kInt32) {
      int32_t narrow = static_cast<int32_t>(value);
      const auto* bytes = reinterpret_cast<const uint8_t*>(&narrow);
      tensor.bytes.insert(tensor.bytes.end(), bytes, bytes + sizeof(narrow));
    } else {
      const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
      tensor.bytes.insert(tensor.bytes.end(), bytes, bytes + sizeof(value));
    }
  }
  return tensor;
}

int64_t indexAt(const HostTensor& indices, uint64_t i) {
  if (indices.dtype == DataType::kInt32) {
    int32_t value;
    std::memcpy(&value, indices.bytes.data() + i * 4, 4);
    return value;
  }
  int64_t value;
  std::memcpy(&value, indices.bytes.data() + i * 8, 8);
  return value;
}

StatusOr<Tensor> toDevice(Context& context, const HostTensor& host) {
  if (host.dtype == DataType::kString) return Tensor::fromStrings(context, host.shape, host.strings);
  return Tensor::fromHost(context, host.dtype, host.shape, host.bytes.data(), host.bytes.size());
}

StatusOr<HostTensor> toHost(const Tensor& tensor) {
  HostTensor host;
  host.dtype = tensor.dtype();
  host.shape = tensor.shape();
  if (tensor.dtype() == DataType::kString) {
    host.strings = tensor.strings();
    return host;
  }
  VKINDEX_ASSIGN_OR_RETURN(host.bytes, tensor.toHost());
  return host;
}

std::string describe(const HostTensor& tensor) {
  std::string text = std::string(dataTypeName(tensor.dtype)) + " [";
  for (size_t i = 0; i < tensor.shape.size(); ++i) text += (i ? ", " : "") + std::to_string(tensor.shape[i]);
  return text + "]";
}

}  // namespace vkindex::test
