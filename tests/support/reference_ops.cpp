#include "support/reference_ops.hpp"

#include <cstring>

namespace vkindex::test {
namespace {

std::vector<uint64_t> rowMajorStrides(const Shape& shape) {
  std::vector<uint64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * static_cast<uint64_t>(shape[i]);
  return strides;
}

}  // namespace

ReferenceResult referenceGather(const HostTensor& data, const HostTensor& indices, int64_t axis) {
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  if (axis < 0) axis += rank;
  const int64_t s = data.shape[static_cast<size_t>(axis)];

  ReferenceResult result;
  // ONNX: every index must lie in [-s, s-1]; the first bad one (in row-major order) is reported.
  for (uint64_t i = 0; i < indices.elementCount(); ++i) {
    int64_t value = indexAt(indices, i);
    if (value < -s || value >= s) {
      result.bad_index_position = i;
      return result;
    }
  }

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

}  // namespace vkindex::test
