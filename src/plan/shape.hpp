// Shape arithmetic shared by the planners: overflow-checked element counts and printable shapes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vkindex/data_type.hpp"
#include "vkindex/status.hpp"

namespace vkindex::plan {

using Shape = std::vector<int64_t>;

// The largest value a 32-bit push constant or shader word holds.
inline constexpr uint64_t kMax32 = 0xFFFFFFFFull;

// A dim, index or attribute value as the planners' messages print it.
inline std::string str(int64_t value) { return std::to_string(value); }

// Product of dims[begin, end), or nullopt if a dim is negative or the product overflows 63 bits.
std::optional<uint64_t> productOf(const Shape& dims, size_t begin, size_t end);
inline std::optional<uint64_t> elementCount(const Shape& dims) { return productOf(dims, 0, dims.size()); }

// Ok when `output` has a countable element count whose bytes (at up to 16 per element) fit 63 bits;
// else "<op>: the output shape [..] is too large".
Status checkOutputShape(const std::string& op, const Shape& output);

// Ok for the 16 classic types; for a low-precision one (float8, 4-bit), which ONNX allows in
// TensorScatter only, "<op>: input '<input>' has type int4, which <op> does not take (...)".
Status checkClassicType(const std::string& op, const char* input, DataType type);

// "[2, 3, 4]"; a scalar is "[]".
std::string shapeString(const Shape& dims);

// Row-major coordinates of flat position `position` in `dims`, printed "[1, 0, 2]".
std::string coordinatesString(const Shape& dims, uint64_t position);

}  // namespace vkindex::plan
