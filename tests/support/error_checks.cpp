#include "support/error_checks.hpp"

#include <gtest/gtest.h>

namespace vkindex::test {

Status runIntoCanary(Context& context, DataType dtype, const Shape& output_shape,
                     const std::function<Status(Tensor& output)>& op) {
  // 0xA5: not a plausible value of any type, and no two-byte or four-byte half of a real element.
  HostTensor canary;
  canary.dtype = dtype;
  canary.shape = output_shape;
  canary.bytes.assign(canary.elementCount() * elementSize(dtype), 0xA5);
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

std::vector<int64_t> hostileIndexValues(DataType index_type, int64_t s) {
  if (index_type == DataType::kInt32) return {s, -s - 1, INT32_MIN, INT32_MAX};
  return {s, -s - 1, (int64_t{1} << 32) + 1, -(int64_t{1} << 32) + 1, INT64_MIN, INT64_MAX};
}

}  // namespace vkindex::test
