// Robustness of onnx_io: damaged tensor files, model files and node-test directories (truncated,
// byte-flipped, garbage, missing) give a result or a Status naming the file, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <random>
#include <string>

#include "onnx_io.hpp"
#include "onnx_io_test_support.hpp"

namespace vkindex::onnxio::test {
namespace {

// Reads `path` with `read` and checks the outcome: ok with consistent data, or an error naming the file.
// Returns whether it was accepted.
bool readTensorOrNamedError(const std::string& path) {
  StatusOr<HostTensor> tensor = readTensorFile(path);
  if (tensor.ok()) {
    expectConsistent(*tensor);
    return true;
  }
  EXPECT_NE(tensor.status().message().find(path), std::string::npos) << tensor.status().toString();
  EXPECT_EQ(tensor.status().message().find('\n'), std::string::npos) << tensor.status().toString();
  return false;
}

bool readModelOrNamedError(const std::string& path) {
  StatusOr<NodeModel> model = readNodeModel(path);
  if (model.ok()) {
    EXPECT_FALSE(model->op_type.empty());
    EXPECT_GE(model->opset, 1);
    for (const auto& entry : model->initializers) expectConsistent(entry.second);
    return true;
  }
  EXPECT_NE(model.status().message().find(path), std::string::npos) << model.status().toString();
  EXPECT_EQ(model.status().message().find('\n'), std::string::npos) << model.status().toString();
  return false;
}

// Runs `check` on truncated, byte-flipped and garbage variants of `original`, written under `dir`.
// Returns how many variants were rejected.
int fuzzFile(const std::string& original, const TempDir& dir, const std::string& stem,
             const std::function<bool(const std::string&)>& check) {
  const std::string bytes = readBytes(original);
  EXPECT_FALSE(bytes.empty()) << original;
  int rejected = 0;
  const std::string path = dir.file(stem);

  // Truncations: every length for small files, roughly 400 evenly spaced lengths for larger ones.
  const size_t step = std::max<size_t>(1, bytes.size() / 400);
  for (size_t length = 0; length < bytes.size(); length += step) {
    writeBytes(path, bytes.substr(0, length));
    if (!check(path)) ++rejected;
  }

  std::mt19937 rng(20240607);  // fixed seed: failures must reproduce
  for (int round = 0; round < 400; ++round) {
    std::string flipped = bytes;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      flipped[rng() % flipped.size()] ^= static_cast<char>(1 + rng() % 255);
    }
    writeBytes(path, flipped);
    if (!check(path)) ++rejected;
  }

  for (int round = 0; round < 200; ++round) {
    std::string garbage(1 + rng() % 600, '\0');
    for (char& c : garbage) c = static_cast<char>(rng());
    writeBytes(path, garbage);
    if (!check(path)) ++rejected;
  }
  return rejected;
}

TEST(OnnxIoRobustness, DamagedTensorFiles) {
  SKIP_WITHOUT_TESTDATA();
  TempDir dir;
  const std::string original = nodeTestDir("test_gather_0") + "/test_data_set_0/input_0.pb";
  ASSERT_TRUE(readTensorOrNamedError(original));
  const int rejected = fuzzFile(original, dir, "input_0.pb", readTensorOrNamedError);
  EXPECT_GT(rejected, 0);
  // The zero-byte file in particular says so.
  writeBytes(dir.file("empty.pb"), "");
  StatusOr<HostTensor> empty = readTensorFile(dir.file("empty.pb"));
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("empty"), std::string::npos) << empty.status().toString();
}

TEST(OnnxIoRobustness, DamagedModelFiles) {
  SKIP_WITHOUT_TESTDATA();
  TempDir dir;
  const std::string original = nodeTestDir("test_scatter_elements_with_duplicate_indices") + "/model.onnx";
  ASSERT_TRUE(readModelOrNamedError(original));
  const int rejected = fuzzFile(original, dir, "model.onnx", readModelOrNamedError);
  EXPECT_GT(rejected, 0);
}

TEST(OnnxIoRobustness, DamagedNodeTestDirectory) {
  SKIP_WITHOUT_TESTDATA();
  TempDir dir;
  fs::copy(nodeTestDir("test_gather_0"), dir.path(), fs::copy_options::recursive);
  ASSERT_TRUE(readNodeTest(dir.path().string()).ok());

  const std::string indices = dir.file("test_data_set_0/input_1.pb");
  const std::string bytes = readBytes(indices);
  writeBytes(indices, bytes.substr(0, bytes.size() - 3));
  StatusOr<NodeTest> truncated = readNodeTest(dir.path().string());
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.status().message().find(indices), std::string::npos) << truncated.status().toString();

  // A data file of the wrong element type parses fine but contradicts the graph declaration.
  fs::copy_file(dir.file("test_data_set_0/input_0.pb"), indices, fs::copy_options::overwrite_existing);
  StatusOr<NodeTest> mistyped = readNodeTest(dir.path().string());
  ASSERT_FALSE(mistyped.ok());
  EXPECT_NE(mistyped.status().message().find(indices), std::string::npos) << mistyped.status().toString();
  EXPECT_NE(mistyped.status().message().find("int64"), std::string::npos) << mistyped.status().toString();

  fs::remove(dir.file("model.onnx"));
  StatusOr<NodeTest> no_model = readNodeTest(dir.path().string());
  ASSERT_FALSE(no_model.ok());
  EXPECT_NE(no_model.status().message().find(dir.file("model.onnx")), std::string::npos);
}

TEST(OnnxIoRobustness, MissingAndNonRegularFiles) {
  TempDir dir;
  StatusOr<HostTensor> missing = readTensorFile(dir.file("nope.pb"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find(dir.file("nope.pb")), std::string::npos);
  StatusOr<NodeModel> directory = readNodeModel(dir.path().string());
  ASSERT_FALSE(directory.ok());
  EXPECT_NE(directory.status().message().find("not a regular file"), std::string::npos);
  StatusOr<NodeTest> no_dir = readNodeTest(dir.file("absent_dir"));
  ASSERT_FALSE(no_dir.ok());
  EXPECT_NE(no_dir.status().message().find(dir.file("absent_dir")), std::string::npos);
}

}  // namespace
}  // namespace vkindex::onnxio::test
