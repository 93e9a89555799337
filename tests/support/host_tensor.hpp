// A tensor in host memory for tests: the reference implementations take and return these, and the
// GPU tests convert them to and from vkindex::Tensor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkindex/vkindex.hpp"

namespace vkindex::test {

struct HostTensor {
  DataType dtype = DataType::kFloat32;
  Shape shape;
  std::vector<uint8_t> bytes;        // packed little-endian elements (empty for strings)
  std::vector<std::string> strings;  // string tensors only

  uint64_t elementCount() const;
};

// Index values as a host tensor of int32 or int64.
HostTensor indexTensor(DataType index_type, Shape shape, const std::vector<int64_t>& values);
// Reads element `i` of an int32/int64 tensor as int64.
int64_t indexAt(const HostTensor& indices, uint64_t i);

// Device copy of `host` (string tensors keep their strings on the host).
StatusOr<Tensor> toDevice(Context& context, const HostTensor& host);
// Host copy of `tensor`.
StatusOr<HostTensor> toHost(const Tensor& tensor);

// "dtype [shape]" for test messages.
std::string describe(const HostTensor& tensor);

}  // namespace vkindex::test
