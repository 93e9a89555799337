#include "plan/scatter_windows.hpp"

#include <algorithm>

namespace vkindex::plan {
namespace {

Status tooLargeToBind(const ScatterShape& shape, uint64_t bytes, const char* what, const DeviceInfo& device) {
  return unsupported(scatterName(shape.kind) + ": " + what + " of " + std::to_string(bytes) +
                     " bytes is more than this device can bind at once (maxStorageBufferRange " +
                     std::to_string(device.max_storage_buffer_range) + ")");
}

}  // namespace

Bound bindBytes(const Placement& tensor, uint64_t begin, uint64_t end, const DeviceInfo& device) {
  uint64_t lead = 0;
  Bound bound;
  bound.window = windowFor(tensor.offset + begin, tensor.offset + end, device, &lead);
  const int64_t start = static_cast<int64_t>(tensor.offset) - static_cast<int64_t>(bound.window.offset);
  bound.word = static_cast<uint32_t>(start / 4);  // both are multiples of 4; negative wraps modulo 2^32
  return bound;
}

bool fitsOneBinding(const Placement& tensor, const DeviceInfo& device) {
  return bindBytes(tensor, 0, tensor.bytes, device).window.size <= device.max_storage_buffer_range;
}

StatusOr<std::vector<TargetRange>> targetRanges(const ScatterShape& shape, const Placement& output,
                                                const DeviceInfo& device) {
  const uint64_t element_bytes = shape.element_bytes, elements = output.bytes / element_bytes;
  if (fitsOneBinding(output, device)) {
    return std::vector<TargetRange>{{0, kMax32, bindBytes(output, 0, output.bytes, device)}};
  }
  const uint64_t granule = shape.kind == ScatterKind::kND ? shape.slice_elements : 1;
  const uint64_t per_range = windowCapacity(device) / (granule * element_bytes) * granule;
  if (per_range == 0) return tooLargeToBind(shape, granule * element_bytes, "a slice", device);
  std::vector<TargetRange> ranges;
  for (uint64_t begin = 0; begin < elements; begin += per_range) {
    const uint64_t end = std::min(elements, begin + per_range);
    ranges.push_back({begin, end, bindBytes(output, begin * element_bytes, end * element_bytes, device)});
  }
  return ranges;
}

StatusOr<std::vector<SourceRun>> tupleRuns(const ScatterShape& shape, const Placement& updates,
                                           const Placement& indices, const DeviceInfo& device) {
  const uint64_t tuples = shape.check.tuple_count, slice = shape.slice_elements;
  const uint64_t slice_bytes = slice * shape.element_bytes, tuple_bytes = tupleBytes(shape.check);
  const auto run = [&](uint64_t t0, uint64_t t1) {
    return SourceRun{0,
                     slice,
                     t0,
                     t1,
                     bindBytes(updates, t0 * slice_bytes, t1 * slice_bytes, device),
                     bindBytes(indices, t0 * tuple_bytes, t1 * tuple_bytes, device)};
  };
  if (fitsOneBinding(updates, device) && fitsOneBinding(indices, device)) return std::vector<SourceRun>{run(0, tuples)};
  const uint64_t capacity = windowCapacity(device);
  // Tuples of no components (k = 0) take no index bytes: then only the updates bound a run.
  const uint64_t per_run =
      tuple_bytes == 0 ? capacity / slice_bytes : std::min(capacity / slice_bytes, capacity / tuple_bytes);
  if (per_run == 0) {
    return slice_bytes > capacity ? tooLargeToBind(shape, slice_bytes, "a slice", device)
                                  : tooLargeToBind(shape, tuple_bytes, "an index tuple", device);
  }
  std::vector<SourceRun> runs;
  for (uint64_t t0 = 0; t0 < tuples; t0 += per_run) runs.push_back(run(t0, std::min(tuples, t0 + per_run)));
  return runs;
}

StatusOr<std::vector<SourceRun>> lineRuns(const ScatterShape& shape, const Placement& updates, const Placement& indices,
                                          const DeviceInfo& device) {
  uint64_t inner = 1;
  for (size_t d = shape.axis_dim + 1; d < shape.dims.size(); ++d) inner *= shape.dims[d].extent;
  const uint64_t X = shape.axis_extent, B = inner, outer = shape.lines / B;
  const uint64_t index_bytes = tupleBytes(shape.check);
  const auto position = [&](uint64_t line, uint64_t a) { return (line / B) * X * B + a * B + line % B; };
  const auto run = [&](uint64_t l0, uint64_t l1, uint64_t a0, uint64_t a1) {
    const uint64_t p0 = position(l0, a0), p1 = position(l1 - 1, a1 - 1) + 1;
    return SourceRun{l0,
                     l1,
                     a0,
                     a1,
                     bindBytes(updates, p0 * shape.element_bytes, p1 * shape.element_bytes, device),
                     bindBytes(indices, p0 * index_bytes, p1 * index_bytes, device)};
  };
  if (fitsOneBinding(updates, device) && fitsOneBinding(indices, device)) {
    return std::vector<SourceRun>{run(0, shape.lines, 0, X)};
  }
  const uint64_t per_position = std::max<uint64_t>(shape.element_bytes, index_bytes);
  const uint64_t positions = windowCapacity(device) / per_position;  // per window
  if (positions == 0) return tooLargeToBind(shape, per_position, "an element", device);
  std::vector<SourceRun> runs;
  if (X * B <= positions) {
    const uint64_t group = positions / (X * B);
    for (uint64_t o = 0; o < outer; o += group) runs.push_back(run(o * B, std::min(outer, o + group) * B, 0, X));
  } else if (B <= positions) {
    const uint64_t span = positions / B;
    for (uint64_t o = 0; o < outer; ++o) {
      for (uint64_t a = 0; a < X; a += span) runs.push_back(run(o * B, (o + 1) * B, a, std::min(X, a + span)));
    }
  } else {
    for (uint64_t o = 0; o < outer; ++o) {
      for (uint64_t a = 0; a < X; ++a) {
        for (uint64_t b = 0; b < B; b += positions) {
          runs.push_back(run(o * B + b, o * B + std::min(B, b + positions), a, a + 1));
        }
      }
    }
  }
  return runs;
}

}  // namespace vkindex::plan
