// Fuzzes the node-test reader (readNodeTest, what `vkindex onnx-test` runs) end to end, files
// included: the input is split at each "\nVKFZ\n" into model.onnx, then input_0.pb, input_1.pb, ...,
// and the last piece output_0.pb of test_data_set_0, written into a private temporary directory. A
// malformed test must give an error with a message, never a crash; a test that reads must hold
// self-consistent tensors (decoded_tensor_check.hpp), as many as the graph declares outputs.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "decoded_tensor_check.hpp"
#include "onnx_io.hpp"

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSeparator = "\nVKFZ\n";
// A handful of files is all a node test needs; more only slows every run down.
constexpr size_t kMaxPieces = 8;

// One directory for the whole run (rewritten each input), removed at exit.
const fs::path& testDir() {
  static const fs::path dir = [] {
    std::string pattern = (fs::temp_directory_path() / "vkindex-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) vkindex::fuzz::fail("cannot create a temporary directory");
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(testDir(), ec);
    });
    return fs::path(pattern);
  }();
  return dir;
}

std::vector<std::string_view> split(std::string_view input) {
  std::vector<std::string_view> pieces;
  while (pieces.size() + 1 < kMaxPieces) {
    const size_t at = input.find(kSeparator);
    if (at == std::string_view::npos) break;
    pieces.push_back(input.substr(0, at));
    input.remove_prefix(at + kSeparator.size());
  }
  pieces.push_back(input);
  return pieces;
}

void writeFile(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) vkindex::fuzz::fail("cannot write " + path.string());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<std::string_view> pieces = split(std::string_view(reinterpret_cast<const char*>(data), size));
  const fs::path& dir = testDir();
  const fs::path set = dir / "test_data_set_0";
  // The previous input's files go first (cheaper than recreating the directory every run).
  static size_t written_inputs = 0;
  std::error_code ec;
  for (size_t i = 0; i < written_inputs; ++i) fs::remove(set / ("input_" + std::to_string(i) + ".pb"), ec);
  fs::remove(set / "output_0.pb", ec);
  fs::create_directories(set, ec);
  if (ec) vkindex::fuzz::fail("cannot create " + set.string());
  writeFile(dir / "model.onnx", pieces.front());
  written_inputs = pieces.size() > 2 ? pieces.size() - 2 : 0;
  for (size_t i = 0; i < written_inputs; ++i) writeFile(set / ("input_" + std::to_string(i) + ".pb"), pieces[i + 1]);
  if (pieces.size() > 1) writeFile(set / "output_0.pb", pieces.back());

  vkindex::StatusOr<vkindex::onnxio::NodeTest> test = vkindex::onnxio::readNodeTest(dir.string());
  if (!test.ok()) {
    vkindex::fuzz::check(!test.status().message().empty(), "an error without a message");
    return 0;
  }
  for (const vkindex::onnxio::TestDataSet& data_set : test->data_sets) {
    vkindex::fuzz::check(data_set.outputs.size() == test->model.graph_outputs.size(),
                         "a data set with a different output count than the graph");
    for (const auto& tensor : data_set.inputs) vkindex::fuzz::checkDecodedTensor(tensor, "input");
    for (const auto& tensor : data_set.outputs) vkindex::fuzz::checkDecodedTensor(tensor, "output");
  }
  return 0;
}
