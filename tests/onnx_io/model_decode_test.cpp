// Hand-built ModelProtos through decodeNodeModel: opsets, structure, attributes and initializers.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "onnx_io.hpp"
#include "onnx_io_test_support.hpp"
#include "onnx_proto_decode.hpp"

namespace vkindex::onnxio::test {
namespace {

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

// A declared element type is checked, not ignored: an unknown code would otherwise let data of any
// type through to the operator. 0 (UNDEFINED) leaves the type open.
TEST(ModelDecode, UnknownDeclaredElemTypesAreRejected) {
  onnx::ModelProto output = makeGatherModel(13);
  output.mutable_graph()->mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(99);
  expectModelRejected(output, StatusCode::kInvalidArgument,
                      "hand.onnx: graph output #0 'y' declares elem_type 99, which is not a TensorProto.DataType code");

  onnx::ModelProto input = makeGatherModel(13);
  input.mutable_graph()->mutable_input(1)->mutable_type()->mutable_tensor_type()->set_elem_type(-3);
  expectModelRejected(input, StatusCode::kInvalidArgument,
                      "hand.onnx: graph input #1 'indices' declares elem_type -3, which is not a TensorProto.DataType "
                      "code");

  onnx::ModelProto open_type = makeGatherModel(13);
  open_type.mutable_graph()->mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(0);
  StatusOr<NodeModel> model = decodeNodeModel(open_type, "hand.onnx");
  ASSERT_TRUE(model.ok()) << model.status().toString();
  EXPECT_FALSE(model->graph_outputs[0].elem_type.has_value());
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

}  // namespace
}  // namespace vkindex::onnxio::test
