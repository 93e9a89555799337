// ONNX's official node tests (Debian's libonnx-testdata) through the node-test runner: every Gather,
// GatherElements, GatherND, Scatter, ScatterElements and ScatterND directory passes byte-exact, through
// the submitting and the recorded path; broken and hostile test directories give clean errors.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include <onnx/onnx_pb.h>

#include "node_runner.hpp"
#include "onnx_io.hpp"
#include "support/gpu_test.hpp"

namespace vkindex::test {
namespace {

namespace fs = std::filesystem;
using tools::NodeTestResult;
using tools::Outcome;

const fs::path kNodeTests = "/usr/share/libonnx-testdata/data/node";

// Node-test directories whose model's single node is an indexing operator, with that operator.
std::vector<std::pair<fs::path, std::string>> indexingTests() {
  std::vector<std::pair<fs::path, std::string>> tests;
  if (!fs::is_directory(kNodeTests)) return tests;
  for (const fs::directory_entry& entry : fs::directory_iterator(kNodeTests)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("test_gather", 0) != 0 && name.rfind("test_scatter", 0) != 0) continue;
    StatusOr<onnxio::NodeModel> model = onnxio::readNodeModel((entry.path() / "model.onnx").string());
    if (model.ok()) tests.emplace_back(entry.path(), model->op_type);
  }
  std::sort(tests.begin(), tests.end());
  return tests;
}

class OnnxConformanceTest : public GpuTest {
 protected:
  NodeTestResult run(const fs::path& dir) { return tools::runNodeTestDir(context(), dir.string(), {}); }

  // A scratch copy of an official test directory.
  fs::path copyOf(const std::string& name, const std::string& as) {
    fs::path target = fs::temp_directory_path() / ("vkindex_conformance_" + std::to_string(::getpid()) + "_" + as);
    fs::remove_all(target);
    fs::copy(kNodeTests / name, target, fs::copy_options::recursive);
    return target;
  }
};

// Every indexing operator, with how many official directories libonnx-testdata 1.12 ships for each:
// test_gather_0, _1, _2d_indices, _negative_indices; test_gather_elements_0, _1, _negative_indices;
// test_gathernd_example_float32, _int32, _int32_batch_dim1; test_scatter_with_axis, _without_axis
// (opset 10); test_scatter_elements_with_axis, _without_axis, _with_negative_indices,
// _with_duplicate_indices (reduction add); test_scatternd, _add, _multiply (opset 16).
const std::pair<const char*, int> kIndexingOps[] = {{"Gather", 4},  {"GatherElements", 3},  {"GatherND", 3},
                                                    {"Scatter", 2}, {"ScatterElements", 4}, {"ScatterND", 3}};

TEST_F(OnnxConformanceTest, EveryIndexingNodeTestPasses) {
  const auto tests = indexingTests();
  int total = 0;
  for (const auto& [name, minimum] : kIndexingOps) {
    int found = 0;
    for (const auto& [dir, op] : tests) {
      if (op != name) continue;
      ++found;
      NodeTestResult result = run(dir);
      EXPECT_STREQ(tools::outcomeName(result.outcome), "pass") << dir << ": " << result.message;
    }
    EXPECT_GE(found, minimum) << "too few " << name << " node tests found under " << kNodeTests;
    total += found;
  }
  // Every directory named test_gather* or test_scatter* holds one of the six operators.
  EXPECT_EQ(total, static_cast<int>(tests.size()));
}

// The scatters through the recorded path too (--repeat): out of place into fresh outputs, which must
// match the expected outputs as well.
TEST_F(OnnxConformanceTest, ScatterNodeTestsPassRecorded) {
  int found = 0;
  for (const auto& [dir, op] : indexingTests()) {
    if (op.rfind("Scatter", 0) != 0) continue;
    ++found;
    NodeTestResult result = tools::runNodeTestDir(context(), dir.string(), {2});
    EXPECT_STREQ(tools::outcomeName(result.outcome), "pass") << dir << ": " << result.message;
    EXPECT_TRUE(result.timing.has_value()) << dir;
  }
  EXPECT_GE(found, 9);
}

TEST_F(OnnxConformanceTest, OutOfRangeIndexIsAnErrorAndExpectErrorTurnsItIntoAPass) {
  fs::path dir = copyOf("test_gather_0", "bad_index");
  // Replace the indices with an out-of-range value, keeping their type and shape.
  const fs::path indices_file = dir / "test_data_set_0" / "input_1.pb";
  StatusOr<onnxio::HostTensor> indices = onnxio::readTensorFile(indices_file.string());
  ASSERT_TRUE(indices.ok()) << indices.status().toString();
  onnx::TensorProto proto;
  {
    std::ifstream in(indices_file, std::ios::binary);
    ASSERT_TRUE(proto.ParseFromIstream(&in));
  }
  proto.clear_raw_data();
  proto.clear_int64_data();
  proto.clear_int32_data();
  for (int64_t i = 0; i < indices->elementCount(); ++i) {
    if (proto.data_type() == onnx::TensorProto::INT64) {
      proto.add_int64_data(i == 1 ? 4294967297LL : 0);
    } else {
      proto.add_int32_data(i == 1 ? 1000 : 0);
    }
  }
  {
    std::ofstream out(indices_file, std::ios::binary | std::ios::trunc);
    ASSERT_TRUE(proto.SerializeToOstream(&out));
  }
  NodeTestResult result = run(dir);
  EXPECT_EQ(result.outcome, Outcome::kError);
  EXPECT_EQ(result.message, "Gather: indices[1] = 4294967297 is out of range for axis 0 of size 5 (allowed [-5, 4])");

  std::ofstream(dir / "expect_error").put('\n');
  EXPECT_EQ(run(dir).outcome, Outcome::kPass);
  fs::remove_all(dir);
}

TEST_F(OnnxConformanceTest, ExpectErrorFailsWhenTheRunSucceeds) {
  fs::path dir = copyOf("test_gather_1", "expect_error_ok");
  std::ofstream(dir / "expect_error").put('\n');
  NodeTestResult result = run(dir);
  EXPECT_EQ(result.outcome, Outcome::kFail);
  EXPECT_EQ(result.message, "expected an error, but the run succeeded");
  fs::remove_all(dir);
}

TEST_F(OnnxConformanceTest, WrongExpectedOutputIsAFailNamingPositionAndValues) {
  fs::path dir = copyOf("test_gather_negative_indices", "wrong_output");
  // test_gather_negative_indices: data arange(10), indices [0, -9, -10], output [0, 1, 0]. Use the
  // data tensor as a wrongly-shaped expected output, then a same-shaped one with one value changed.
  const fs::path output_file = dir / "test_data_set_0" / "output_0.pb";
  onnx::TensorProto proto;
  {
    std::ifstream in(output_file, std::ios::binary);
    ASSERT_TRUE(proto.ParseFromIstream(&in));
  }
  StatusOr<onnxio::HostTensor> expected = onnxio::readTensorFile(output_file.string());
  ASSERT_TRUE(expected.ok());
  ASSERT_EQ(expected->bytes.size(), 3 * sizeof(float));
  float values[3];
  std::memcpy(values, expected->bytes.data(), sizeof(values));
  values[2] = 7.5f;
  proto.clear_float_data();
  proto.set_raw_data(std::string(reinterpret_cast<const char*>(values), sizeof(values)));
  {
    std::ofstream out(output_file, std::ios::binary | std::ios::trunc);
    ASSERT_TRUE(proto.SerializeToOstream(&out));
  }
  NodeTestResult result = run(dir);
  EXPECT_EQ(result.outcome, Outcome::kFail);
  EXPECT_NE(result.message.find("output 0 differs at [2]: got 0, expected 7.5"), std::string::npos) << result.message;
  fs::remove_all(dir);
}

// Truncated and corrupted model and tensor files: every run ends in a clean error or a fail with a
// one-line message, never a crash.
TEST_F(OnnxConformanceTest, CorruptedFilesGiveCleanErrors) {
  fs::path dir = copyOf("test_gather_0", "corrupt");
  std::mt19937 rng(2024);
  for (const char* relative :
       {"model.onnx", "test_data_set_0/input_0.pb", "test_data_set_0/input_1.pb", "test_data_set_0/output_0.pb"}) {
    const fs::path file = dir / relative;
    std::string original;
    {
      std::ifstream in(file, std::ios::binary);
      original.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    for (int trial = 0; trial < 24; ++trial) {
      std::string broken = original;
      if (trial % 2 == 0) {
        broken.resize(original.size() * static_cast<size_t>(trial) / 24);  // truncated, including empty
      } else {
        for (int flips = 0; flips < 1 + trial / 4; ++flips)
          broken[rng() % broken.size()] ^= static_cast<char>(1 + rng() % 255);
      }
      std::ofstream(file, std::ios::binary | std::ios::trunc) << broken;
      NodeTestResult result = run(dir);
      SCOPED_TRACE(std::string(relative) + ", trial " + std::to_string(trial));
      if (result.outcome != Outcome::kPass) {
        EXPECT_FALSE(result.message.empty());
        EXPECT_EQ(result.message.find('\n'), std::string::npos) << result.message;
      }
    }
    std::ofstream(file, std::ios::binary | std::ios::trunc) << original;
  }
  EXPECT_EQ(run(dir).outcome, Outcome::kPass) << "the restored copy should pass again";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace vkindex::test
