// readNodeTest on node-test directories built by hand: numeric ordering of data sets and files,
// missing pieces, relabelled types and non-tensor slots.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnx_io.hpp"
#include "onnx_io_test_support.hpp"

namespace vkindex::onnxio::test {
namespace {

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
}  // namespace vkindex::onnxio::test
