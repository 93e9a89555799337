// Proto-level entry points of onnx_io: decode messages that are already in memory. The file readers in
// onnx_io.hpp use these after parsing; tests use them on messages built with the protobuf API.
#pragma once

#include <string>

#include <onnx/onnx_pb.h>

#include "onnx_io.hpp"

namespace vkindex::onnxio {

// Decodes a TensorProto stored in raw_data or in any typed field. `origin` prefixes every error
// message (normally the file path, plus the enclosing attribute or initializer).
StatusOr<HostTensor> decodeTensorProto(const onnx::TensorProto& proto, const std::string& origin);

// Decodes one node attribute of the kinds vkindex ops use (numbers, strings, their lists, tensors).
// Attributes without a type are typed by the field they carry, as ONNX does for old models.
StatusOr<AttributeValue> decodeAttribute(const onnx::AttributeProto& proto, const std::string& origin);

// Decodes a ModelProto whose graph holds exactly one node. `origin` prefixes every error message.
StatusOr<NodeModel> decodeNodeModel(const onnx::ModelProto& model, const std::string& origin);

}  // namespace vkindex::onnxio
