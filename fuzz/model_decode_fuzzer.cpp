// Fuzzes the model decoder: arbitrary bytes parsed as a ModelProto (what readNodeModel, the CLI's
// entry, does with model.onnx, minus the file) and decoded into a NodeModel. Malformed input must
// give an error with a message, never a crash; the tensors of a decoded model (initializers, tensor
// attributes) must be self-consistent (decoded_tensor_check.hpp).
#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>

#include "decoded_tensor_check.hpp"
#include "onnx_proto_decode.hpp"

using vkindex::onnxio::AttributeValue;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onnx::ModelProto proto;
  if (!proto.ParseFromArray(data, static_cast<int>(size))) return 0;
  vkindex::StatusOr<vkindex::onnxio::NodeModel> model = vkindex::onnxio::decodeNodeModel(proto, "model.onnx");
  if (!model.ok()) {
    vkindex::fuzz::check(!model.status().message().empty(), "an error without a message");
    return 0;
  }
  for (const auto& [name, tensor] : model->initializers) vkindex::fuzz::checkDecodedTensor(tensor, "initializer");
  for (const auto& [name, attribute] : model->attributes) {
    if (attribute.kind == AttributeValue::Kind::kTensor) {
      vkindex::fuzz::checkDecodedTensor(attribute.tensor, "tensor attribute");
    }
  }
  return 0;
}
