// The official gather/scatter node tests of libonnx-testdata load through onnx_io with the right
// facts: op, opset, attributes, input and output types and shapes, and some of their values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "onnx_io.hpp"
#include "onnx_io_test_support.hpp"

namespace vkindex::onnxio::test {
namespace {

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

}  // namespace
}  // namespace vkindex::onnxio::test
