// Tests for tools/onnx_io: the official gather/scatter node tests load with the right facts, every
// TensorProto storage form decodes, and damaged files give a Status naming the file instead of a crash.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "onnx_io.hpp"
#include "onnx_proto_decode.hpp"

namespace vkindex::onnxio {
namespace {

namespace fs = std::filesystem;

const char kNodeTestRoot[] = "/usr/share/libonnx-testdata/data/node";

std::string nodeTestDir(const std::string& name) { return std::string(kNodeTestRoot) + "/" + name; }

#define SKIP_WITHOUT_TESTDATA() \
  if (!fs::is_directory(kNodeTestRoot)) GTEST_SKIP() << "libonnx-testdata is not installed at " << kNodeTestRoot

// A fresh directory under the system temp dir, removed with everything in it at scope exit.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ =
        fs::temp_directory_path() / ("onnx_io_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

void writeProto(const std::string& path, const google::protobuf::MessageLite& message) {
  writeBytes(path, message.SerializeAsString());
}

// Size invariants every successfully decoded tensor must satisfy.
void expectConsistent(const HostTensor& tensor) {
  if (tensor.dtype == DataType::kString) {
    EXPECT_TRUE(tensor.bytes.empty());
    EXPECT_EQ(static_cast<int64_t>(tensor.strings.size()), tensor.elementCount());
  } else {
    EXPECT_TRUE(tensor.strings.empty());
    EXPECT_EQ(static_cast<int64_t>(tensor.bytes.size()),
              tensor.elementCount() * static_cast<int64_t>(elementSize(tensor.dtype)));
  }
}

// ---------------------------------------------------------------------------------------------------
// The official node tests.

struct ExpectedTensor {
  DataType dtype;
  std::vector<int64_t> dims;
};

struct ExpectedNodeTest {
  std::string dir;
  std::string op_type;
  int64_t opset;
  std::map<std::string, int64_t> int_attributes;
  std::map<std::string, std::string> string_attributes;
  std::vector<ExpectedTensor> inputs;
  ExpectedTensor output;
};

constexpr DataType kF32 = DataType::kFloat32;
constexpr DataType kI32 = DataType::kInt32;
constexpr DataType kI64 = DataType::kInt64;

// Facts about the gather/scatter node tests of libonnx-testdata (ONNX 1.12), read off with protoc.
const std::vector<ExpectedNodeTest>& expectedNodeTests() {
  static const std::vector<ExpectedNodeTest> cases = {
      {"test_gather_0", "Gather", 13, {{"axis", 0}}, {}, {{kF32, {5, 4, 3, 2}}, {kI64, {3}}}, {kF32, {3, 4, 3, 2}}},
      {"test_gather_1", "Gather", 13, {{"axis", 1}}, {}, {{kF32, {5, 4, 3, 2}}, {kI64, {3}}}, {kF32, {5, 3, 3, 2}}},
      {"test_gather_2d_indices", "Gather", 13, {{"axis", 1}}, {}, {{kF32, {3, 3}}, {kI64, {1, 2}}}, {kF32, {3, 1, 2}}},
      {"test_gather_negative_indices", "Gather", 13, {{"axis", 0}}, {}, {{kF32, {10}}, {kI64, {3}}}, {kF32, {3}}},
      {"test_gather_elements_0",
       "GatherElements",
       13,
       {{"axis", 1}},
       {},
       {{kF32, {2, 2}}, {kI64, {2, 2}}},
       {kF32, {2, 2}}},
      {"test_gather_elements_1",
       "GatherElements",
       13,
       {{"axis", 0}},
       {},
       {{kF32, {3, 3}}, {kI64, {2, 3}}},
       {kF32, {2, 3}}},
      {"test_gather_elements_negative_indices",
       "GatherElements",
       13,
       {{"axis", 0}},
       {},
       {{kF32, {3, 3}}, {kI64, {2, 3}}},
       {kF32, {2, 3}}},
      {"test_gathernd_example_float32",
       "GatherND",
       13,
       {},
       {},
       {{kF32, {2, 2, 2}}, {kI64, {2, 1, 2}}},
       {kF32, {2, 1, 2}}},
      {"test_gathernd_example_int32", "GatherND", 13, {}, {}, {{kI32, {2, 2}}, {kI64, {2, 2}}}, {kI32, {2}}},
      {"test_gathernd_example_int32_batch_dim1",
       "GatherND",
       13,
       {{"batch_dims", 1}},
       {},
       {{kI32, {2, 2, 2}}, {kI64, {2, 1}}},
       {kI32, {2, 2}}},
      {"test_scatter_with_axis",
       "Scatter",
       10,
       {{"axis", 1}},
       {},
       {{kF32, {1, 5}}, {kI64, {1, 2}}, {kF32, {1, 2}}},
       {kF32, {1, 5}}},
      {"test_scatter_without_axis",
       "Scatter",
       10,
       {},
       {},
       {{kF32, {3, 3}}, {kI64, {2, 3}}, {kF32, {2, 3}}},
       {kF32, {3, 3}}},
      {"test_scatter_elements_with_axis",
       "ScatterElements",
       16,
       {{"axis", 1}},
       {},
       {{kF32, {1, 5}}, {kI64, {1, 2}}, {kF32, {1, 2}}},
       {kF32, {1, 5}}},
      {"test_scatter_elements_with_duplicate_indices",
       "ScatterElements",
       16,
       {{"axis", 1}},
       {{"reduction", "add"}},
       {{kF32, {1, 5}}, {kI64, {1, 2}}, {kF32, {1, 2}}},
       {kF32, {1, 5}}},
      {"test_scatter_elements_with_negative_indices",
       "ScatterElements",
       16,
       {{"axis", 1}},
       {},
       {{kF32, {1, 5}}, {kI64, {1, 2}}, {kF32, {1, 2}}},
       {kF32, {1, 5}}},
      {"test_scatter_elements_without_axis",
       "ScatterElements",
       16,
       {},
       {},
       {{kF32, {3, 3}}, {kI64, {2, 3}}, {kF32, {2, 3}}},
       {kF32, {3, 3}}},
      {"test_scatternd",
       "ScatterND",
       16,
       {},
       {},
       {{kF32, {4, 4, 4}}, {kI64, {2, 1}}, {kF32, {2, 4, 4}}},
       {kF32, {4, 4, 4}}},
      {"test_scatternd_add",
       "ScatterND",
       16,
       {},
       {{"reduction", "add"}},
       {{kF32, {4, 4, 4}}, {kI64, {2, 1}}, {kF32, {2, 4, 4}}},
       {kF32, {4, 4, 4}}},
      {"test_scatternd_multiply",
       "ScatterND",
       16,
       {},
       {{"reduction", "mul"}},
       {{kF32, {4, 4, 4}}, {kI64, {2, 1}}, {kF32, {2, 4, 4}}},
       {kF32, {4, 4, 4}}},
  };
  return cases;
}

void expectTensor(const HostTensor& tensor, const ExpectedTensor& expected, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(tensor.dtype, expected.dtype) << dataTypeName(tensor.dtype);
  EXPECT_EQ(tensor.dims, expected.dims) << formatDims(tensor.dims);
  EXPECT_EQ(tensor.bytes.size(), static_cast<size_t>(tensor.elementCount()) * elementSize(expected.dtype));
  expectConsistent(tensor);
}

TEST(OnnxNodeTests, EveryExpectedGatherScatterTestIsInstalled) {
  SKIP_WITHOUT_TESTDATA();
  for (const ExpectedNodeTest& expected : expectedNodeTests()) {
    EXPECT_TRUE(fs::is_directory(nodeTestDir(expected.dir))) << expected.dir;
  }
}

TEST(OnnxNodeTests, LoadsEveryGatherScatterTestWithItsFacts) {
  SKIP_WITHOUT_TESTDATA();
  std::vector<std::string> dirs;
  for (const fs::directory_entry& entry : fs::directory_iterator(kNodeTestRoot)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("test_gather", 0) == 0 || name.rfind("test_scatter", 0) == 0) dirs.push_back(name);
  }
  std::sort(dirs.begin(), dirs.end());
  ASSERT_GE(dirs.size(), expectedNodeTests().size());

  for (const std::string& name : dirs) {
    SCOPED_TRACE(name);
    StatusOr<NodeTest> test = readNodeTest(nodeTestDir(name));
    ASSERT_TRUE(test.ok()) << test.status().toString();
    const NodeModel& model = test->model;
    EXPECT_EQ(model.domain, "");
    EXPECT_EQ(model.graph_outputs.size(), 1u);
    ASSERT_FALSE(test->data_sets.empty());
    for (const TestDataSet& data_set : test->data_sets) {
      ASSERT_EQ(data_set.inputs.size(), model.inputs.size());
      ASSERT_EQ(data_set.outputs.size(), 1u);
      for (const HostTensor& tensor : data_set.inputs) expectConsistent(tensor);
      expectConsistent(data_set.outputs[0]);
    }

    auto expected = std::find_if(expectedNodeTests().begin(), expectedNodeTests().end(),
                                 [&](const ExpectedNodeTest& e) { return e.dir == name; });
    if (expected == expectedNodeTests().end()) continue;  // a newer test set; the generic checks above apply
    EXPECT_EQ(model.op_type, expected->op_type);
    EXPECT_EQ(model.opset, expected->opset);
    EXPECT_EQ(model.attributes.size(), expected->int_attributes.size() + expected->string_attributes.size());
    for (const auto& [attribute, value] : expected->int_attributes) {
      ASSERT_EQ(model.attributes.count(attribute), 1u) << attribute;
      EXPECT_EQ(model.attributes.at(attribute).kind, AttributeValue::Kind::kInt);
      EXPECT_EQ(model.attributes.at(attribute).i, value) << attribute;
    }
    for (const auto& [attribute, value] : expected->string_attributes) {
      ASSERT_EQ(model.attributes.count(attribute), 1u) << attribute;
      EXPECT_EQ(model.attributes.at(attribute).kind, AttributeValue::Kind::kString);
      EXPECT_EQ(model.attributes.at(attribute).s, value) << attribute;
    }
    ASSERT_EQ(model.inputs.size(), expected->inputs.size());
    ASSERT_EQ(model.graph_inputs.size(), expected->inputs.size());
    for (size_t i = 0; i < expected->inputs.size(); ++i) {
      EXPECT_EQ(model.graph_inputs[i].name, model.inputs[i]);
      EXPECT_EQ(model.graph_inputs[i].elem_type, expected->inputs[i].dtype);
      expectTensor(test->data_sets[0].inputs[i], expected->inputs[i], "input " + std::to_string(i));
    }
    EXPECT_EQ(model.graph_outputs[0].elem_type, expected->output.dtype);
    expectTensor(test->data_sets[0].outputs[0], expected->output, "output 0");
  }
}

template <typename T>
std::vector<T> valuesOf(const HostTensor& tensor) {
  std::optional<std::vector<T>> values = tensorValues<T>(tensor);
  EXPECT_TRUE(values.has_value()) << "wrong element type for " << tensor.name;
  return values.value_or(std::vector<T>());
}

TEST(OnnxNodeTests, GatherNegativeIndicesValues) {
  SKIP_WITHOUT_TESTDATA();
  StatusOr<NodeTest> test = readNodeTest(nodeTestDir("test_gather_negative_indices"));
  ASSERT_TRUE(test.ok()) << test.status().toString();
  const TestDataSet& data_set = test->data_sets.at(0);
  EXPECT_EQ(data_set.inputs[0].name, "data");
  EXPECT_EQ(valuesOf<float>(data_set.inputs[0]), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(valuesOf<int64_t>(data_set.inputs[1]), (std::vector<int64_t>{0, -9, -10}));
  EXPECT_EQ(valuesOf<float>(data_set.outputs[0]), (std::vector<float>{0, 1, 0}));
  EXPECT_FALSE(tensorValues<double>(data_set.inputs[0]).has_value());
}

TEST(OnnxNodeTests, GatherNdInt32Values) {
  SKIP_WITHOUT_TESTDATA();
  StatusOr<NodeTest> test = readNodeTest(nodeTestDir("test_gathernd_example_int32"));
  ASSERT_TRUE(test.ok()) << test.status().toString();
  const TestDataSet& data_set = test->data_sets.at(0);
  EXPECT_EQ(valuesOf<int32_t>(data_set.inputs[0]), (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(valuesOf<int64_t>(data_set.inputs[1]), (std::vector<int64_t>{0, 0, 1, 1}));
  EXPECT_EQ(valuesOf<int32_t>(data_set.outputs[0]), (std::vector<int32_t>{0, 3}));
}

TEST(OnnxNodeTests, ScatterElementsDuplicateIndicesValues) {
  SKIP_WITHOUT_TESTDATA();
  StatusOr<NodeTest> test = readNodeTest(nodeTestDir("test_scatter_elements_with_duplicate_indices"));
  ASSERT_TRUE(test.ok()) << test.status().toString();
  const TestDataSet& data_set = test->data_sets.at(0);
  EXPECT_EQ(valuesOf<float>(data_set.inputs[0]), (std::vector<float>{1, 2, 3, 4, 5}));
  EXPECT_EQ(valuesOf<int64_t>(data_set.inputs[1]), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(valuesOf<float>(data_set.inputs[2]), (std::vector<float>{1.1f, 2.1f}));
  const std::vector<float> output = valuesOf<float>(data_set.outputs[0]);
  ASSERT_EQ(output.size(), 5u);
  EXPECT_FLOAT_EQ(output[1], 5.2f);
  EXPECT_EQ(output[0], 1.0f);
  EXPECT_EQ(output[4], 5.0f);
}

TEST(OnnxNodeTests, ScatterWithAxisValues) {
  SKIP_WITHOUT_TESTDATA();
  StatusOr<NodeTest> test = readNodeTest(nodeTestDir("test_scatter_with_axis"));
  ASSERT_TRUE(test.ok()) << test.status().toString();
  const TestDataSet& data_set = test->data_sets.at(0);
  EXPECT_EQ(valuesOf<int64_t>(data_set.inputs[1]), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(valuesOf<float>(data_set.outputs[0]), (std::vector<float>{1.0f, 1.1f, 3.0f, 2.1f, 5.0f}));
}

// ---------------------------------------------------------------------------------------------------
// Robustness: damaged files must give a result or a Status naming the file, never a crash.

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

// ---------------------------------------------------------------------------------------------------
// Hand-built TensorProtos: every storage form ONNX allows, and the malformed ones.

const char kOrigin[] = "hand.pb";

onnx::TensorProto makeTensor(onnx::TensorProto_DataType type, std::vector<int64_t> dims) {
  onnx::TensorProto proto;
  proto.set_name("x");
  proto.set_data_type(type);
  for (int64_t dim : dims) proto.add_dims(dim);
  return proto;
}

// The little-endian bytes of `values`, `width` bytes each.
std::vector<uint8_t> littleEndian(std::initializer_list<uint64_t> values, size_t width) {
  std::vector<uint8_t> bytes;
  for (uint64_t value : values) {
    for (size_t i = 0; i < width; ++i) bytes.push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
  return bytes;
}

HostTensor decodeOk(const onnx::TensorProto& proto) {
  StatusOr<HostTensor> tensor = decodeTensorProto(proto, kOrigin);
  EXPECT_TRUE(tensor.ok()) << tensor.status().toString();
  if (!tensor.ok()) return HostTensor();
  expectConsistent(*tensor);
  return std::move(tensor).value();
}

// Decodes a proto that must fail with `code`; the message must name the origin and the tensor, and
// contain `fragment`.
void expectRejected(const onnx::TensorProto& proto, StatusCode code, const std::string& fragment) {
  StatusOr<HostTensor> tensor = decodeTensorProto(proto, kOrigin);
  ASSERT_FALSE(tensor.ok()) << "accepted, expected an error containing '" << fragment << "'";
  EXPECT_EQ(tensor.status().code(), code) << tensor.status().toString();
  EXPECT_EQ(tensor.status().message().rfind("hand.pb: tensor 'x': ", 0), 0u) << tensor.status().toString();
  EXPECT_NE(tensor.status().message().find(fragment), std::string::npos) << tensor.status().toString();
}

TEST(TensorDecode, RawData) {
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_FLOAT, {2, 2});
  const float values[] = {1.5f, -2.0f, 0.25f, 8.0f};
  proto.set_raw_data(std::string(reinterpret_cast<const char*>(values), sizeof(values)));
  HostTensor tensor = decodeOk(proto);
  EXPECT_EQ(tensor.name, "x");
  EXPECT_EQ(tensor.dtype, DataType::kFloat32);
  EXPECT_EQ(tensor.dims, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(valuesOf<float>(tensor), (std::vector<float>{1.5f, -2.0f, 0.25f, 8.0f}));
}

TEST(TensorDecode, FloatData) {
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_FLOAT, {3});
  for (float value : {1.0f, -0.5f, 3.25f}) proto.add_float_data(value);
  EXPECT_EQ(valuesOf<float>(decodeOk(proto)), (std::vector<float>{1.0f, -0.5f, 3.25f}));
}

TEST(TensorDecode, Int32DataForEveryNarrowType) {
  struct Case {
    onnx::TensorProto_DataType type;
    std::vector<int32_t> stored;
    std::vector<uint8_t> bytes;
  };
  const std::vector<Case> cases = {
      {onnx::TensorProto_DataType_INT32, {-1, 70000}, littleEndian({0xFFFFFFFFu, 70000}, 4)},
      {onnx::TensorProto_DataType_INT16, {-2, 300}, littleEndian({0xFFFEu, 300}, 2)},
      {onnx::TensorProto_DataType_UINT16, {65535, 7}, littleEndian({65535, 7}, 2)},
      {onnx::TensorProto_DataType_INT8, {-128, 127}, {0x80, 0x7F}},
      {onnx::TensorProto_DataType_UINT8, {255, 0}, {0xFF, 0x00}},
      {onnx::TensorProto_DataType_BOOL, {1, 0}, {1, 0}},
      // float16 1.0 = 0x3C00 and -2.0 = 0xC000, stored as their unsigned bit patterns.
      {onnx::TensorProto_DataType_FLOAT16, {0x3C00, 0xC000}, littleEndian({0x3C00, 0xC000}, 2)},
      // bfloat16 1.0 = 0x3F80 and -inf = 0xFF80.
      {onnx::TensorProto_DataType_BFLOAT16, {0x3F80, 0xFF80}, littleEndian({0x3F80, 0xFF80}, 2)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(onnx::TensorProto_DataType_Name(c.type));
    onnx::TensorProto proto = makeTensor(c.type, {2});
    for (int32_t value : c.stored) proto.add_int32_data(value);
    HostTensor tensor = decodeOk(proto);
    EXPECT_EQ(tensor.bytes, c.bytes);
    EXPECT_EQ(onnxTypeCode(tensor.dtype), c.type);
  }
}

TEST(TensorDecode, Int32DataOutOfRangeIsRejected) {
  onnx::TensorProto int8 = makeTensor(onnx::TensorProto_DataType_INT8, {2});
  int8.add_int32_data(1);
  int8.add_int32_data(200);
  expectRejected(int8, StatusCode::kInvalidArgument, "int32_data[1] = 200 is out of range for int8");
  onnx::TensorProto half = makeTensor(onnx::TensorProto_DataType_FLOAT16, {1});
  half.add_int32_data(-1);
  expectRejected(half, StatusCode::kInvalidArgument, "out of range for float16");
  onnx::TensorProto flag = makeTensor(onnx::TensorProto_DataType_BOOL, {1});
  flag.add_int32_data(2);
  expectRejected(flag, StatusCode::kInvalidArgument, "out of range for bool");
}

TEST(TensorDecode, Int64AndUInt64AndDoubleData) {
  onnx::TensorProto int64 = makeTensor(onnx::TensorProto_DataType_INT64, {2});
  int64.add_int64_data(INT64_MIN);
  int64.add_int64_data(42);
  EXPECT_EQ(valuesOf<int64_t>(decodeOk(int64)), (std::vector<int64_t>{INT64_MIN, 42}));

  onnx::TensorProto uint64 = makeTensor(onnx::TensorProto_DataType_UINT64, {2});
  uint64.add_uint64_data(UINT64_MAX);
  uint64.add_uint64_data(5);
  EXPECT_EQ(valuesOf<uint64_t>(decodeOk(uint64)), (std::vector<uint64_t>{UINT64_MAX, 5}));

  onnx::TensorProto uint32 = makeTensor(onnx::TensorProto_DataType_UINT32, {2});
  uint32.add_uint64_data(UINT32_MAX);
  uint32.add_uint64_data(9);
  EXPECT_EQ(valuesOf<uint32_t>(decodeOk(uint32)), (std::vector<uint32_t>{UINT32_MAX, 9}));
  uint32.set_uint64_data(1, uint64_t{1} << 32);
  expectRejected(uint32, StatusCode::kInvalidArgument, "out of range for uint32");

  onnx::TensorProto float64 = makeTensor(onnx::TensorProto_DataType_DOUBLE, {1, 2});
  float64.add_double_data(0.1);
  float64.add_double_data(-1e300);
  EXPECT_EQ(valuesOf<double>(decodeOk(float64)), (std::vector<double>{0.1, -1e300}));
}

TEST(TensorDecode, StringData) {
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_STRING, {3});
  for (const char* value : {"alpha", "", "gamma\xff"}) proto.add_string_data(value);
  HostTensor tensor = decodeOk(proto);
  EXPECT_EQ(tensor.dtype, DataType::kString);
  EXPECT_TRUE(tensor.bytes.empty());
  EXPECT_EQ(tensor.strings, (std::vector<std::string>{"alpha", "", "gamma\xff"}));
  EXPECT_FALSE(tensorValues<uint32_t>(tensor).has_value());
}

TEST(TensorDecode, ComplexPairs) {
  onnx::TensorProto c64 = makeTensor(onnx::TensorProto_DataType_COMPLEX64, {2});
  for (float value : {1.0f, 2.0f, -3.0f, 4.5f}) c64.add_float_data(value);
  HostTensor tensor64 = decodeOk(c64);
  EXPECT_EQ(tensor64.bytes.size(), 16u);
  std::vector<float> parts(4);
  std::memcpy(parts.data(), tensor64.bytes.data(), 16);
  EXPECT_EQ(parts, (std::vector<float>{1.0f, 2.0f, -3.0f, 4.5f}));

  onnx::TensorProto c128 = makeTensor(onnx::TensorProto_DataType_COMPLEX128, {1});
  c128.add_double_data(0.5);
  c128.add_double_data(-0.25);
  HostTensor tensor128 = decodeOk(c128);
  ASSERT_EQ(tensor128.bytes.size(), 16u);
  double halves[2];
  std::memcpy(halves, tensor128.bytes.data(), 16);
  EXPECT_EQ(halves[0], 0.5);
  EXPECT_EQ(halves[1], -0.25);

  c64.add_float_data(7.0f);  // five floats cannot be 2 complex64 elements
  expectRejected(c64, StatusCode::kInvalidArgument, "float_data has 5 values but dims [2] of complex64 need 4");
}

TEST(TensorDecode, ScalarAndEmptyTensors) {
  onnx::TensorProto scalar = makeTensor(onnx::TensorProto_DataType_INT64, {});
  scalar.add_int64_data(-7);
  HostTensor tensor = decodeOk(scalar);
  EXPECT_TRUE(tensor.dims.empty());
  EXPECT_EQ(tensor.elementCount(), 1);
  EXPECT_EQ(valuesOf<int64_t>(tensor), (std::vector<int64_t>{-7}));

  onnx::TensorProto empty = makeTensor(onnx::TensorProto_DataType_FLOAT, {3, 0});
  HostTensor none = decodeOk(empty);
  EXPECT_EQ(none.elementCount(), 0);
  EXPECT_TRUE(none.bytes.empty());
  empty.set_raw_data("");
  EXPECT_TRUE(decodeOk(empty).bytes.empty());
}

TEST(TensorDecode, MismatchedCountsAreRejected) {
  onnx::TensorProto raw = makeTensor(onnx::TensorProto_DataType_FLOAT, {2, 3});
  raw.set_raw_data(std::string(20, '\0'));
  expectRejected(raw, StatusCode::kInvalidArgument, "raw_data has 20 bytes but dims [2, 3] of float need 24");

  onnx::TensorProto typed = makeTensor(onnx::TensorProto_DataType_INT64, {4});
  typed.add_int64_data(1);
  expectRejected(typed, StatusCode::kInvalidArgument, "int64_data has 1 values but dims [4] of int64 need 4");

  onnx::TensorProto strings = makeTensor(onnx::TensorProto_DataType_STRING, {1});
  strings.add_string_data("a");
  strings.add_string_data("b");
  expectRejected(strings, StatusCode::kInvalidArgument, "string_data has 2 values");

  onnx::TensorProto nothing = makeTensor(onnx::TensorProto_DataType_UINT8, {5});
  expectRejected(nothing, StatusCode::kInvalidArgument, "has no data but dims [5] of uint8 need 5 elements");
}

TEST(TensorDecode, MalformedStorageIsRejected) {
  onnx::TensorProto wrong_field = makeTensor(onnx::TensorProto_DataType_INT64, {1});
  wrong_field.add_float_data(1.0f);
  expectRejected(wrong_field, StatusCode::kInvalidArgument, "float_data cannot hold int64 elements");

  onnx::TensorProto both = makeTensor(onnx::TensorProto_DataType_FLOAT, {1});
  both.set_raw_data(std::string(4, '\0'));
  both.add_float_data(1.0f);
  expectRejected(both, StatusCode::kInvalidArgument, "has both raw_data and float_data");

  onnx::TensorProto raw_strings = makeTensor(onnx::TensorProto_DataType_STRING, {1});
  raw_strings.set_raw_data("abcd");
  expectRejected(raw_strings, StatusCode::kInvalidArgument, "string tensors cannot use raw_data");

  onnx::TensorProto negative = makeTensor(onnx::TensorProto_DataType_FLOAT, {2, -3});
  expectRejected(negative, StatusCode::kInvalidArgument, "negative dimension -3 at axis 1");

  onnx::TensorProto huge = makeTensor(onnx::TensorProto_DataType_FLOAT, {1LL << 40, 1LL << 40});
  huge.set_raw_data("abcd");
  expectRejected(huge, StatusCode::kInvalidArgument, "overflow the element count");

  onnx::TensorProto untyped = makeTensor(onnx::TensorProto_DataType_UNDEFINED, {1});
  expectRejected(untyped, StatusCode::kInvalidArgument, "data_type is not set");

  onnx::TensorProto unknown_type = makeTensor(onnx::TensorProto_DataType_FLOAT, {1});
  unknown_type.set_data_type(17);  // FLOAT8E4M3FN in opset 19: not a vkindex type
  expectRejected(unknown_type, StatusCode::kUnsupported, "data_type code 17 is not supported");

  onnx::TensorProto external = makeTensor(onnx::TensorProto_DataType_FLOAT, {1});
  external.set_data_location(onnx::TensorProto_DataLocation_EXTERNAL);
  onnx::StringStringEntryProto* location = external.add_external_data();
  location->set_key("location");
  location->set_value("weights.bin");
  expectRejected(external, StatusCode::kUnsupported, "external");
}

TEST(TensorDecode, NamesFromTheFileCannotBreakTheMessageLine) {
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_FLOAT, {2});
  proto.set_name(std::string("bad\nname\x01") + std::string(300, 'z'));
  StatusOr<HostTensor> tensor = decodeTensorProto(proto, kOrigin);
  ASSERT_FALSE(tensor.ok());
  const std::string& message = tensor.status().message();
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find("tensor 'bad\\x0aname\\x01zzz"), std::string::npos) << message;
  EXPECT_NE(message.find("...': has no data"), std::string::npos) << message;
  EXPECT_LT(message.size(), 250u) << message;
}

TEST(TensorDecode, FileRoundTripNamesTheFile) {
  TempDir dir;
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_INT16, {2});
  proto.add_int32_data(-5);
  proto.add_int32_data(6);
  writeProto(dir.file("good.pb"), proto);
  StatusOr<HostTensor> good = readTensorFile(dir.file("good.pb"));
  ASSERT_TRUE(good.ok()) << good.status().toString();
  EXPECT_EQ(valuesOf<int16_t>(*good), (std::vector<int16_t>{-5, 6}));

  proto.add_int32_data(7);
  writeProto(dir.file("bad.pb"), proto);
  StatusOr<HostTensor> bad = readTensorFile(dir.file("bad.pb"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            dir.file("bad.pb") + ": tensor 'x': int32_data has 3 values but dims [2] of int16 need 2");
}

// ---------------------------------------------------------------------------------------------------
// Hand-built ModelProtos.

onnx::ValueInfoProto* addValueInfo(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list,
                                   const std::string& name, int32_t elem_type, std::vector<int64_t> dims) {
  onnx::ValueInfoProto* info = list->Add();
  info->set_name(name);
  onnx::TypeProto_Tensor* tensor_type = info->mutable_type()->mutable_tensor_type();
  tensor_type->set_elem_type(elem_type);
  onnx::TensorShapeProto* shape = tensor_type->mutable_shape();
  for (int64_t dim : dims) shape->add_dim()->set_dim_value(dim);
  return info;
}

// A valid Gather(data, indices) -> y model importing `opset` of the default domain.
onnx::ModelProto makeGatherModel(int64_t opset) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  onnx::OperatorSetIdProto* import = model.add_opset_import();
  import->set_domain("");
  import->set_version(opset);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("gather");
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type("Gather");
  node->add_input("data");
  node->add_input("indices");
  node->add_output("y");
  onnx::AttributeProto* axis = node->add_attribute();
  axis->set_name("axis");
  axis->set_type(onnx::AttributeProto_AttributeType_INT);
  axis->set_i(1);
  addValueInfo(graph->mutable_input(), "data", onnx::TensorProto_DataType_FLOAT, {2, 3});
  addValueInfo(graph->mutable_input(), "indices", onnx::TensorProto_DataType_INT64, {4});
  addValueInfo(graph->mutable_output(), "y", onnx::TensorProto_DataType_FLOAT, {2, 4});
  return model;
}

void expectModelRejected(const onnx::ModelProto& model, StatusCode code, const std::string& fragment) {
  StatusOr<NodeModel> result = decodeNodeModel(model, "hand.onnx");
  ASSERT_FALSE(result.ok()) << "accepted, expected an error containing '" << fragment << "'";
  EXPECT_EQ(result.status().code(), code) << result.status().toString();
  EXPECT_EQ(result.status().message().rfind("hand.onnx: ", 0), 0u) << result.status().toString();
  EXPECT_NE(result.status().message().find(fragment), std::string::npos) << result.status().toString();
}

TEST(ModelDecode, OpsetsOneToEighteenLoad) {
  for (int64_t opset = 1; opset <= 18; ++opset) {
    StatusOr<NodeModel> model = decodeNodeModel(makeGatherModel(opset), "hand.onnx");
    ASSERT_TRUE(model.ok()) << model.status().toString();
    EXPECT_EQ(model->opset, opset);
    EXPECT_EQ(model->op_type, "Gather");
    EXPECT_EQ(model->ir_version, 8);
    EXPECT_EQ(model->inputs, (std::vector<std::string>{"data", "indices"}));
    EXPECT_EQ(model->outputs, (std::vector<std::string>{"y"}));
    ASSERT_EQ(model->graph_inputs.size(), 2u);
    EXPECT_EQ(model->graph_inputs[0].kind, ValueKind::kTensor);
    EXPECT_EQ(model->graph_inputs[0].elem_type, DataType::kFloat32);
    ASSERT_TRUE(model->graph_inputs[0].shape.has_value());
    ASSERT_EQ(model->graph_inputs[0].shape->size(), 2u);
    EXPECT_EQ((*model->graph_inputs[0].shape)[1].value, 3);
  }
}

TEST(ModelDecode, OpsetResolution) {
  onnx::ModelProto spelled = makeGatherModel(11);
  spelled.mutable_opset_import(0)->set_domain("ai.onnx");
  spelled.mutable_graph()->mutable_node(0)->set_domain("ai.onnx");
  onnx::OperatorSetIdProto* ml = spelled.add_opset_import();
  ml->set_domain("ai.onnx.ml");
  ml->set_version(3);
  StatusOr<NodeModel> model = decodeNodeModel(spelled, "hand.onnx");
  ASSERT_TRUE(model.ok()) << model.status().toString();
  EXPECT_EQ(model->domain, "");
  EXPECT_EQ(model->opset, 11);

  onnx::ModelProto legacy = makeGatherModel(1);
  legacy.clear_opset_import();
  legacy.set_ir_version(2);
  StatusOr<NodeModel> old = decodeNodeModel(legacy, "hand.onnx");
  ASSERT_TRUE(old.ok()) << old.status().toString();
  EXPECT_EQ(old->opset, 1);

  onnx::ModelProto missing = makeGatherModel(13);
  missing.clear_opset_import();
  expectModelRejected(missing, StatusCode::kInvalidArgument, "imports no opset for domain ''");

  onnx::ModelProto custom = makeGatherModel(13);
  custom.mutable_graph()->mutable_node(0)->set_domain("com.example");
  expectModelRejected(custom, StatusCode::kInvalidArgument, "imports no opset for domain 'com.example'");

  onnx::ModelProto conflicting = makeGatherModel(13);
  onnx::OperatorSetIdProto* again = conflicting.add_opset_import();
  again->set_domain("ai.onnx");
  again->set_version(12);
  expectModelRejected(conflicting, StatusCode::kInvalidArgument, "twice, as versions 13 and 12");

  onnx::ModelProto zero = makeGatherModel(0);
  expectModelRejected(zero, StatusCode::kInvalidArgument, "has version 0");
}

TEST(ModelDecode, StructuralErrors) {
  onnx::ModelProto no_graph = makeGatherModel(13);
  no_graph.clear_graph();
  expectModelRejected(no_graph, StatusCode::kInvalidArgument, "model has no graph");

  onnx::ModelProto no_node = makeGatherModel(13);
  no_node.mutable_graph()->clear_node();
  expectModelRejected(no_node, StatusCode::kInvalidArgument, "model has no node");

  onnx::ModelProto two_nodes = makeGatherModel(13);
  *two_nodes.mutable_graph()->add_node() = two_nodes.graph().node(0);
  expectModelRejected(two_nodes, StatusCode::kInvalidArgument, "model has 2 nodes, expected 1");

  onnx::ModelProto no_op = makeGatherModel(13);
  no_op.mutable_graph()->mutable_node(0)->clear_op_type();
  expectModelRejected(no_op, StatusCode::kInvalidArgument, "node has no op_type");

  onnx::ModelProto no_outputs = makeGatherModel(13);
  no_outputs.mutable_graph()->mutable_node(0)->clear_output();
  expectModelRejected(no_outputs, StatusCode::kInvalidArgument, "has no outputs");

  onnx::ModelProto dangling = makeGatherModel(13);
  dangling.mutable_graph()->mutable_node(0)->set_input(1, "idx");
  expectModelRejected(dangling, StatusCode::kInvalidArgument, "node input 'idx' is neither");

  onnx::ModelProto unproduced = makeGatherModel(13);
  unproduced.mutable_graph()->mutable_output(0)->set_name("z");
  expectModelRejected(unproduced, StatusCode::kInvalidArgument, "graph output 'z' is not produced");

  onnx::ModelProto unnamed_input = makeGatherModel(13);
  unnamed_input.mutable_graph()->mutable_input(0)->clear_name();
  expectModelRejected(unnamed_input, StatusCode::kInvalidArgument, "graph input #0 has no name");
}

TEST(ModelDecode, EveryAttributeKind) {
  onnx::ModelProto model = makeGatherModel(13);
  onnx::NodeProto* node = model.mutable_graph()->mutable_node(0);
  onnx::AttributeProto* f = node->add_attribute();
  f->set_name("alpha");
  f->set_type(onnx::AttributeProto_AttributeType_FLOAT);
  f->set_f(0.5f);
  onnx::AttributeProto* s = node->add_attribute();
  s->set_name("reduction");
  s->set_type(onnx::AttributeProto_AttributeType_STRING);
  s->set_s("max");
  onnx::AttributeProto* ints = node->add_attribute();
  ints->set_name("perm");
  ints->set_type(onnx::AttributeProto_AttributeType_INTS);
  for (int64_t v : {2, 0, 1}) ints->add_ints(v);
  onnx::AttributeProto* floats = node->add_attribute();
  floats->set_name("scales");
  floats->set_type(onnx::AttributeProto_AttributeType_FLOATS);
  for (float v : {1.0f, 2.5f}) floats->add_floats(v);
  onnx::AttributeProto* strings = node->add_attribute();
  strings->set_name("names");
  strings->set_type(onnx::AttributeProto_AttributeType_STRINGS);
  for (const char* v : {"a", "b"}) strings->add_strings(v);
  onnx::AttributeProto* tensor = node->add_attribute();
  tensor->set_name("value");
  tensor->set_type(onnx::AttributeProto_AttributeType_TENSOR);
  *tensor->mutable_t() = makeTensor(onnx::TensorProto_DataType_INT32, {1});
  tensor->mutable_t()->add_int32_data(12);
  onnx::AttributeProto* untyped = node->add_attribute();  // IR v1 style: no type, inferred from the field
  untyped->set_name("batch_dims");
  untyped->set_i(2);

  StatusOr<NodeModel> result = decodeNodeModel(model, "hand.onnx");
  ASSERT_TRUE(result.ok()) << result.status().toString();
  const std::map<std::string, AttributeValue>& attributes = result->attributes;
  ASSERT_EQ(attributes.size(), 8u);
  EXPECT_EQ(attributes.at("axis").kind, AttributeValue::Kind::kInt);
  EXPECT_EQ(attributes.at("axis").i, 1);
  EXPECT_EQ(attributes.at("alpha").kind, AttributeValue::Kind::kFloat);
  EXPECT_EQ(attributes.at("alpha").f, 0.5f);
  EXPECT_EQ(attributes.at("reduction").s, "max");
  EXPECT_EQ(attributes.at("perm").ints, (std::vector<int64_t>{2, 0, 1}));
  EXPECT_EQ(attributes.at("scales").floats, (std::vector<float>{1.0f, 2.5f}));
  EXPECT_EQ(attributes.at("names").strings, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(attributes.at("value").kind, AttributeValue::Kind::kTensor);
  EXPECT_EQ(valuesOf<int32_t>(attributes.at("value").tensor), (std::vector<int32_t>{12}));
  EXPECT_EQ(attributes.at("batch_dims").kind, AttributeValue::Kind::kInt);
  EXPECT_EQ(attributes.at("batch_dims").i, 2);
  EXPECT_STREQ(attributeKindName(attributes.at("names").kind), "STRINGS");
}

TEST(ModelDecode, BadAttributes) {
  onnx::ModelProto duplicate = makeGatherModel(13);
  *duplicate.mutable_graph()->mutable_node(0)->add_attribute() = duplicate.graph().node(0).attribute(0);
  expectModelRejected(duplicate, StatusCode::kInvalidArgument, "attribute 'axis' appears twice");

  onnx::ModelProto valueless = makeGatherModel(13);
  valueless.mutable_graph()->mutable_node(0)->mutable_attribute(0)->clear_i();
  expectModelRejected(valueless, StatusCode::kInvalidArgument, "attribute 'axis': has type INT but no 'i' value");

  onnx::ModelProto graph_valued = makeGatherModel(13);
  onnx::AttributeProto* body = graph_valued.mutable_graph()->mutable_node(0)->add_attribute();
  body->set_name("body");
  body->set_type(onnx::AttributeProto_AttributeType_GRAPH);
  body->mutable_g()->set_name("inner");
  expectModelRejected(graph_valued, StatusCode::kUnsupported, "attribute 'body': attributes of type GRAPH");

  onnx::ModelProto bad_tensor = makeGatherModel(13);
  onnx::AttributeProto* value = bad_tensor.mutable_graph()->mutable_node(0)->add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto_AttributeType_TENSOR);
  *value->mutable_t() = makeTensor(onnx::TensorProto_DataType_FLOAT, {2});
  value->mutable_t()->add_float_data(1.0f);
  expectModelRejected(bad_tensor, StatusCode::kInvalidArgument,
                      "attribute 'value': tensor 'x': float_data has 1 values");

  onnx::ModelProto empty = makeGatherModel(13);
  onnx::AttributeProto* nothing = empty.mutable_graph()->mutable_node(0)->add_attribute();
  nothing->set_name("nothing");
  expectModelRejected(empty, StatusCode::kInvalidArgument, "attribute 'nothing': has no type");
}

TEST(ModelDecode, InitializersAreReturned) {
  onnx::ModelProto model = makeGatherModel(13);
  onnx::TensorProto* indices = model.mutable_graph()->add_initializer();
  *indices = makeTensor(onnx::TensorProto_DataType_INT64, {4});
  indices->set_name("indices");
  for (int64_t v : {0, 2, 1, -1}) indices->add_int64_data(v);
  model.mutable_graph()->mutable_input()->RemoveLast();  // IR >= 4: initializers need not be graph inputs

  StatusOr<NodeModel> result = decodeNodeModel(model, "hand.onnx");
  ASSERT_TRUE(result.ok()) << result.status().toString();
  ASSERT_EQ(result->initializers.count("indices"), 1u);
  EXPECT_EQ(valuesOf<int64_t>(result->initializers.at("indices")), (std::vector<int64_t>{0, 2, 1, -1}));

  onnx::ModelProto external = model;
  onnx::TensorProto* stored = external.mutable_graph()->mutable_initializer(0);
  stored->clear_int64_data();
  stored->set_data_location(onnx::TensorProto_DataLocation_EXTERNAL);
  expectModelRejected(external, StatusCode::kUnsupported, "tensor 'indices': data stored in an external file");

  onnx::ModelProto twice = model;
  *twice.mutable_graph()->add_initializer() = model.graph().initializer(0);
  expectModelRejected(twice, StatusCode::kInvalidArgument, "initializer 'indices' is defined twice");
}

TEST(ModelDecode, FileErrorsNameTheFile) {
  TempDir dir;
  writeProto(dir.file("good.onnx"), makeGatherModel(13));
  StatusOr<NodeModel> good = readNodeModel(dir.file("good.onnx"));
  ASSERT_TRUE(good.ok()) << good.status().toString();
  EXPECT_EQ(good->attributes.at("axis").i, 1);

  onnx::ModelProto two_nodes = makeGatherModel(13);
  *two_nodes.mutable_graph()->add_node() = two_nodes.graph().node(0);
  writeProto(dir.file("two.onnx"), two_nodes);
  StatusOr<NodeModel> two = readNodeModel(dir.file("two.onnx"));
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.status().message(), dir.file("two.onnx") + ": model has 2 nodes, expected 1");

  writeBytes(dir.file("junk.onnx"), std::string("\x0a\xff\xff\xff\xff\x0f", 6));
  StatusOr<NodeModel> junk = readNodeModel(dir.file("junk.onnx"));
  ASSERT_FALSE(junk.ok());
  EXPECT_EQ(junk.status().message(), dir.file("junk.onnx") + ": not a valid ONNX ModelProto (truncated or corrupted)");
}

// ---------------------------------------------------------------------------------------------------
// Node-test directories built by hand: numeric ordering and missing pieces.

// A Concat of `inputs` rank-1 float tensors of size 1, so that data sets can hold many inputs.
onnx::ModelProto makeConcatModel(int inputs) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  onnx::GraphProto* graph = model.mutable_graph();
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type("Concat");
  for (int i = 0; i < inputs; ++i) {
    node->add_input("x" + std::to_string(i));
    addValueInfo(graph->mutable_input(), "x" + std::to_string(i), onnx::TensorProto_DataType_FLOAT, {1});
  }
  node->add_output("y");
  addValueInfo(graph->mutable_output(), "y", onnx::TensorProto_DataType_FLOAT, {inputs});
  return model;
}

void writeFloatTensor(const std::string& path, const std::string& name, std::vector<float> values) {
  onnx::TensorProto proto = makeTensor(onnx::TensorProto_DataType_FLOAT, {static_cast<int64_t>(values.size())});
  proto.set_name(name);
  for (float value : values) proto.add_float_data(value);
  writeProto(path, proto);
}

// Builds `sets` data sets of `inputs` inputs each; input K of set N holds the value 100 * N + K.
void writeConcatTest(const TempDir& dir, int sets, int inputs) {
  writeProto(dir.file("model.onnx"), makeConcatModel(inputs));
  for (int n = 0; n < sets; ++n) {
    const std::string set_dir = dir.file("test_data_set_" + std::to_string(n));
    fs::create_directories(set_dir);
    std::vector<float> all;
    for (int k = 0; k < inputs; ++k) {
      all.push_back(static_cast<float>(100 * n + k));
      writeFloatTensor(set_dir + "/input_" + std::to_string(k) + ".pb", "x" + std::to_string(k), {all.back()});
    }
    writeFloatTensor(set_dir + "/output_0.pb", "y", all);
  }
}

TEST(NodeTestReader, NumericOrderOfSetsAndFiles) {
  TempDir dir;
  writeConcatTest(dir, 12, 11);
  writeBytes(dir.file("README.txt"), "unrelated files are ignored");
  StatusOr<NodeTest> test = readNodeTest(dir.path().string());
  ASSERT_TRUE(test.ok()) << test.status().toString();
  ASSERT_EQ(test->data_sets.size(), 12u);
  for (int n = 0; n < 12; ++n) {
    const TestDataSet& data_set = test->data_sets[n];
    EXPECT_EQ(data_set.dir, dir.file("test_data_set_" + std::to_string(n)));
    ASSERT_EQ(data_set.inputs.size(), 11u);
    for (int k = 0; k < 11; ++k) {
      EXPECT_EQ(data_set.inputs[k].name, "x" + std::to_string(k));
      EXPECT_EQ(valuesOf<float>(data_set.inputs[k]), (std::vector<float>{static_cast<float>(100 * n + k)}));
    }
  }
}

TEST(NodeTestReader, GapsAndMissingPiecesAreRejected) {
  {
    TempDir dir;
    writeConcatTest(dir, 1, 3);
    fs::remove(dir.file("test_data_set_0/input_1.pb"));
    StatusOr<NodeTest> test = readNodeTest(dir.path().string());
    ASSERT_FALSE(test.ok());
    EXPECT_EQ(test.status().message(), dir.file("test_data_set_0") + ": found input_2.pb but no input_1.pb");
  }
  {
    TempDir dir;
    writeConcatTest(dir, 3, 1);
    fs::remove_all(dir.file("test_data_set_1"));
    StatusOr<NodeTest> test = readNodeTest(dir.path().string());
    ASSERT_FALSE(test.ok());
    EXPECT_NE(test.status().message().find("found test_data_set_2 but no test_data_set_1"), std::string::npos)
        << test.status().toString();
  }
  {
    TempDir dir;
    writeConcatTest(dir, 0, 1);
    StatusOr<NodeTest> test = readNodeTest(dir.path().string());
    ASSERT_FALSE(test.ok());
    EXPECT_EQ(test.status().message(), dir.path().string() + ": has no test_data_set_0 directory");
  }
  {
    TempDir dir;
    writeConcatTest(dir, 1, 2);
    fs::remove(dir.file("test_data_set_0/output_0.pb"));
    StatusOr<NodeTest> test = readNodeTest(dir.path().string());
    ASSERT_FALSE(test.ok());
    EXPECT_NE(test.status().message().find("has no output_0.pb"), std::string::npos);
  }
  {
    TempDir dir;
    writeConcatTest(dir, 1, 2);
    writeFloatTensor(dir.file("test_data_set_0/input_2.pb"), "extra", {1.0f});
    StatusOr<NodeTest> test = readNodeTest(dir.path().string());
    ASSERT_FALSE(test.ok());
    EXPECT_NE(test.status().message().find("has 3 input files but the graph takes 2 inputs"), std::string::npos)
        << test.status().toString();
  }
  {
    TempDir dir;
    writeConcatTest(dir, 1, 2);
    writeFloatTensor(dir.file("test_data_set_0/output_0.pb"), "y", {1.0f, 2.0f, 3.0f});
    StatusOr<NodeTest> test = readNodeTest(dir.path().string());
    ASSERT_FALSE(test.ok());
    EXPECT_EQ(test.status().message(), dir.file("test_data_set_0/output_0.pb") +
                                           ": tensor 'y' has dims [3] but graph output 'y' is declared with size 2 "
                                           "at axis 0");
  }
}

TEST(NodeTestReader, BFloat16StoredAsUInt16IsRelabelled) {
  TempDir dir;
  writeConcatTest(dir, 1, 1);
  onnx::ModelProto model = makeConcatModel(1);
  model.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto_DataType_BFLOAT16);
  writeProto(dir.file("model.onnx"), model);
  onnx::TensorProto bits = makeTensor(onnx::TensorProto_DataType_UINT16, {1});
  bits.set_name("x0");
  bits.add_int32_data(0x3F80);
  writeProto(dir.file("test_data_set_0/input_0.pb"), bits);
  StatusOr<NodeTest> test = readNodeTest(dir.path().string());
  ASSERT_TRUE(test.ok()) << test.status().toString();
  const HostTensor& input = test->data_sets[0].inputs[0];
  EXPECT_EQ(input.dtype, DataType::kBFloat16);
  EXPECT_EQ(input.bytes, (std::vector<uint8_t>{0x80, 0x3F}));

  // Any other mismatch is an error naming the file.
  bits.set_data_type(onnx::TensorProto_DataType_INT16);
  writeProto(dir.file("test_data_set_0/input_0.pb"), bits);
  StatusOr<NodeTest> mistyped = readNodeTest(dir.path().string());
  ASSERT_FALSE(mistyped.ok());
  EXPECT_EQ(mistyped.status().message(), dir.file("test_data_set_0/input_0.pb") +
                                             ": tensor 'x0' is int16 but graph input 'x0' is declared bfloat16");
}

TEST(NodeTestReader, NonTensorSlotsAreRefusedBeforeReading) {
  TempDir dir;
  writeConcatTest(dir, 1, 2);
  onnx::ModelProto model = makeConcatModel(2);
  onnx::TypeProto* type = model.mutable_graph()->mutable_input(1)->mutable_type();
  type->Clear();
  type->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto_DataType_FLOAT);
  writeProto(dir.file("model.onnx"), model);
  StatusOr<NodeModel> decoded = readNodeModel(dir.file("model.onnx"));
  ASSERT_TRUE(decoded.ok()) << decoded.status().toString();
  EXPECT_EQ(decoded->graph_inputs[1].kind, ValueKind::kSequence);
  EXPECT_FALSE(decoded->graph_inputs[1].elem_type.has_value());

  StatusOr<NodeTest> test = readNodeTest(dir.path().string());
  ASSERT_FALSE(test.ok());
  EXPECT_EQ(test.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(test.status().message(),
            dir.file("test_data_set_0/input_1.pb") +
                ": graph input 'x1' is declared as sequence, not tensor; onnx_io reads tensor data only");
}

}  // namespace
}  // namespace vkindex::onnxio
