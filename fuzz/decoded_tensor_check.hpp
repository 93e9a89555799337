// What every tensor the ONNX reader hands out must satisfy, whatever file it came from: exactly the
// elements its dims promise, which the CLI and the node runner rely on when they copy `bytes` into
// device tensors.
#pragma once

#include <string>

#include "fuzz_check.hpp"
#include "onnx_io.hpp"

namespace vkindex::fuzz {

inline void checkDecodedTensor(const onnxio::HostTensor& tensor, const std::string& what) {
  const int64_t count = tensor.elementCount();
  check(count >= 0, what + ": a negative element count");
  if (tensor.dtype == DataType::kString) {
    check(tensor.bytes.empty() && tensor.strings.size() == static_cast<uint64_t>(count),
          what + ": a string tensor whose strings do not match its dims");
  } else {
    check(tensor.strings.empty() && tensor.bytes.size() == packedByteSize(tensor.dtype, static_cast<uint64_t>(count)),
          what + ": a tensor whose bytes do not match its dims and element size (4-bit types: packed pairs)");
  }
}

}  // namespace vkindex::fuzz
