#include "proto_file.hpp"

#include <climits>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "base/host_memory.hpp"

namespace vkindex::onnxio {
namespace {

// protobuf refuses messages of 2 GiB and more; saying so up front beats a vague parse failure.
constexpr uintmax_t kMaxMessageBytes = INT_MAX;

Status readWholeFile(const std::string& path, std::string* bytes) {
  namespace fs = std::filesystem;
  // The error_code overloads keep std::filesystem from throwing (vkindex builds without exceptions).
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return invalidArgument(path + ": cannot open file (it does not exist)");
  if (!fs::is_regular_file(status)) return invalidArgument(path + ": not a regular file");
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) return invalidArgument(path + ": cannot read the file size: " + ec.message());
  if (size > kMaxMessageBytes) {
    return unsupported(path + ": file has " + std::to_string(size) + " bytes; protobuf messages must be under 2 GiB");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidArgument(path + ": cannot open file for reading");
  VKINDEX_RETURN_IF_ERROR(checkHostAllocation(size, path + ": reading the file"));
  bytes->resize(static_cast<size_t>(size));
  in.read(bytes->data(), static_cast<std::streamsize>(size));
  if (static_cast<uintmax_t>(in.gcount()) != size) {
    return invalidArgument(path + ": read " + std::to_string(in.gcount()) + " of " + std::to_string(size) + " bytes");
  }
  return Status::Ok();
}

}  // namespace

Status parseProtoFile(const std::string& path, const char* type_name, google::protobuf::MessageLite* message) {
  std::string bytes;
  VKINDEX_RETURN_IF_ERROR(readWholeFile(path, &bytes));
  // An empty file parses as an empty message; reject it here so the error says what really happened.
  if (bytes.empty()) return invalidArgument(path + ": file is empty (expected a serialized ONNX " + type_name + ")");
  // Parsing copies every bytes field (a tensor's raw_data: nearly the whole file) out of the buffer,
  // so the message needs about as much memory again while the file is still held.
  VKINDEX_RETURN_IF_ERROR(checkHostAllocation(bytes.size(), path + ": parsing the file"));
  // ParseFromString reports malformed wire data by returning false; it never throws or aborts.
  if (!message->ParseFromString(bytes)) {
    return invalidArgument(path + ": not a valid ONNX " + type_name + " (truncated or corrupted)");
  }
  return Status::Ok();
}

}  // namespace vkindex::onnxio
