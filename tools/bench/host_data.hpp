// Host-side inputs and expectations for the benchmark: deterministic pseudo-random bytes and indices,
// and plain CPU Gather, GatherElements, GatherND, ScatterElements and ScatterND to check the device's
// output against.
#pragma once

#include <cstdint>
#include <vector>

#include "vkindex/data_type.hpp"
#include "vkindex/reduction.hpp"
#include "vkindex/tensor.hpp"

namespace vkindex::bench {

// `count` bytes from a fixed-seed generator (the same bytes on every run, so results are comparable).
std::vector<uint8_t> randomBytes(uint64_t count, uint64_t seed);

// `count` index values in [0, axis_size), stored as little-endian int32 or int64 (`type`).
std::vector<uint8_t> randomIndices(DataType type, uint64_t count, int64_t axis_size, uint64_t seed);

// `values` stored like randomIndices (int32 or int64 `type`, little-endian), as an index tensor holds them.
std::vector<uint8_t> indexBytes(DataType type, const std::vector<int64_t>& values);

// `count` index values 0, 1, 2, ... wrapping at axis_size, stored like randomIndices: a gather with them
// reads its rows in order, so the bench can tell the kernel's own cost from the random access pattern's.
std::vector<uint8_t> ascendingIndices(DataType type, uint64_t count, int64_t axis_size);

// `tuple_count` GatherND index tuples of `component_sizes.size()` values each, component c in
// [0, component_sizes[c]), stored like randomIndices. With one component it draws randomIndices' values.
std::vector<uint8_t> randomIndexTuples(DataType type, uint64_t tuple_count, const Shape& component_sizes,
                                       uint64_t seed);

// ONNX Gather on the host, by bytes: element type only matters through `element_size`. Indices are
// int32 or int64 (`index_type`); negative values count from the back of the axis. `axis` is
// non-negative.
std::vector<uint8_t> cpuGather(const std::vector<uint8_t>& data, const Shape& data_shape, size_t element_size,
                               const std::vector<uint8_t>& indices, DataType index_type, int64_t axis);

// ONNX GatherElements on the host, by bytes: the output has indices' shape, and each output element is
// data's element at the output's coordinates with coordinate `axis` replaced by the index. `axis` is
// non-negative; indices as in cpuGather.
std::vector<uint8_t> cpuGatherElements(const std::vector<uint8_t>& data, const Shape& data_shape, size_t element_size,
                                       const std::vector<uint8_t>& indices, const Shape& indices_shape,
                                       DataType index_type, int64_t axis);

// ONNX GatherND on the host, by bytes: for each batch (data's first `batch_dims` dims) and each index
// tuple (indices' last dim), copies the data slice the tuple addresses. Indices as in cpuGather.
std::vector<uint8_t> cpuGatherND(const std::vector<uint8_t>& data, const Shape& data_shape, size_t element_size,
                                 const std::vector<uint8_t>& indices, const Shape& indices_shape, DataType index_type,
                                 int64_t batch_dims);

// `count` float32 values k/64 for k in [-1000, 1000]: sums of a few hundred of them are exact, so float
// add reductions have one right answer whatever the order and denormal mode.
std::vector<uint8_t> smallFloats(uint64_t count, uint64_t seed);

// A random permutation of 0..n-1 (Fisher-Yates on the fixed-seed generator).
std::vector<int64_t> randomPermutation(int64_t n, uint64_t seed);

// ONNX ScatterElements and ScatterND on the host, by bytes: output = data, then each update in index
// order (row-major position in indices) replaces its target (kNone), is added to it (kAdd) or replaces
// it when larger (kMax). Reductions take float32 (without NaN or -0 for kMax) or int32 (wrapping add);
// kNone any type. Indices are int64 (the benchmark's scatters use no other); negative values count from
// the back. `axis` is non-negative.
std::vector<uint8_t> cpuScatterElements(const std::vector<uint8_t>& data, const Shape& data_shape, DataType type,
                                        const std::vector<int64_t>& indices, const Shape& indices_shape,
                                        const std::vector<uint8_t>& updates, int64_t axis, Reduction reduction);
std::vector<uint8_t> cpuScatterND(const std::vector<uint8_t>& data, const Shape& data_shape, DataType type,
                                  const std::vector<int64_t>& indices, const Shape& indices_shape,
                                  const std::vector<uint8_t>& updates, Reduction reduction);

// Product of the dims.
uint64_t elementCount(const Shape& shape);

}  // namespace vkindex::bench
