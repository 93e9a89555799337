// Reading a serialized protobuf message from disk with errors that name the file. Internal to onnx_io.
#pragma once

#include <string>

#include <google/protobuf/message_lite.h>

#include "vkindex/status.hpp"

namespace vkindex::onnxio {

// Reads the whole file at `path` and parses it into `message`. `type_name` ("TensorProto",
// "ModelProto") appears in the error when the bytes are not a valid message of that type.
Status parseProtoFile(const std::string& path, const char* type_name, google::protobuf::MessageLite* message);

}  // namespace vkindex::onnxio
