// Host-side inputs and expectations for the benchmark: deterministic pseudo-random bytes and indices,
// and a plain CPU Gather to check the device's output against.
#pragma once

#include <cstdint>
#include <vector>

#include "vkindex/data_type.hpp"
#include "vkindex/tensor.hpp"

namespace vkindex::bench {

// `count` bytes from a fixed-seed generator (the same bytes on every run, so results are comparable).
std::vector<uint8_t> randomBytes(uint64_t count, uint64_t seed);

// `count` index values in [0, axis_size), stored as little-endian int32 or int64 (`type`).
std::vector<uint8_t> randomIndices(DataType type, uint64_t count, int64_t axis_size, uint64_t seed);

// ONNX Gather on the host, by bytes: element type only matters through `element_size`. Indices are
// int32 or int64 (`index_type`); negative values count from the back of the axis. `axis` is
// non-negative.
std::vector<uint8_t> cpuGather(const std::vector<uint8_t>& data, const Shape& data_shape, size_t element_size,
                               const std::vector<uint8_t>& indices, DataType index_type, int64_t axis);

// Product of the dims.
uint64_t elementCount(const Shape& shape);

}  // namespace vkindex::bench
