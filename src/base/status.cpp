#include "vkindex/status.hpp"

namespace vkindex {

const char* statusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kOutOfRange: return "out of range";
    case StatusCode::kUnsupported: return "unsupported";
    case StatusCode::kDeviceError: return "device error";
    case StatusCode::kInternal: return "internal error";
    case StatusCode::kResourceExhausted: return "resource exhausted";
  }
  return "unknown";
}

std::string Status::toString() const {
  if (ok()) return "ok";
  return std::string(statusCodeName(code_)) + ": " + message_;
}

}  // namespace vkindex
