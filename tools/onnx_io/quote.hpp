// Quoting names taken from files for use in error messages. Internal to onnx_io.
#pragma once

#include <string>

namespace vkindex::onnxio {

// Returns 'name' in single quotes with control bytes escaped as \xNN and long names shortened, so a
// corrupted name can never break an error message across lines or flood it.
std::string quoteName(const std::string& name);

}  // namespace vkindex::onnxio
