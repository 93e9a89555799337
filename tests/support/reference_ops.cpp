#include "support/reference_ops.hpp"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>

#include "support/reduction_reference.hpp"

namespace vkindex::test {
namespace {

std::vector<uint64_t> rowMajorStrides(const Shape& shape) {
  std::vector<uint64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * static_cast<uint64_t>(shape[i]);
  return strides;
}

// Row-major coordinates of flat position `p` in `shape`.
std::vector<int64_t> coordinatesOf(uint64_t p, const Shape& shape) {
  std::vector<int64_t> coordinates(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coordinates[d] = static_cast<int64_t>(p % static_cast<uint64_t>(shape[d]));
    p /= static_cast<uint64_t>(shape[d]);
  }
  return coordinates;
}

// Flat row-major position of `coordinates` in `shape`.
uint64_t positionOf(const std::vector<int64_t>& coordinates, const Shape& shape) {
  uint64_t position = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    position = position * static_cast<uint64_t>(shape[d]) + static_cast<uint64_t>(coordinates[d]);
  }
  return position;
}

// ONNX's index range for an axis of size s: [-s, s-1] (empty when s = 0).
bool inRange(int64_t value, int64_t s) { return value >= -s && value < s; }

// IndexPolicy::kSkip: an index outside [0, s-1] addresses nothing (kError: never, the check decides).
bool skipped(IndexPolicy policy, int64_t value, int64_t s) {
  return policy == IndexPolicy::kSkip && (value < 0 || value >= s);
}

// ONNX: every index lies in [-s, s-1]. The first one that does not, in row-major order of indices,
// is what the operators report; nullopt when all are valid.
std::optional<uint64_t> firstIndexOutOfRange(const HostTensor& indices, int64_t s) {
  const uint64_t count = indices.elementCount();
  for (uint64_t p = 0; p < count; ++p) {
    if (!inRange(indexAt(indices, p), s)) return p;
  }
  return std::nullopt;
}

// An output of `shape` with data's type, zero bytes or empty strings, ready to be filled.
HostTensor emptyOutput(const HostTensor& data, Shape shape) {
  HostTensor out;
  out.dtype = data.dtype;
  out.shape = std::move(shape);
  if (data.dtype == DataType::kString) {
    out.strings.resize(out.elementCount());
  } else {
    out.bytes.resize(out.elementCount() * elementSize(data.dtype));
  }
  return out;
}

// out[to] = data[from], one element (bytes or string).
void copyElement(const HostTensor& data, uint64_t from, HostTensor& out, uint64_t to) {
  if (data.dtype == DataType::kString) {
    out.strings[to] = data.strings[from];
    return;
  }
  const size_t width = elementSize(data.dtype);
  std::memcpy(out.bytes.data() + to * width, data.bytes.data() + from * width, width);
}

// out[to] = reduction(out[to], updates[from]); kNone replaces (every type, strings too), and add on
// strings appends.
void combineElement(const HostTensor& updates, uint64_t from, HostTensor& out, uint64_t to, Reduction reduction) {
  if (reduction == Reduction::kNone) {
    copyElement(updates, from, out, to);
    return;
  }
  if (out.dtype == DataType::kString) {
    assert(reduction == Reduction::kAdd && "the only reduction strings define");
    out.strings[to] += updates.strings[from];
    return;
  }
  const size_t width = elementSize(out.dtype);
  combineBytes(out.dtype, reduction, out.bytes.data() + to * width, updates.bytes.data() + from * width);
}

}  // namespace

ReferenceResult referenceGather(const HostTensor& data, const HostTensor& indices, int64_t axis, IndexPolicy policy) {
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  if (axis < 0) axis += rank;
  const int64_t s = data.shape[static_cast<size_t>(axis)];

  ReferenceResult result;
  if (policy == IndexPolicy::kError) result.bad_index_position = firstIndexOutOfRange(indices, s);
  if (result.bad_index_position) return result;

  HostTensor& out = result.output;
  out.dtype = data.dtype;
  out.shape.assign(data.shape.begin(), data.shape.begin() + axis);
  out.shape.insert(out.shape.end(), indices.shape.begin(), indices.shape.end());
  out.shape.insert(out.shape.end(), data.shape.begin() + axis + 1, data.shape.end());
  const uint64_t count = out.elementCount();
  const size_t width = elementSize(data.dtype);
  if (data.dtype == DataType::kString) {
    out.strings.resize(count);
  } else {
    out.bytes.resize(count * width);
  }

  const std::vector<uint64_t> out_strides = rowMajorStrides(out.shape);
  const std::vector<uint64_t> data_strides = rowMajorStrides(data.shape);
  const std::vector<uint64_t> index_strides = rowMajorStrides(indices.shape);
  const size_t q = indices.shape.size();
  for (uint64_t p = 0; p < count; ++p) {
    // Output coordinate -> (outer coords, index coords, inner coords).
    uint64_t rest = p, data_position = 0, index_position = 0;
    for (size_t d = 0; d < out.shape.size(); ++d) {
      uint64_t coordinate = rest / out_strides[d];
      rest %= out_strides[d];
      if (d < static_cast<size_t>(axis)) {
        data_position += coordinate * data_strides[d];
      } else if (d < static_cast<size_t>(axis) + q) {
        index_position += coordinate * index_strides[d - static_cast<size_t>(axis)];
      } else {
        data_position += coordinate * data_strides[d - q + 1];
      }
    }
    int64_t index = indexAt(indices, index_position);
    if (skipped(policy, index, s)) continue;  // the zero (or empty) element emptyOutput left
    if (index < 0) index += s;
    data_position += static_cast<uint64_t>(index) * data_strides[static_cast<size_t>(axis)];
    if (data.dtype == DataType::kString) {
      out.strings[p] = data.strings[data_position];
    } else {
      std::memcpy(out.bytes.data() + p * width, data.bytes.data() + data_position * width, width);
    }
  }
  return result;
}

ReferenceResult referenceGatherElements(const HostTensor& data, const HostTensor& indices, int64_t axis,
                                        IndexPolicy policy) {
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  assert(rank >= 1 && indices.shape.size() == data.shape.size() && axis >= -rank && axis < rank);
  if (axis < 0) axis += rank;
  const size_t a = static_cast<size_t>(axis);
  const int64_t s = data.shape[a];

  ReferenceResult result;
  if (policy == IndexPolicy::kError) result.bad_index_position = firstIndexOutOfRange(indices, s);
  if (result.bad_index_position) return result;
  const uint64_t count = indices.elementCount();

  // out[i_0, ..., i_{r-1}] = data[i_0, ..., indices[i_0, ..., i_{r-1}], ..., i_{r-1}] (index at `axis`).
  result.output = emptyOutput(data, indices.shape);
  for (uint64_t p = 0; p < count; ++p) {
    std::vector<int64_t> coordinates = coordinatesOf(p, indices.shape);
    int64_t index = indexAt(indices, p);
    if (skipped(policy, index, s)) continue;  // zero
    coordinates[a] = index < 0 ? index + s : index;
    copyElement(data, positionOf(coordinates, data.shape), result.output, p);
  }
  return result;
}

ReferenceResult referenceGatherND(const HostTensor& data, const HostTensor& indices, int64_t batch_dims,
                                  IndexPolicy policy) {
  [[maybe_unused]] const size_t r = data.shape.size();  // only the preconditions use it
  const size_t q = indices.shape.size();
  assert(r >= 1 && q >= 1 && batch_dims >= 0 && static_cast<size_t>(batch_dims) < std::min(r, q));
  const size_t b = static_cast<size_t>(batch_dims);
  const size_t k = static_cast<size_t>(indices.shape[q - 1]);
  assert(k >= 1 && k <= r - b);

  ReferenceResult result;
  // Component c of every tuple lies in [-s, s-1] for s = data.shape[b + c]; the first bad element of
  // indices in row-major order (not the first bad tuple) is reported.
  const uint64_t index_count = indices.elementCount();
  for (uint64_t e = 0; e < index_count && policy == IndexPolicy::kError; ++e) {
    const size_t component = static_cast<size_t>(e % k);
    if (!inRange(indexAt(indices, e), data.shape[b + component])) {
      result.bad_index_position = e;
      return result;
    }
  }

  // Output: indices.shape[:-1] (the tuples, batch dims first) + data.shape[b + k:] (the slice).
  const Shape tuple_shape(indices.shape.begin(), indices.shape.end() - 1);
  const Shape slice_shape(data.shape.begin() + static_cast<std::ptrdiff_t>(b + k), data.shape.end());
  Shape out_shape = tuple_shape;
  out_shape.insert(out_shape.end(), slice_shape.begin(), slice_shape.end());
  result.output = emptyOutput(data, out_shape);

  // out[t..., j...] = data[t_0..t_{b-1}, tuple(t...) normalized, j...].
  const uint64_t count = result.output.elementCount();
  for (uint64_t p = 0; p < count; ++p) {
    const std::vector<int64_t> out_coordinates = coordinatesOf(p, out_shape);
    const auto slice_begin = out_coordinates.begin() + static_cast<std::ptrdiff_t>(q - 1);
    const std::vector<int64_t> tuple(out_coordinates.begin(), slice_begin);
    const uint64_t tuple_start = positionOf(tuple, tuple_shape) * k;
    std::vector<int64_t> data_coordinates(tuple.begin(), tuple.begin() + static_cast<std::ptrdiff_t>(b));
    bool tuple_skipped = false;
    for (size_t c = 0; c < k; ++c) {
      const int64_t s = data.shape[b + c];
      const int64_t index = indexAt(indices, tuple_start + c);
      tuple_skipped = tuple_skipped || skipped(policy, index, s);
      data_coordinates.push_back(index < 0 ? index + s : index);
    }
    if (tuple_skipped) continue;  // a zero slice
    data_coordinates.insert(data_coordinates.end(), slice_begin, out_coordinates.end());
    copyElement(data, positionOf(data_coordinates, data.shape), result.output, p);
  }
  return result;
}

ReferenceResult referenceScatterElements(const HostTensor& data, const HostTensor& indices, const HostTensor& updates,
                                         int64_t axis, Reduction reduction, IndexPolicy policy) {
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  assert(rank >= 1 && indices.shape.size() == data.shape.size() && axis >= -rank && axis < rank);
  assert(updates.shape == indices.shape && updates.dtype == data.dtype);
  if (axis < 0) axis += rank;
  const size_t a = static_cast<size_t>(axis);
  const int64_t s = data.shape[a];

  ReferenceResult result;
  if (policy == IndexPolicy::kError) result.bad_index_position = firstIndexOutOfRange(indices, s);
  if (result.bad_index_position) return result;
  const uint64_t count = indices.elementCount();

  // output = data; then, one by one in row-major order of indices,
  // output[i_0, ..., indices[i_0, ..., i_{r-1}], ..., i_{r-1}] (x)= updates[i_0, ..., i_{r-1}].
  result.output = data;
  for (uint64_t p = 0; p < count; ++p) {
    std::vector<int64_t> coordinates = coordinatesOf(p, indices.shape);
    const int64_t index = indexAt(indices, p);
    if (skipped(policy, index, s)) continue;  // takes no part
    coordinates[a] = index < 0 ? index + s : index;
    combineElement(updates, p, result.output, positionOf(coordinates, data.shape), reduction);
  }
  return result;
}

ReferenceResult referenceScatterND(const HostTensor& data, const HostTensor& indices, const HostTensor& updates,
                                   Reduction reduction, IndexPolicy policy) {
  const size_t r = data.shape.size();
  const size_t q = indices.shape.size();
  assert(r >= 1 && q >= 1);
  const size_t k = static_cast<size_t>(indices.shape[q - 1]);
  assert(k <= r && updates.dtype == data.dtype);

  ReferenceResult result;
  // Component c of every tuple lies in [-s, s-1] for s = data.shape[c]; the first bad element of
  // indices in row-major order (not the first bad tuple) is reported.
  const uint64_t index_count = indices.elementCount();
  for (uint64_t e = 0; e < index_count && policy == IndexPolicy::kError; ++e) {
    if (!inRange(indexAt(indices, e), data.shape[e % k])) {
      result.bad_index_position = e;
      return result;
    }
  }

  // updates: indices.shape[:-1] (one slice per tuple) + data.shape[k:] (the slice).
  const Shape slice_shape(data.shape.begin() + static_cast<std::ptrdiff_t>(k), data.shape.end());
  Shape expected_updates(indices.shape.begin(), indices.shape.end() - 1);
  expected_updates.insert(expected_updates.end(), slice_shape.begin(), slice_shape.end());
  assert(updates.shape == expected_updates);
  uint64_t slice_size = 1;
  for (int64_t dim : slice_shape) slice_size *= static_cast<uint64_t>(dim);

  // output = data; then, tuple by tuple in row-major order and within each slice in row-major order,
  // output[tuple normalized, j...] (x)= updates[tuple position, j...].
  result.output = data;
  // k = 0: every tuple is empty, has no element in indices, and addresses the whole of data.
  uint64_t tuple_count = 1;
  for (size_t d = 0; d + 1 < q; ++d) tuple_count *= static_cast<uint64_t>(indices.shape[d]);
  for (uint64_t t = 0; t < tuple_count; ++t) {
    std::vector<int64_t> data_coordinates(r, 0);
    bool tuple_skipped = false;
    for (size_t c = 0; c < k; ++c) {
      const int64_t index = indexAt(indices, t * k + c);
      tuple_skipped = tuple_skipped || skipped(policy, index, data.shape[c]);
      data_coordinates[c] = index < 0 ? index + data.shape[c] : index;
    }
    if (tuple_skipped) continue;  // its slice takes no part
    const uint64_t slice_start = positionOf(data_coordinates, data.shape);
    for (uint64_t j = 0; j < slice_size; ++j) {
      combineElement(updates, t * slice_size + j, result.output, slice_start + j, reduction);
    }
  }
  return result;
}

}  // namespace vkindex::test
