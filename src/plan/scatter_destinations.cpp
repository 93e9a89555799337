#include "plan/scatter_destinations.hpp"

#include <cassert>
#include <cstring>

namespace vkindex::plan {
namespace {

// Element `i` of the indices, normalized into [0, extent): ONNX's negative indices count from the end.
// Under the skip policy a value outside [0, extent) gives kSkippedDestination instead (nothing wraps).
uint64_t indexAt(const ScatterShape& shape, const std::vector<uint8_t>& index_bytes, uint64_t i, uint64_t extent) {
  int64_t value = 0;
  if (shape.check.index_type == DataType::kInt32) {
    int32_t narrow = 0;
    std::memcpy(&narrow, index_bytes.data() + i * sizeof(narrow), sizeof(narrow));
    value = narrow;
  } else {
    std::memcpy(&value, index_bytes.data() + i * sizeof(value), sizeof(value));
  }
  if (shape.check.policy == IndexPolicy::kSkip) {
    return value >= 0 && static_cast<uint64_t>(value) < extent ? static_cast<uint64_t>(value) : kSkippedDestination;
  }
  const int64_t normalized = value < 0 ? value + static_cast<int64_t>(extent) : value;
  assert(normalized >= 0 && static_cast<uint64_t>(normalized) < extent && "indices are checked first");
  return static_cast<uint64_t>(normalized);
}

// ScatterElements: update p sits at p's coordinates over the coalesced dims of indices; it lands at the
// same coordinates in data, the axis coordinate replaced by the index value.
std::vector<uint64_t> elementsDestinations(const ScatterShape& shape, const std::vector<uint8_t>& index_bytes) {
  const uint64_t count = shape.check.tuple_count;
  std::vector<uint64_t> destinations(count);
  for (uint64_t p = 0; p < count; ++p) {
    uint64_t rest = p, destination = 0;
    for (size_t d = shape.dims.size(); d-- > 0 && destination != kSkippedDestination;) {
      const ElementDim& dim = shape.dims[d];
      uint64_t coordinate = rest % dim.extent;
      rest /= dim.extent;
      if (d == shape.axis_dim) coordinate = indexAt(shape, index_bytes, p, dim.data_extent);
      destination =
          coordinate == kSkippedDestination ? kSkippedDestination : destination + coordinate * dim.data_stride;
    }
    destinations[p] = destination;
  }
  return destinations;
}

// ScatterND: tuple t addresses data's first k dims; its slice of updates lands on the slice there.
std::vector<uint64_t> ndDestinations(const ScatterShape& shape, const std::vector<uint8_t>& index_bytes) {
  const std::vector<uint64_t>& extents = shape.check.extents;
  const size_t k = extents.size();
  std::vector<uint64_t> strides(k, shape.slice_elements);
  for (size_t c = k; c-- > 1;) strides[c - 1] = strides[c] * extents[c];
  std::vector<uint64_t> destinations(shape.check.tuple_count * shape.slice_elements);
  for (uint64_t t = 0; t < shape.check.tuple_count; ++t) {
    uint64_t base = 0;
    bool skipped = false;
    for (size_t c = 0; c < k && !skipped; ++c) {
      const uint64_t index = indexAt(shape, index_bytes, t * k + c, extents[c]);
      skipped = index == kSkippedDestination;
      if (!skipped) base += index * strides[c];
    }
    for (uint64_t s = 0; s < shape.slice_elements; ++s) {
      destinations[t * shape.slice_elements + s] = skipped ? kSkippedDestination : base + s;
    }
  }
  return destinations;
}

}  // namespace

std::vector<uint64_t> scatterDestinations(const ScatterShape& shape, const std::vector<uint8_t>& index_bytes) {
  return shape.kind == ScatterKind::kElements ? elementsDestinations(shape, index_bytes)
                                              : ndDestinations(shape, index_bytes);
}

}  // namespace vkindex::plan
