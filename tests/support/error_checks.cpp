#include "support/error_checks.hpp"

#include <gtest/gtest.h>

namespace vkindex::test {

Status runIntoCanary(Context& context, DataType dtype, const Shape& output_shape,
                     const std::function<Status(Tensor& output)>& op) {
  // 0xA5: not a plausible value of any type, and no two-byte or four-byte half of a real element.
  HostTensor canary;
  canary.dtype = dtype;
  canary.shape = output_shape;
  canary.bytes.assign(packedByteSize(dtype, canary.elementCount()), 0xA5);
  StatusOr<Tensor> output = toDevice(context, canary);
  EXPECT_TRUE(output.ok()) << output.status().toString();
  if (!output.ok()) return output.status();
  Status status = op(*output);
  StatusOr<HostTensor> after = toHost(*output);
  EXPECT_TRUE(after.ok()) << after.status().toString();
  if (!status.ok() && after.ok()) {
    EXPECT_EQ(after->bytes, canary.bytes) << "the output was written despite the error";
  }
  return status;
}

std::string coordinateText(uint64_t position, const Shape& shape) {
  std::vector<int64_t> coordinate(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coordinate[d] = static_cast<int64_t>(position % static_cast<uint64_t>(shape[d]));
    position /= static_cast<uint64_t>(shape[d]);
  }
  std::string text;
  for (size_t d = 0; d < coordinate.size(); ++d) text += (d ? ", " : "") + std::to_string(coordinate[d]);
  return text;
}

std::string allowedRangeText(int64_t s) {
  if (s == 0) return " (an empty axis admits no index)";
  return " (allowed [" + std::to_string(-s) + ", " + std::to_string(s - 1) + "])";
}

std::string axisIndexMessage(const std::string& op, const Shape& data_shape, const HostTensor& indices, int64_t axis,
                             uint64_t position) {
  const int64_t a = axis < 0 ? axis + static_cast<int64_t>(data_shape.size()) : axis;
  const int64_t s = data_shape[static_cast<size_t>(a)];
  return op + ": indices[" + coordinateText(position, indices.shape) +
         "] = " + std::to_string(indexAt(indices, position)) + " is out of range for axis " + std::to_string(a) +
         " of size " + std::to_string(s) + allowedRangeText(s);
}

std::string tupleIndexMessage(const std::string& op, const Shape& data_shape, const HostTensor& indices,
                              int64_t batch_dims, uint64_t position) {
  const uint64_t k = static_cast<uint64_t>(indices.shape.back());
  const Shape tuple_shape(indices.shape.begin(), indices.shape.end() - 1);
  const uint64_t component = position % k;
  const size_t dim = static_cast<size_t>(batch_dims) + component;
  const int64_t s = data_shape[dim];
  return op + ": indices[" + coordinateText(position / k, tuple_shape) + "] (component " + std::to_string(component) +
         ") = " + std::to_string(indexAt(indices, position)) + " is out of range for data dim " + std::to_string(dim) +
         " of size " + std::to_string(s) + allowedRangeText(s);
}

std::vector<int64_t> hostileIndexValues(DataType index_type, int64_t s) {
  if (index_type == DataType::kInt32) return {s, -s - 1, INT32_MIN, INT32_MAX};
  return {s, -s - 1, (int64_t{1} << 32) + 1, -(int64_t{1} << 32) + 1, INT64_MIN, INT64_MAX};
}

std::vector<HostileIndex> hostileIndexCases(int64_t s) {
  std::vector<HostileIndex> cases;
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    for (int64_t value : hostileIndexValues(index_type, s)) cases.push_back({index_type, value});
  }
  cases.push_back({DataType::kInt64, int64_t{1} << 32});
  return cases;
}

std::vector<int64_t> laterBadElementIndices() {
  std::vector<int64_t> values(3 * 4 * 5, 1);
  values[1 * 20 + 2 * 5 + 3] = 7;
  values[2 * 20 + 0 * 5 + 0] = INT32_MIN;
  values[2 * 20 + 3 * 5 + 4] = -8;
  return values;
}

std::vector<int64_t> laterBadTupleIndices() {
  std::vector<int64_t> values(2 * 3 * 3, 0);
  values[(0 * 3 + 1) * 3 + 2] = -7;
  values[(1 * 3 + 0) * 3 + 0] = INT32_MAX;
  values[(1 * 3 + 2) * 3 + 1] = 5;
  return values;
}

std::vector<int64_t> tuplesWithOneValue(size_t component, int64_t value) {
  std::vector<int64_t> values = {4, -5, 0, 1, -1, 3, 2, -2, 1, 0, -3, 4};
  values[6 + component] = value;
  return values;
}

std::vector<int64_t> steppedIndexValues(size_t count, int64_t s) {
  std::vector<int64_t> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<int64_t>(i * 7 % static_cast<uint64_t>(2 * s)) - s;
  return values;
}

}  // namespace vkindex::test
