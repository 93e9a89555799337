#include "support/random_tensors.hpp"

#include <algorithm>
#include <limits>

namespace vkindex::test {

HostTensor randomTensor(Rng& rng, DataType dtype, Shape shape) {
  HostTensor tensor;
  tensor.dtype = dtype;
  tensor.shape = std::move(shape);
  const uint64_t count = tensor.elementCount();
  if (dtype == DataType::kString) {
    std::uniform_int_distribution<int> length(0, 12), letter('a', 'z');
    for (uint64_t i = 0; i < count; ++i) {
      std::string text = std::to_string(i) + ":";
      for (int n = length(rng); n > 0; --n) text += static_cast<char>(letter(rng));
      tensor.strings.push_back(text);
    }
    return tensor;
  }
  tensor.bytes.resize(packedByteSize(dtype, count));
  // ONNX's bools are the bytes 0 and 1 (the CLI's reader refuses others); one draw per byte either way.
  const uint64_t mask = dtype == DataType::kBool ? 1 : 0xFF;
  for (uint8_t& byte : tensor.bytes) byte = static_cast<uint8_t>(rng() & mask);
  return tensor;
}

std::vector<int64_t> outOfRangeIndexValues(DataType index_type, int64_t s) {
  std::vector<int64_t> values = {-1, s, -s, s + 7};
  if (index_type == DataType::kInt32) {
    values.push_back(std::numeric_limits<int32_t>::min());
    values.push_back(std::numeric_limits<int32_t>::max());
  } else {
    values.push_back(std::numeric_limits<int64_t>::min());
    values.push_back(std::numeric_limits<int64_t>::max());
    values.push_back((int64_t(1) << 32) + 1);
    values.push_back((int64_t(1) << 32) + s - 1);
    values.push_back(-(int64_t(1) << 32));
  }
  return values;
}

Shape randomShape(Rng& rng, size_t rank, uint64_t max_elements) {
  static const int64_t kDims[] = {1, 2, 3, 5, 7, 11, 13, 1, 2, 3, 4, 6, 9, 17, 31, 0};
  std::uniform_int_distribution<size_t> pick(0, std::size(kDims) - 1);
  std::uniform_int_distribution<int> rare(0, 9);
  Shape shape;
  uint64_t count = 1;
  for (size_t d = 0; d < rank; ++d) {
    int64_t dim = kDims[pick(rng)];
    if (dim == 0 && rare(rng) != 0) dim = 1;  // zero-sized dims: roughly one draw in 160
    while (dim > 1 && count * static_cast<uint64_t>(dim) > max_elements) dim /= 2;
    count *= static_cast<uint64_t>(std::max<int64_t>(dim, 1));
    shape.push_back(dim);
  }
  return shape;
}

HostTensor randomIndices(Rng& rng, DataType index_type, Shape shape, int64_t axis_size) {
  HostTensor tensor;
  tensor.shape = std::move(shape);
  std::uniform_int_distribution<int64_t> value(-axis_size, axis_size - 1);
  std::vector<int64_t> values(tensor.elementCount());
  for (int64_t& v : values) v = value(rng);
  return indexTensor(index_type, tensor.shape, values);
}

Shape randomElementsIndexShape(Rng& rng, const Shape& data_shape, size_t axis, int64_t longest_axis,
                               uint64_t max_elements) {
  Shape index_shape(data_shape.size());
  std::uniform_int_distribution<int> pick(0, 9);
  for (size_t d = 0; d < data_shape.size(); ++d) {
    const int64_t m = data_shape[d];
    if (d == axis) {
      if (m == 0) continue;
      index_shape[d] = std::uniform_int_distribution<int64_t>(1, longest_axis)(rng);
    } else if (m == 0 || pick(rng) < 5) {
      index_shape[d] = m;
    } else {
      index_shape[d] = std::uniform_int_distribution<int64_t>(pick(rng) == 0 ? 0 : 1, m)(rng);
    }
  }
  auto count = [&] {
    uint64_t n = 1;
    for (int64_t dim : index_shape) n *= static_cast<uint64_t>(dim);
    return n;
  };
  while (count() > max_elements) {
    int64_t& largest = *std::max_element(index_shape.begin(), index_shape.end());
    largest /= 2;
  }
  return index_shape;
}

HostTensor randomTuples(Rng& rng, DataType index_type, const Shape& index_shape, const Shape& data_shape,
                        size_t batch_dims) {
  const uint64_t k = static_cast<uint64_t>(index_shape.back());
  uint64_t count = 1;
  for (int64_t dim : index_shape) count *= static_cast<uint64_t>(dim);
  std::vector<int64_t> values(count);
  for (uint64_t e = 0; e < count; ++e) {
    const int64_t s = data_shape[batch_dims + e % k];
    values[e] = std::uniform_int_distribution<int64_t>(-s, s - 1)(rng);
  }
  return indexTensor(index_type, index_shape, values);
}

}  // namespace vkindex::test
