#include "host_data.hpp"

#include <cassert>
#include <cstring>
#include <utility>

namespace vkindex::bench {
namespace {

// splitmix64: fast and good enough for test data; std::mt19937 would spend seconds on the 125 MiB
// embedding table on a two-core machine.
uint64_t nextRandom(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int64_t indexAt(const std::vector<uint8_t>& indices, DataType type, uint64_t i) {
  if (type == DataType::kInt32) {
    int32_t value;
    std::memcpy(&value, indices.data() + i * sizeof(value), sizeof(value));
    return value;
  }
  int64_t value;
  std::memcpy(&value, indices.data() + i * sizeof(value), sizeof(value));
  return value;
}

// Stores `value` as index `type` (int32 or int64, little-endian) at `target`.
void storeIndex(DataType type, int64_t value, uint8_t* target) {
  if (type == DataType::kInt32) {
    const auto narrow = static_cast<int32_t>(value);
    std::memcpy(target, &narrow, sizeof(narrow));
    return;
  }
  std::memcpy(target, &value, sizeof(value));
}

// `current` combined with `value`: added or kept if larger.
template <typename T>
T combined(T current, T value, Reduction reduction) {
  return reduction == Reduction::kAdd ? current + value : (value > current ? value : current);
}

// Combines one element of updates into its target: replaced, or added or kept if larger as float32
// (smallFloats values: no NaN, and no -0 for max's +0 == -0 rule to matter) or int32 (the add wrapping,
// as ONNX's integer add does: done on uint32, where wrapping is defined).
void combine(uint8_t* target, const uint8_t* update, DataType type, Reduction reduction) {
  if (reduction == Reduction::kNone) {
    std::memcpy(target, update, elementSize(type));
    return;
  }
  assert((reduction == Reduction::kAdd || reduction == Reduction::kMax) &&
         (type == DataType::kFloat32 || type == DataType::kInt32));
  if (type == DataType::kFloat32) {
    float current, value;
    std::memcpy(&current, target, sizeof(float));
    std::memcpy(&value, update, sizeof(float));
    current = combined(current, value, reduction);
    std::memcpy(target, &current, sizeof(float));
    return;
  }
  int32_t current, value;
  std::memcpy(&current, target, sizeof(current));
  std::memcpy(&value, update, sizeof(value));
  const auto sum = static_cast<uint32_t>(current) + static_cast<uint32_t>(value);
  current = reduction == Reduction::kAdd ? static_cast<int32_t>(sum) : combined(current, value, reduction);
  std::memcpy(target, &current, sizeof(current));
}

}  // namespace

uint64_t elementCount(const Shape& shape) {
  uint64_t count = 1;
  for (int64_t dim : shape) count *= static_cast<uint64_t>(dim);
  return count;
}

std::vector<uint8_t> randomBytes(uint64_t count, uint64_t seed) {
  std::vector<uint8_t> bytes(count);
  uint64_t state = seed;
  uint64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t word = nextRandom(state);
    std::memcpy(bytes.data() + i, &word, sizeof(word));
  }
  if (i < count) {
    uint64_t tail = nextRandom(state);
    std::memcpy(bytes.data() + i, &tail, count - i);
  }
  return bytes;
}

std::vector<uint8_t> randomIndices(DataType type, uint64_t count, int64_t axis_size, uint64_t seed) {
  return randomIndexTuples(type, count, {axis_size}, seed);
}

std::vector<uint8_t> randomIndexTuples(DataType type, uint64_t tuple_count, const Shape& component_sizes,
                                       uint64_t seed) {
  const size_t width = elementSize(type);
  const uint64_t count = tuple_count * component_sizes.size();
  std::vector<uint8_t> bytes(count * width);
  uint64_t state = seed;
  for (uint64_t i = 0; i < count; ++i) {
    const auto size = static_cast<uint64_t>(component_sizes[i % component_sizes.size()]);
    storeIndex(type, static_cast<int64_t>(nextRandom(state) % size), bytes.data() + i * width);
  }
  return bytes;
}

std::vector<uint8_t> indexBytes(DataType type, const std::vector<int64_t>& values) {
  const size_t width = elementSize(type);
  std::vector<uint8_t> bytes(values.size() * width);
  for (size_t i = 0; i < values.size(); ++i) storeIndex(type, values[i], bytes.data() + i * width);
  return bytes;
}

std::vector<uint8_t> ascendingIndices(DataType type, uint64_t count, int64_t axis_size) {
  const size_t width = elementSize(type);
  std::vector<uint8_t> bytes(count * width);
  for (uint64_t i = 0; i < count; ++i)
    storeIndex(type, static_cast<int64_t>(i % static_cast<uint64_t>(axis_size)), bytes.data() + i * width);
  return bytes;
}

std::vector<uint8_t> cpuGather(const std::vector<uint8_t>& data, const Shape& data_shape, size_t element_size,
                               const std::vector<uint8_t>& indices, DataType index_type, int64_t axis) {
  // data viewed as [outer, axis_size, inner] with inner in bytes; output as [outer, index_count, inner].
  uint64_t outer = 1;
  uint64_t inner = element_size;
  for (size_t d = 0; d < data_shape.size(); ++d) {
    if (static_cast<int64_t>(d) < axis) outer *= static_cast<uint64_t>(data_shape[d]);
    if (static_cast<int64_t>(d) > axis) inner *= static_cast<uint64_t>(data_shape[d]);
  }
  int64_t axis_size = data_shape[static_cast<size_t>(axis)];
  uint64_t index_count = indices.size() / elementSize(index_type);
  std::vector<uint8_t> output(outer * index_count * inner);
  uint8_t* target = output.data();
  for (uint64_t o = 0; o < outer; ++o) {
    for (uint64_t i = 0; i < index_count; ++i) {
      int64_t index = indexAt(indices, index_type, i);
      if (index < 0) index += axis_size;
      const uint8_t* source =
          data.data() + (o * static_cast<uint64_t>(axis_size) + static_cast<uint64_t>(index)) * inner;
      std::memcpy(target, source, inner);
      target += inner;
    }
  }
  return output;
}

std::vector<uint8_t> cpuGatherElements(const std::vector<uint8_t>& data, const Shape& data_shape, size_t element_size,
                                       const std::vector<uint8_t>& indices, const Shape& indices_shape,
                                       DataType index_type, int64_t axis) {
  const size_t rank = data_shape.size();
  const auto axis_dim = static_cast<size_t>(axis);
  std::vector<uint64_t> data_strides(rank, 1);
  for (size_t d = rank; d-- > 1;) data_strides[d - 1] = data_strides[d] * static_cast<uint64_t>(data_shape[d]);
  const uint64_t count = elementCount(indices_shape);
  std::vector<uint8_t> output(count * element_size);
  Shape coordinate(rank, 0);  // of output element i in indices' shape, advanced row-major
  for (uint64_t i = 0; i < count; ++i) {
    int64_t index = indexAt(indices, index_type, i);
    if (index < 0) index += data_shape[axis_dim];
    uint64_t source = 0;
    for (size_t d = 0; d < rank; ++d) {
      source += static_cast<uint64_t>(d == axis_dim ? index : coordinate[d]) * data_strides[d];
    }
    std::memcpy(output.data() + i * element_size, data.data() + source * element_size, element_size);
    for (size_t d = rank; d-- > 0;) {
      if (++coordinate[d] < indices_shape[d]) break;
      coordinate[d] = 0;
    }
  }
  return output;
}

std::vector<uint8_t> cpuGatherND(const std::vector<uint8_t>& data, const Shape& data_shape, size_t element_size,
                                 const std::vector<uint8_t>& indices, const Shape& indices_shape, DataType index_type,
                                 int64_t batch_dims) {
  const auto b = static_cast<size_t>(batch_dims);
  const auto k = static_cast<size_t>(indices_shape.back());
  // data viewed as [batches, data_shape[b..b+k), slice]; indices as [batches, tuples, k].
  const uint64_t batches = elementCount(Shape(data_shape.begin(), data_shape.begin() + batch_dims));
  const uint64_t tuples = elementCount(Shape(indices_shape.begin() + batch_dims, indices_shape.end() - 1));
  const uint64_t slice =
      elementCount(Shape(data_shape.begin() + batch_dims + indices_shape.back(), data_shape.end())) * element_size;
  std::vector<uint64_t> tuple_strides(k, slice);  // bytes per step of each tuple component
  for (size_t c = k; c-- > 1;) tuple_strides[c - 1] = tuple_strides[c] * static_cast<uint64_t>(data_shape[b + c]);
  const uint64_t batch_bytes = tuple_strides[0] * static_cast<uint64_t>(data_shape[b]);
  std::vector<uint8_t> output(batches * tuples * slice);
  uint8_t* target = output.data();
  for (uint64_t batch = 0; batch < batches; ++batch) {
    for (uint64_t t = 0; t < tuples; ++t) {
      uint64_t source = batch * batch_bytes;
      for (size_t c = 0; c < k; ++c) {
        int64_t index = indexAt(indices, index_type, (batch * tuples + t) * k + c);
        if (index < 0) index += data_shape[b + c];
        source += static_cast<uint64_t>(index) * tuple_strides[c];
      }
      std::memcpy(target, data.data() + source, slice);
      target += slice;
    }
  }
  return output;
}

std::vector<uint8_t> smallFloats(uint64_t count, uint64_t seed) {
  std::vector<uint8_t> bytes(count * sizeof(float));
  uint64_t state = seed;
  for (uint64_t i = 0; i < count; ++i) {
    const float value = static_cast<float>(static_cast<int64_t>(nextRandom(state) % 2001) - 1000) / 64.0f;
    std::memcpy(bytes.data() + i * sizeof(float), &value, sizeof(value));
  }
  return bytes;
}

std::vector<int64_t> randomPermutation(int64_t n, uint64_t seed) {
  std::vector<int64_t> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = i;
  uint64_t state = seed;
  for (size_t i = values.size(); i > 1; --i) std::swap(values[i - 1], values[nextRandom(state) % i]);
  return values;
}

std::vector<uint8_t> cpuScatterElements(const std::vector<uint8_t>& data, const Shape& data_shape, DataType type,
                                        const std::vector<int64_t>& indices, const Shape& indices_shape,
                                        const std::vector<uint8_t>& updates, int64_t axis, Reduction reduction) {
  const size_t element_size = elementSize(type);
  const size_t rank = data_shape.size();
  const auto axis_dim = static_cast<size_t>(axis);
  std::vector<uint64_t> data_strides(rank, 1);
  for (size_t d = rank; d-- > 1;) data_strides[d - 1] = data_strides[d] * static_cast<uint64_t>(data_shape[d]);
  std::vector<uint8_t> output = data;
  Shape coordinate(rank, 0);  // of update i in indices' shape, advanced row-major
  for (uint64_t i = 0; i < indices.size(); ++i) {
    int64_t index = indices[i];
    if (index < 0) index += data_shape[axis_dim];
    uint64_t target = 0;
    for (size_t d = 0; d < rank; ++d) {
      target += static_cast<uint64_t>(d == axis_dim ? index : coordinate[d]) * data_strides[d];
    }
    combine(output.data() + target * element_size, updates.data() + i * element_size, type, reduction);
    for (size_t d = rank; d-- > 0;) {
      if (++coordinate[d] < indices_shape[d]) break;
      coordinate[d] = 0;
    }
  }
  return output;
}

std::vector<uint8_t> cpuScatterND(const std::vector<uint8_t>& data, const Shape& data_shape, DataType type,
                                  const std::vector<int64_t>& indices, const Shape& indices_shape,
                                  const std::vector<uint8_t>& updates, Reduction reduction) {
  const size_t element_size = elementSize(type);
  const auto k = static_cast<size_t>(indices_shape.back());
  const uint64_t tuples = indices.size() / k;
  const uint64_t slice = elementCount(Shape(data_shape.begin() + static_cast<std::ptrdiff_t>(k), data_shape.end()));
  std::vector<uint64_t> tuple_strides(k, slice);  // elements per step of each tuple component
  for (size_t c = k; c-- > 1;) tuple_strides[c - 1] = tuple_strides[c] * static_cast<uint64_t>(data_shape[c]);
  std::vector<uint8_t> output = data;
  for (uint64_t t = 0; t < tuples; ++t) {
    uint64_t target = 0;
    for (size_t c = 0; c < k; ++c) {
      int64_t index = indices[t * k + c];
      if (index < 0) index += data_shape[c];
      target += static_cast<uint64_t>(index) * tuple_strides[c];
    }
    for (uint64_t e = 0; e < slice; ++e) {
      combine(output.data() + (target + e) * element_size, updates.data() + (t * slice + e) * element_size, type,
              reduction);
    }
  }
  return output;
}

}  // namespace vkindex::bench
