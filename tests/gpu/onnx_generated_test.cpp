// Generated ONNX node tests: Gather, GatherElements and GatherND models and data sets for every element
// type, stored both as raw_data and in the typed TensorProto fields, importing every opset that defines
// the operator, with expected outputs from the CPU references. Each directory must PASS through the same runner
// `vkindex onnx-test` uses; what an opset does not define must be refused with a clear error.
#include <filesystem>
#include <fstream>
#include <random>

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

// The node of a generated test: operator, imported opset and INT attributes.
struct NodeSpec {
  std::string op_type;
  int64_t opset = 0;
  std::vector<std::pair<std::string, int64_t>> attributes;
};

// Writes a one-node test directory: inputs (data, indices), output y, one data set.
void writeNodeTest(const fs::path& dir, const NodeSpec& spec, const HostTensor& data, const HostTensor& indices,
                   const HostTensor& expected, bool raw) {
  fs::create_directories(dir / "test_data_set_0");
  onnx::ModelProto model;
  model.set_ir_version(spec.opset >= 15 ? 8 : 7);
  model.add_opset_import()->set_version(spec.opset);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("generated");
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type(spec.op_type);
  node->add_input("data");
  node->add_input("indices");
  node->add_output("y");
  for (const auto& [name, value] : spec.attributes) {
    onnx::AttributeProto* attribute = node->add_attribute();
    attribute->set_name(name);
    attribute->set_type(onnx::AttributeProto::INT);
    attribute->set_i(value);
  }
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

void writeGatherTest(const fs::path& dir, int64_t opset, int64_t axis, const HostTensor& data,
                     const HostTensor& indices, const HostTensor& expected, bool raw) {
  writeNodeTest(dir, {"Gather", opset, {{"axis", axis}}}, data, indices, expected, raw);
}

// Random GatherND index tuples of `shape` (last dim k): component c in [-s, s-1] for s = sizes[c].
HostTensor randomTuples(Rng& rng, DataType index_type, const Shape& shape, const Shape& sizes) {
  uint64_t count = 1;
  for (int64_t dim : shape) count *= static_cast<uint64_t>(dim);
  std::vector<int64_t> values(count);
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t s = sizes[i % sizes.size()];
    values[i] = std::uniform_int_distribution<int64_t>(-s, s - 1)(rng);
  }
  return indexTensor(index_type, shape, values);
}

std::string describeNode(const NodeSpec& spec) {
  std::string text = spec.op_type + " opset " + std::to_string(spec.opset);
  for (const auto& [name, value] : spec.attributes) text += ", " + name + " " + std::to_string(value);
  return text;
}

class OnnxGeneratedTest : public GpuTest {
 protected:
  // A fresh scratch folder for this test, removed at the end.
  fs::path scratch(const std::string& name) {
    root_ = fs::temp_directory_path() / ("vkindex_generated_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    return root_;
  }
  void TearDown() override {
    if (!root_.empty()) fs::remove_all(root_);
    GpuTest::TearDown();
  }

  // Writes the directory and runs it as `vkindex onnx-test` does (with `repeat` > 0 also through the
  // recorded path); expects PASS.
  void expectPass(const fs::path& dir, const NodeSpec& spec, const HostTensor& data, const HostTensor& indices,
                  const HostTensor& expected, bool raw, int repeat = 0) {
    writeNodeTest(dir, spec, data, indices, expected, raw);
    tools::NodeTestResult result = tools::runNodeTestDir(context(), dir.string(), {repeat});
    EXPECT_STREQ(tools::outcomeName(result.outcome), "pass")
        << dir << " (" << describeNode(spec) << ", " << describe(data) << " x " << describe(indices)
        << "): " << result.message;
  }

  // Writes the directory and expects the runner's error `message`.
  void expectError(const fs::path& dir, const NodeSpec& spec, const HostTensor& data, const HostTensor& indices,
                   const HostTensor& expected, const std::string& message) {
    writeNodeTest(dir, spec, data, indices, expected, false);
    tools::NodeTestResult result = tools::runNodeTestDir(context(), dir.string(), {});
    EXPECT_STREQ(tools::outcomeName(result.outcome), "error") << dir << ": " << result.message;
    EXPECT_EQ(result.message, message);
  }

 private:
  fs::path root_;
};

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

// GatherElements: every type in both storage forms, opsets 11 and 13, every axis sign, indices narrower
// than data in the other dims and (for odd types) longer than data along the axis, negative indices.
TEST_F(OnnxGeneratedTest, GatherElementsEveryTypeAndStorageFormPasses) {
  const fs::path root = scratch("gather_elements");
  Rng rng(78);
  int written = 0;
  for (DataType dtype : kAllDataTypes) {
    for (bool raw : {true, false}) {
      if (raw && dtype == DataType::kString) continue;
      const int type_number = static_cast<int>(dtype);
      // bfloat16 only exists from GatherElements-13 on.
      const int64_t opset = dtype == DataType::kBFloat16 || (type_number + (raw ? 1 : 0)) % 2 == 1 ? 13 : 11;
      const int64_t axis = type_number % 4 - 1;  // -1, 0, 1, 2
      const auto a = static_cast<size_t>(axis < 0 ? axis + 3 : axis);
      const Shape data_shape = {4, 3, 5};
      Shape indices_shape = {3, 2, 5};
      indices_shape[a] = type_number % 2 == 1 ? 6 : 2;
      HostTensor data = randomTensor(rng, dtype, data_shape);
      HostTensor indices = randomIndices(rng, raw ? DataType::kInt64 : DataType::kInt32, indices_shape, data_shape[a]);
      const fs::path dir = root / (std::string(dataTypeName(dtype)) + (raw ? "_raw" : "_typed"));
      expectPass(dir, {"GatherElements", opset, {{"axis", axis}}}, data, indices,
                 referenceGatherElements(data, indices, axis).output, raw);
      ++written;
    }
  }
  EXPECT_EQ(written, 31);
}

// GatherND: every type in both storage forms, opsets 11, 12 and 13; from 12 on batch_dims 0 (written
// out), 1 and 2, with tuples of 2, 3 and 1 components; negative indices.
TEST_F(OnnxGeneratedTest, GatherNDEveryTypeAndStorageFormPasses) {
  const fs::path root = scratch("gather_nd");
  Rng rng(79);
  int written = 0, batched = 0;
  const Shape data_shape = {3, 4, 5, 2};
  for (DataType dtype : kAllDataTypes) {
    for (bool raw : {true, false}) {
      if (raw && dtype == DataType::kString) continue;
      const int type_number = static_cast<int>(dtype);
      // bfloat16 only exists from GatherND-13 on.
      const int64_t opset = dtype == DataType::kBFloat16 ? 13 : 11 + (type_number + (raw ? 1 : 0)) % 3;
      const int64_t batch_dims = opset == 11 ? 0 : type_number % 3;
      NodeSpec spec{"GatherND", opset, {}};
      if (opset >= 12) spec.attributes.emplace_back("batch_dims", batch_dims);
      // indices.shape = data.shape[:batch_dims] + tuple dims + [k].
      const Shape indices_shape = batch_dims == 0 ? Shape{2, 3, 2} : batch_dims == 1 ? Shape{3, 2, 3} : Shape{3, 4, 1};
      const auto b = static_cast<size_t>(batch_dims);
      const Shape sizes(data_shape.begin() + static_cast<int64_t>(b),
                        data_shape.begin() + static_cast<int64_t>(b) + indices_shape.back());
      HostTensor data = randomTensor(rng, dtype, data_shape);
      HostTensor indices = randomTuples(rng, raw ? DataType::kInt64 : DataType::kInt32, indices_shape, sizes);
      const fs::path dir = root / (std::string(dataTypeName(dtype)) + (raw ? "_raw" : "_typed"));
      expectPass(dir, spec, data, indices, referenceGatherND(data, indices, batch_dims).output, raw);
      ++written;
      batched += batch_dims > 0 ? 1 : 0;
    }
  }
  EXPECT_EQ(written, 31);
  EXPECT_GE(batched, 10);
}

// Every opset a model may import for the two operators (11 to 18 resolve to GatherElements-11/13 and
// GatherND-11/12/13), with fixed negative indices, through the submitting and the recorded path.
TEST_F(OnnxGeneratedTest, GatherElementsAndGatherNDPassAtEveryOpset) {
  const fs::path root = scratch("gather_opsets");
  Rng rng(80);
  for (int64_t opset = 11; opset <= 18; ++opset) {
    const std::string suffix = "_opset_" + std::to_string(opset);
    HostTensor data = randomTensor(rng, DataType::kFloat32, {2, 3});
    HostTensor indices = indexTensor(DataType::kInt64, {2, 2}, {-1, -3, 2, -2});
    expectPass(root / ("elements" + suffix), {"GatherElements", opset, {{"axis", -1}}}, data, indices,
               referenceGatherElements(data, indices, -1).output, opset % 2 == 0, 1);
    if (opset == 11) {
      // No batch_dims at opset 11. Rank-1 indices: one whole tuple, a scalar output.
      HostTensor nd_indices = indexTensor(DataType::kInt64, {2}, {-2, -1});
      expectPass(root / ("nd" + suffix), {"GatherND", opset, {}}, data, nd_indices,
                 referenceGatherND(data, nd_indices, 0).output, false, 1);
    } else {
      HostTensor batched = randomTensor(rng, DataType::kFloat32, {2, 3, 2});
      HostTensor nd_indices = indexTensor(DataType::kInt64, {2, 1}, {-1, -3});
      expectPass(root / ("nd" + suffix), {"GatherND", opset, {{"batch_dims", 1}}}, batched, nd_indices,
                 referenceGatherND(batched, nd_indices, 1).output, opset % 2 == 0, 1);
    }
  }
}

// The runner refuses what the imported opset does not define and attributes an operator does not have.
TEST_F(OnnxGeneratedTest, AttributesAndOpsetsTheOperatorLacksAreErrors) {
  const fs::path root = scratch("gather_refusals");
  Rng rng(81);
  HostTensor data = randomTensor(rng, DataType::kFloat32, {2, 2, 2});
  HostTensor indices = indexTensor(DataType::kInt64, {2, 1}, {1, 0});
  HostTensor expected = referenceGatherND(data, indices, 1).output;
  expectError(root / "nd_batch_dims_at_11", {"GatherND", 11, {{"batch_dims", 1}}}, data, indices, expected,
              "GatherND: attribute 'batch_dims' is not defined at opset 11 (GatherND has it from opset 12 on)");
  expectError(root / "nd_zero_batch_dims_at_11", {"GatherND", 11, {{"batch_dims", 0}}}, data, indices, expected,
              "GatherND: attribute 'batch_dims' is not defined at opset 11 (GatherND has it from opset 12 on)");
  expectError(root / "nd_axis", {"GatherND", 13, {{"axis", 0}}}, data, indices, expected,
              "GatherND: unknown attribute 'axis'");
  expectError(root / "nd_at_10", {"GatherND", 10, {}}, data, indices, expected,
              "GatherND: the model imports opset 10, but GatherND exists from opset 11 on");
  HostTensor element_indices = indexTensor(DataType::kInt64, {2, 2, 2}, {0, 1, 1, 0, 0, 0, 1, 1});
  HostTensor element_expected = referenceGatherElements(data, element_indices, 0).output;
  expectError(root / "elements_batch_dims", {"GatherElements", 13, {{"batch_dims", 1}}}, data, element_indices,
              element_expected, "GatherElements: unknown attribute 'batch_dims'");
  expectError(root / "elements_at_9", {"GatherElements", 9, {{"axis", 0}}}, data, element_indices, element_expected,
              "GatherElements: the model imports opset 9, but GatherElements exists from opset 11 on");
}

}  // namespace
}  // namespace vkindex::test
