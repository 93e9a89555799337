// Byte-exact comparison of an operator's output with a node test's expected output, with a message
// naming the first mismatching position and both values.
#pragma once

#include <optional>
#include <string>

#include "onnx_io.hpp"

namespace vkindex::tools {

// nullopt when `actual` equals `expected` in type, shape and every byte (or string); otherwise what
// differs, e.g. "output 0 differs at [1, 2]: got 3.5, expected 4".
std::optional<std::string> compareTensors(const onnxio::HostTensor& actual, const onnxio::HostTensor& expected,
                                          size_t output_index);

// One element printed for people: numbers in decimal (float16/bfloat16 decoded, with their bits),
// complex as (re, im), strings quoted, escaped and capped (onnxio::printableText).
std::string formatElement(const onnxio::HostTensor& tensor, uint64_t index);

}  // namespace vkindex::tools
