#include "host_data.hpp"

#include <cstring>

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
  size_t width = elementSize(type);
  std::vector<uint8_t> bytes(count * width);
  uint64_t state = seed;
  for (uint64_t i = 0; i < count; ++i) {
    int64_t value = static_cast<int64_t>(nextRandom(state) % static_cast<uint64_t>(axis_size));
    if (type == DataType::kInt32) {
      int32_t narrow = static_cast<int32_t>(value);
      std::memcpy(bytes.data() + i * width, &narrow, width);
    } else {
      std::memcpy(bytes.data() + i * width, &value, width);
    }
  }
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

}  // namespace vkindex::bench
