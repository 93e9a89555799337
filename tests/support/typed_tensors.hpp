// Small host tensors written out by hand in the directed tests: from float values, from float bit
// patterns, from integers, and of any float-like type from exact values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/host_tensor.hpp"

namespace vkindex::test {

// A float32 tensor of `values` (row-major).
HostTensor floats(Shape shape, const std::vector<float>& values);

// A float32 tensor of the bit patterns `values` (NaN payloads, signed zeros and denormals kept).
HostTensor floatBitsTensor(Shape shape, const std::vector<uint32_t>& values);

// An integer tensor of `dtype` (any width) from 64-bit values, each truncated to the type's width.
HostTensor integers(DataType dtype, Shape shape, const std::vector<uint64_t>& values);

// A tensor of float16, bfloat16, float32, float64, complex64 or complex128 from `values`, one per
// component (complex: re, im per element), each exactly representable in the component type.
HostTensor realTensor(DataType dtype, Shape shape, const std::vector<double>& values);

// A string tensor of `values` (row-major).
HostTensor stringTensor(Shape shape, std::vector<std::string> values);

}  // namespace vkindex::test
