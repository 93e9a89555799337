#include "node_test_builder.hpp"

#include "onnx_io_test_support.hpp"

namespace vkindex::tools::test {
namespace {

using onnxio::test::addValueInfo;
using onnxio::test::makeTensor;
using onnxio::test::writeProto;

std::vector<int64_t> dimsOf(const onnx::TensorProto& tensor) { return {tensor.dims().begin(), tensor.dims().end()}; }

onnx::TensorProto rank1(const std::string& name, onnx::TensorProto_DataType type, size_t size) {
  onnx::TensorProto proto = makeTensor(type, {static_cast<int64_t>(size)});
  proto.set_name(name);
  return proto;
}

}  // namespace

void writeNodeTest(const std::filesystem::path& dir, const NodeTestSpec& spec) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  onnx::OperatorSetIdProto* import = model.add_opset_import();
  import->set_domain(spec.domain);
  import->set_version(spec.opset);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("hand_made");
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type(spec.op_type);
  node->set_domain(spec.domain);
  for (const SpecInput& input : spec.inputs) {
    node->add_input(input.name);
    addValueInfo(graph->mutable_input(), input.name, input.declared_type.value_or(input.tensor.data_type()),
                 dimsOf(input.tensor));
  }
  node->add_output("y");
  addValueInfo(graph->mutable_output(), "y", spec.expected.data_type(), dimsOf(spec.expected));
  for (const onnx::AttributeProto& attribute : spec.attributes) *node->add_attribute() = attribute;

  std::filesystem::create_directories(dir / "test_data_set_0");
  writeProto((dir / "model.onnx").string(), model);
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    writeProto((dir / "test_data_set_0" / ("input_" + std::to_string(i) + ".pb")).string(), spec.inputs[i].tensor);
  }
  writeProto((dir / "test_data_set_0" / "output_0.pb").string(), spec.expected);
}

onnx::TensorProto floatTensor(const std::string& name, const std::vector<float>& values) {
  onnx::TensorProto proto = rank1(name, onnx::TensorProto_DataType_FLOAT, values.size());
  for (float value : values) proto.add_float_data(value);
  return proto;
}

onnx::TensorProto int64Tensor(const std::string& name, const std::vector<int64_t>& values) {
  onnx::TensorProto proto = rank1(name, onnx::TensorProto_DataType_INT64, values.size());
  for (int64_t value : values) proto.add_int64_data(value);
  return proto;
}

onnx::TensorProto stringTensor(const std::string& name, const std::vector<std::string>& values) {
  onnx::TensorProto proto = rank1(name, onnx::TensorProto_DataType_STRING, values.size());
  for (const std::string& value : values) proto.add_string_data(value);
  return proto;
}

onnx::AttributeProto intAttribute(const std::string& name, int64_t value) {
  onnx::AttributeProto attribute;
  attribute.set_name(name);
  attribute.set_type(onnx::AttributeProto_AttributeType_INT);
  attribute.set_i(value);
  return attribute;
}

onnx::AttributeProto stringAttribute(const std::string& name, const std::string& value) {
  onnx::AttributeProto attribute;
  attribute.set_name(name);
  attribute.set_type(onnx::AttributeProto_AttributeType_STRING);
  attribute.set_s(value);
  return attribute;
}

NodeTestSpec passingGather() {
  NodeTestSpec spec;
  spec.inputs = {{"data", floatTensor("data", {1, 2, 3}), std::nullopt},
                 {"indices", int64Tensor("indices", {2, 0}), std::nullopt}};
  spec.expected = floatTensor("y", {3, 1});
  spec.attributes = {intAttribute("axis", 0)};
  return spec;
}

}  // namespace vkindex::tools::test
