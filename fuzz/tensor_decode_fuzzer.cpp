// Fuzzes the tensor decoder: arbitrary bytes parsed as a TensorProto (what readTensorFile does with a
// .pb file, minus the file) and decoded into a HostTensor. Malformed input must give an error with a
// message, never a crash; a decoded tensor must be self-consistent (decoded_tensor_check.hpp).
#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>

#include "decoded_tensor_check.hpp"
#include "onnx_proto_decode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onnx::TensorProto proto;
  if (!proto.ParseFromArray(data, static_cast<int>(size))) return 0;
  vkindex::StatusOr<vkindex::onnxio::HostTensor> tensor = vkindex::onnxio::decodeTensorProto(proto, "fuzz.pb");
  if (!tensor.ok()) {
    vkindex::fuzz::check(!tensor.status().message().empty(), "an error without a message");
    return 0;
  }
  vkindex::fuzz::checkDecodedTensor(*tensor, "decoded tensor");
  return 0;
}
