// Generated ONNX node tests: a Gather model and data sets for every element type, stored both as
// raw_data and in the typed TensorProto fields, importing opsets 1 to 18, with expected outputs from
// the CPU reference. Each directory must PASS through the same runner `vkindex onnx-test` uses.
#include <filesystem>
#include <fstream>

#include <onnx/onnx_pb.h>

#include "node_runner.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

namespace fs = std::filesystem;

template <typename T>
T elementAt(const HostTensor& t, uint64_t i, size_t offset = 0) {
  T value;
  std::memcpy(&value, t.bytes.data() + i * elementSize(t.dtype) + offset, sizeof(T));
  return value;
}

// Stores `tensor` in `proto`, as raw_data or in the typed field ONNX assigns to its type.
void fillTensorProto(const HostTensor& tensor, const std::string& name, bool raw, onnx::TensorProto& proto) {
  proto.set_name(name);
  proto.set_data_type(onnxTypeCode(tensor.dtype));
  for (int64_t dim : tensor.shape) proto.add_dims(dim);
  const uint64_t count = tensor.elementCount();
  if (tensor.dtype == DataType::kString) {
    for (const std::string& text : tensor.strings) proto.add_string_data(text);
    return;
  }
  if (raw) {
    proto.set_raw_data(std::string(tensor.bytes.begin(), tensor.bytes.end()));
    return;
  }
  for (uint64_t i = 0; i < count; ++i) {
    switch (tensor.dtype) {
      case DataType::kBool: proto.add_int32_data(elementAt<uint8_t>(tensor, i) != 0); break;
      case DataType::kInt8: proto.add_int32_data(elementAt<int8_t>(tensor, i)); break;
      case DataType::kUInt8: proto.add_int32_data(elementAt<uint8_t>(tensor, i)); break;
      case DataType::kInt16: proto.add_int32_data(elementAt<int16_t>(tensor, i)); break;
      case DataType::kUInt16:
      case DataType::kFloat16:
      case DataType::kBFloat16: proto.add_int32_data(elementAt<uint16_t>(tensor, i)); break;
      case DataType::kInt32: proto.add_int32_data(elementAt<int32_t>(tensor, i)); break;
      case DataType::kUInt32: proto.add_uint64_data(elementAt<uint32_t>(tensor, i)); break;
      case DataType::kInt64: proto.add_int64_data(elementAt<int64_t>(tensor, i)); break;
      case DataType::kUInt64: proto.add_uint64_data(elementAt<uint64_t>(tensor, i)); break;
      case DataType::kFloat32: proto.add_float_data(elementAt<float>(tensor, i)); break;
      case DataType::kFloat64: proto.add_double_data(elementAt<double>(tensor, i)); break;
      case DataType::kComplex64:
        proto.add_float_data(elementAt<float>(tensor, i));
        proto.add_float_data(elementAt<float>(tensor, i, 4));
        break;
      case DataType::kComplex128:
        proto.add_double_data(elementAt<double>(tensor, i));
        proto.add_double_data(elementAt<double>(tensor, i, 8));
        break;
      case DataType::kString: break;
    }
  }
}

void declare(const HostTensor& tensor, const std::string& name, onnx::ValueInfoProto& info) {
  info.set_name(name);
  onnx::TypeProto_Tensor* type = info.mutable_type()->mutable_tensor_type();
  type->set_elem_type(onnxTypeCode(tensor.dtype));
  for (int64_t dim : tensor.shape) type->mutable_shape()->add_dim()->set_dim_value(dim);
}

template <typename Message>
void writeMessage(const Message& message, const fs::path& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  ASSERT_TRUE(message.SerializeToOstream(&out)) << path;
}

// Writes a one-node Gather test directory.
void writeGatherTest(const fs::path& dir, int64_t opset, int64_t axis, const HostTensor& data,
                     const HostTensor& indices, const HostTensor& expected, bool raw) {
  fs::create_directories(dir / "test_data_set_0");
  onnx::ModelProto model;
  model.set_ir_version(opset >= 15 ? 8 : 7);
  model.add_opset_import()->set_version(opset);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("gather");
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type("Gather");
  node->add_input("data");
  node->add_input("indices");
  node->add_output("y");
  onnx::AttributeProto* attribute = node->add_attribute();
  attribute->set_name("axis");
  attribute->set_type(onnx::AttributeProto::INT);
  attribute->set_i(axis);
  declare(data, "data", *graph->add_input());
  declare(indices, "indices", *graph->add_input());
  declare(expected, "y", *graph->add_output());
  writeMessage(model, dir / "model.onnx");
  onnx::TensorProto proto;
  fillTensorProto(data, "data", raw, proto);
  writeMessage(proto, dir / "test_data_set_0" / "input_0.pb");
  proto.Clear();
  fillTensorProto(indices, "indices", raw, proto);
  writeMessage(proto, dir / "test_data_set_0" / "input_1.pb");
  proto.Clear();
  fillTensorProto(expected, "y", raw, proto);
  writeMessage(proto, dir / "test_data_set_0" / "output_0.pb");
}

class OnnxGeneratedTest : public GpuTest {};

TEST_F(OnnxGeneratedTest, EveryTypeEveryStorageFormAndOpsetPasses) {
  const fs::path root = fs::temp_directory_path() / ("vkindex_generated_" + std::to_string(::getpid()));
  fs::remove_all(root);
  Rng rng(77);
  int written = 0;
  for (DataType dtype : kAllDataTypes) {
    for (bool raw : {true, false}) {
      if (raw && dtype == DataType::kString) continue;  // strings have no raw form
      // Opsets 1..18 spread over the cases; bfloat16 only exists from Gather-13 on.
      int64_t opset = 1 + (static_cast<int64_t>(dtype) * 2 + (raw ? 1 : 0)) % 18;
      if (dtype == DataType::kBFloat16) opset = std::max<int64_t>(opset, 13);
      const DataType index_type = raw ? DataType::kInt64 : DataType::kInt32;
      HostTensor data = randomTensor(rng, dtype, {4, 3, 5});
      HostTensor indices = indexTensor(index_type, {2, 2}, {-1, 2, 0, -3});
      ReferenceResult expected = referenceGather(data, indices, 1);
      const fs::path dir = root / (std::string(dataTypeName(dtype)) + (raw ? "_raw" : "_typed"));
      writeGatherTest(dir, opset, 1, data, indices, expected.output, raw);
      tools::NodeTestResult result = tools::runNodeTestDir(context(), dir.string(), {});
      EXPECT_EQ(result.outcome, tools::Outcome::kPass) << dir << " (opset " << opset << "): " << result.message;
      ++written;
    }
  }
  EXPECT_EQ(written, 31);
  for (int64_t opset = 1; opset <= 18; ++opset) {
    HostTensor data = randomTensor(rng, DataType::kFloat32, {6});
    HostTensor indices = indexTensor(DataType::kInt64, {}, {-6});
    const fs::path dir = root / ("opset_" + std::to_string(opset));
    writeGatherTest(dir, opset, 0, data, indices, referenceGather(data, indices, 0).output, false);
    tools::NodeTestResult result = tools::runNodeTestDir(context(), dir.string(), {});
    EXPECT_EQ(result.outcome, tools::Outcome::kPass) << dir << ": " << result.message;
  }
  fs::remove_all(root);
}

TEST_F(OnnxGeneratedTest, StringMismatchNamesPositionAndBothValues) {
  const fs::path dir = fs::temp_directory_path() / ("vkindex_generated_strings_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  HostTensor data;
  data.dtype = DataType::kString;
  data.shape = {3};
  data.strings = {"alpha", "beta", "gamma"};
  HostTensor indices = indexTensor(DataType::kInt64, {2}, {2, 0});
  HostTensor wrong = referenceGather(data, indices, 0).output;
  wrong.strings[1] = "omega";
  writeGatherTest(dir, 13, 0, data, indices, wrong, false);
  tools::NodeTestResult result = tools::runNodeTestDir(context(), dir.string(), {});
  EXPECT_EQ(result.outcome, tools::Outcome::kFail);
  EXPECT_NE(result.message.find("output 0 differs at [1]: got \"alpha\", expected \"omega\""), std::string::npos)
      << result.message;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace vkindex::test
