// Shared by the onnx_io tests (tools/onnx_io): where the official node tests are installed, scratch
// directories and files, the invariants every decoded tensor must satisfy, and builders for
// hand-made TensorProtos and ModelProtos.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "onnx_io.hpp"

namespace vkindex::onnxio::test {

namespace fs = std::filesystem;

inline constexpr char kNodeTestRoot[] = "/usr/share/libonnx-testdata/data/node";

// The directory of one official node test, e.g. "test_gather_0".
inline std::string nodeTestDir(const std::string& name) { return std::string(kNodeTestRoot) + "/" + name; }

#define SKIP_WITHOUT_TESTDATA() \
  if (!fs::is_directory(kNodeTestRoot)) GTEST_SKIP() << "libonnx-testdata is not installed at " << kNodeTestRoot

// A fresh directory under the system temp dir, removed with everything in it at scope exit.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The whole file, or an empty string when it cannot be read.
std::string readBytes(const std::string& path);
// Writes `bytes` to `path` (replacing it); fails the test when the write fails.
void writeBytes(const std::string& path, const std::string& bytes);
void writeProto(const std::string& path, const google::protobuf::MessageLite& message);

// Size invariants every successfully decoded tensor must satisfy.
void expectConsistent(const HostTensor& tensor);

// The values of a decoded tensor as T (the test fails, and gives no values, if T is the wrong type).
template <typename T>
std::vector<T> valuesOf(const HostTensor& tensor) {
  std::optional<std::vector<T>> values = tensorValues<T>(tensor);
  EXPECT_TRUE(values.has_value()) << "wrong element type for " << tensor.name;
  return values.value_or(std::vector<T>());
}

// A TensorProto named "x" of `type` and `dims`, with no data yet.
onnx::TensorProto makeTensor(onnx::TensorProto_DataType type, std::vector<int64_t> dims);

// Appends a tensor-typed ValueInfoProto to `list`.
onnx::ValueInfoProto* addValueInfo(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list,
                                   const std::string& name, int32_t elem_type, std::vector<int64_t> dims);

}  // namespace vkindex::onnxio::test
