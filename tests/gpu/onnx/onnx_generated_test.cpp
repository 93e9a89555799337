// Generated ONNX node tests: Gather, GatherElements, GatherND, Scatter, ScatterElements and ScatterND
// models and data sets for every element type, stored both as raw_data and in the typed TensorProto
// fields, importing every opset that defines the operator; the scatter reductions over every defined
// (type, reduction) pair (support/defined_reductions.hpp) at every opset that defines the reduction,
// with values of every kind. Expected outputs come from the CPU references. Each directory must PASS
// through the same runner `vkindex onnx-test` uses; what an opset does not define must be refused with a
// clear error.
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <variant>

#include <onnx/onnx_pb.h>

#include "node_runner.hpp"
#include "support/defined_reductions.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reduction_values.hpp"
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
  if (elementBits(tensor.dtype) == 4) {  // int32_data holds the packed pairs, one byte per entry
    for (uint8_t pair : tensor.bytes) proto.add_int32_data(pair);
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
      default: proto.add_int32_data(elementAt<uint8_t>(tensor, i)); break;  // a float8 bit pattern
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

// The node of a generated test: operator, imported opset and its INT or STRING attributes.
struct NodeSpec {
  std::string op_type;
  int64_t opset = 0;
  std::vector<std::pair<std::string, std::variant<int64_t, std::string>>> attributes;
};

// The node's inputs in order; they are named data, indices and updates.
using NodeInputs = std::vector<const HostTensor*>;

// Writes a one-node test directory: the inputs, output y, one data set.
void writeNodeTest(const fs::path& dir, const NodeSpec& spec, const NodeInputs& inputs, const HostTensor& expected,
                   bool raw) {
  static const char* const kInputNames[] = {"data", "indices", "updates"};
  ASSERT_LE(inputs.size(), std::size(kInputNames));
  fs::create_directories(dir / "test_data_set_0");
  onnx::ModelProto model;
  model.set_ir_version(spec.opset >= 15 ? 8 : 7);
  model.add_opset_import()->set_version(spec.opset);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("generated");
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type(spec.op_type);
  for (size_t i = 0; i < inputs.size(); ++i) node->add_input(kInputNames[i]);
  node->add_output("y");
  for (const auto& [name, value] : spec.attributes) {
    onnx::AttributeProto* attribute = node->add_attribute();
    attribute->set_name(name);
    if (const int64_t* number = std::get_if<int64_t>(&value)) {
      attribute->set_type(onnx::AttributeProto::INT);
      attribute->set_i(*number);
    } else {
      attribute->set_type(onnx::AttributeProto::STRING);
      attribute->set_s(std::get<std::string>(value));
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) declare(*inputs[i], kInputNames[i], *graph->add_input());
  declare(expected, "y", *graph->add_output());
  writeMessage(model, dir / "model.onnx");
  onnx::TensorProto proto;
  for (size_t i = 0; i < inputs.size(); ++i) {
    proto.Clear();
    fillTensorProto(*inputs[i], kInputNames[i], raw, proto);
    writeMessage(proto, dir / "test_data_set_0" / ("input_" + std::to_string(i) + ".pb"));
  }
  proto.Clear();
  fillTensorProto(expected, "y", raw, proto);
  writeMessage(proto, dir / "test_data_set_0" / "output_0.pb");
}

void writeGatherTest(const fs::path& dir, int64_t opset, int64_t axis, const HostTensor& data,
                     const HostTensor& indices, const HostTensor& expected, bool raw) {
  writeNodeTest(dir, {"Gather", opset, {{"axis", axis}}}, {&data, &indices}, expected, raw);
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
  for (const auto& [name, value] : spec.attributes) {
    const int64_t* number = std::get_if<int64_t>(&value);
    text += ", " + name + " " + (number ? std::to_string(*number) : "'" + std::get<std::string>(value) + "'");
  }
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
  void expectPass(const fs::path& dir, const NodeSpec& spec, const NodeInputs& inputs, const HostTensor& expected,
                  bool raw, int repeat = 0) {
    writeNodeTest(dir, spec, inputs, expected, raw);
    tools::NodeTestResult result = tools::runNodeTestDir(context(), dir.string(), {repeat});
    std::string described;
    for (const HostTensor* input : inputs) described += (described.empty() ? "" : " x ") + describe(*input);
    EXPECT_STREQ(tools::outcomeName(result.outcome), "pass")
        << dir << " (" << describeNode(spec) << ", " << described << "): " << result.message;
  }
  void expectPass(const fs::path& dir, const NodeSpec& spec, const HostTensor& data, const HostTensor& indices,
                  const HostTensor& expected, bool raw, int repeat = 0) {
    expectPass(dir, spec, {&data, &indices}, expected, raw, repeat);
  }

  // Writes the directory and expects the runner's error `message`.
  void expectError(const fs::path& dir, const NodeSpec& spec, const NodeInputs& inputs, const HostTensor& expected,
                   const std::string& message) {
    writeNodeTest(dir, spec, inputs, expected, false);
    tools::NodeTestResult result = tools::runNodeTestDir(context(), dir.string(), {});
    EXPECT_STREQ(tools::outcomeName(result.outcome), "error") << dir << ": " << result.message;
    EXPECT_EQ(result.message, message);
  }
  void expectError(const fs::path& dir, const NodeSpec& spec, const HostTensor& data, const HostTensor& indices,
                   const HostTensor& expected, const std::string& message) {
    expectError(dir, spec, {&data, &indices}, expected, message);
  }

 private:
  fs::path root_;
};

TEST_F(OnnxGeneratedTest, EveryTypeEveryStorageFormAndOpsetPasses) {
  const fs::path root = fs::temp_directory_path() / ("vkindex_generated_" + std::to_string(::getpid()));
  fs::remove_all(root);
  Rng rng(77);
  int written = 0;
  for (DataType dtype : kClassicDataTypes) {
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
  for (DataType dtype : kClassicDataTypes) {
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
  for (DataType dtype : kClassicDataTypes) {
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

// An opset that defines ScatterElements and ScatterND (11, 13, 16, 18), picked by `n`.
int64_t scatterOpset(int n) {
  static const int64_t kOpsets[] = {11, 13, 16, 18};
  return kOpsets[n % 4];
}

// Scatter (opsets 9, 10), ScatterElements and ScatterND (11, 13, 16, 18) with reduction none: every type
// in both storage forms (bfloat16 from opset 13; Scatter has none), every axis sign, indices with
// duplicates (the last update wins), negative indices, indices longer than data along the axis; every
// third case also through the recorded path.
TEST_F(OnnxGeneratedTest, ScattersEveryTypeStorageFormAndOpsetPass) {
  const fs::path root = scratch("scatter");
  Rng rng(82);
  int written = 0, recorded = 0;
  std::set<std::pair<std::string, int64_t>> opsets;
  for (const char* op : {"Scatter", "ScatterElements", "ScatterND"}) {
    const std::string op_type = op;
    for (DataType dtype : kClassicDataTypes) {
      for (bool raw : {true, false}) {
        if (raw && dtype == DataType::kString) continue;
        if (op_type == "Scatter" && dtype == DataType::kBFloat16) continue;  // not a type of Scatter-9/10
        const int type_number = static_cast<int>(dtype);
        const int variant = type_number * 2 + (raw ? 1 : 0);
        int64_t opset = op_type == "Scatter" ? 9 + variant % 2 : scatterOpset(variant);
        if (dtype == DataType::kBFloat16) opset = std::max<int64_t>(opset, 13);
        opsets.emplace(op_type, opset);
        NodeSpec spec{op_type, opset, {}};
        // reduction 'none', written out at every other case whose opset has the attribute.
        if (opset >= 16 && type_number % 2 == 0) spec.attributes.emplace_back("reduction", std::string("none"));
        const DataType index_type = raw ? DataType::kInt64 : DataType::kInt32;
        HostTensor data, indices, updates, expected;
        if (op_type == "ScatterND") {
          data = randomTensor(rng, dtype, {3, 4, 5, 2});
          // k = 1, 2, 3, 4: slices of 40, 10, 2 elements or single elements.
          static const Shape kIndexShapes[] = {{2, 1}, {2, 3, 2}, {2, 2, 3}, {3, 4}};
          const Shape& indices_shape = kIndexShapes[type_number % 4];
          const auto k = static_cast<size_t>(indices_shape.back());
          indices = randomTuples(rng, index_type, indices_shape,
                                 Shape(data.shape.begin(), data.shape.begin() + static_cast<std::ptrdiff_t>(k)));
          Shape updates_shape(indices_shape.begin(), indices_shape.end() - 1);
          updates_shape.insert(updates_shape.end(), data.shape.begin() + static_cast<std::ptrdiff_t>(k),
                               data.shape.end());
          updates = randomTensor(rng, dtype, updates_shape);
          expected = referenceScatterND(data, indices, updates, Reduction::kNone).output;
        } else {
          const int64_t axis = type_number % 4 - 1;  // -1, 0, 1, 2
          if (axis != 0 || op_type == "ScatterElements") spec.attributes.emplace_back("axis", axis);
          const auto a = static_cast<size_t>(axis < 0 ? axis + 3 : axis);
          data = randomTensor(rng, dtype, {4, 3, 5});
          Shape indices_shape = {3, 2, 5};
          indices_shape[a] = type_number % 2 == 1 ? 6 : 2;
          indices = randomIndices(rng, index_type, indices_shape, data.shape[a]);
          updates = randomTensor(rng, dtype, indices_shape);
          expected = referenceScatterElements(data, indices, updates, axis, Reduction::kNone).output;
        }
        const int repeat = variant % 3 == 0 ? 1 : 0;
        const fs::path dir = root / (op_type + "_" + dataTypeName(dtype) + (raw ? "_raw" : "_typed"));
        expectPass(dir, spec, {&data, &indices, &updates}, expected, raw, repeat);
        ++written;
        recorded += repeat;
      }
    }
  }
  EXPECT_EQ(written, 29 + 31 + 31);
  EXPECT_GE(recorded, 20);
  for (int64_t opset : {9, 10}) EXPECT_EQ(opsets.count({"Scatter", opset}), 1u) << opset;
  for (int64_t opset : {11, 13, 16, 18}) {
    EXPECT_EQ(opsets.count({"ScatterElements", opset}), 1u) << opset;
    EXPECT_EQ(opsets.count({"ScatterND", opset}), 1u) << opset;
  }
}

// Every defined (type, reduction) pair (defined_reductions.hpp) at every opset that defines the
// reduction (add and mul from 16, max and min from 18), with many updates per target folded in index
// order, values of every kind (reductionValues: subnormals, NaNs, infinities, signed zeros), both
// storage forms and index types in turn, every other case also through the recorded path.
TEST_F(OnnxGeneratedTest, ScatterReductionsPassAtEveryOpsetThatDefinesThem) {
  const fs::path root = scratch("scatter_reductions");
  Rng rng(83);
  int written = 0;
  const std::vector<ReductionPair> pairs = definedReductionPairs();
  for (const char* op : {"ScatterElements", "ScatterND"}) {
    const std::string op_type = op;
    for (const auto& [dtype, reduction] : pairs) {
      const bool max_or_min = reduction == Reduction::kMax || reduction == Reduction::kMin;
      for (int64_t opset : {16, 17, 18}) {
        if (max_or_min && opset < 18) continue;
        const bool raw = (written % 2) == 0;
        const DataType index_type = raw ? DataType::kInt64 : DataType::kInt32;
        NodeSpec spec{op_type, opset, {{"reduction", std::string(reductionName(reduction))}}};
        HostTensor data, indices, updates, expected;
        if (op_type == "ScatterND") {
          // 6 rows onto 4, or 7 elements onto 12: duplicates are certain.
          data = reductionValues(rng, dtype, {4, 3});
          const Shape indices_shape = written % 4 < 2 ? Shape{6, 1} : Shape{7, 2};
          const auto k = static_cast<size_t>(indices_shape.back());
          indices = randomTuples(rng, index_type, indices_shape,
                                 Shape(data.shape.begin(), data.shape.begin() + static_cast<std::ptrdiff_t>(k)));
          updates = reductionValues(rng, dtype, k == 1 ? Shape{6, 3} : Shape{7});
          expected = referenceScatterND(data, indices, updates, reduction).output;
        } else {
          // 5 updates per column onto 3 rows (axis 0), or 7 per row onto 4 columns (axis -1).
          const int64_t axis = written % 4 < 2 ? 0 : -1;
          spec.attributes.emplace_back("axis", axis);
          data = reductionValues(rng, dtype, {3, 4});
          const Shape indices_shape = axis == 0 ? Shape{5, 4} : Shape{3, 7};
          indices = randomIndices(rng, index_type, indices_shape, axis == 0 ? 3 : 4);
          updates = reductionValues(rng, dtype, indices_shape);
          expected = referenceScatterElements(data, indices, updates, axis, reduction).output;
        }
        const fs::path dir =
            root / (op_type + "_" + dataTypeName(dtype) + "_" + reductionName(reduction) + "_" + std::to_string(opset));
        expectPass(dir, spec, {&data, &indices, &updates}, expected, raw, written % 2);
        ++written;
      }
    }
  }
  // 12 numeric types x (add, mul at 3 opsets + max, min at 1) + 2 complex types x (add, mul at 3) + bool
  // (add, mul at 3) + string (add at 3), per op.
  EXPECT_EQ(written, 2 * (12 * (3 + 3 + 1 + 1) + 2 * (3 + 3) + (3 + 3) + 3));
}

// The runner refuses what the imported opset does not define: Scatter outside 9 and 10, the reduction
// attribute before 16, max and min before 18, unknown reductions and attributes. Reductions a type lacks
// are the library's refusal.
TEST_F(OnnxGeneratedTest, ScatterOpsetsAndReductionsTheOperatorLacksAreErrors) {
  const fs::path root = scratch("scatter_refusals");
  Rng rng(84);
  HostTensor data = randomTensor(rng, DataType::kFloat32, {2, 3});
  HostTensor indices = indexTensor(DataType::kInt64, {1, 2}, {1, 0});
  HostTensor updates = randomTensor(rng, DataType::kFloat32, {1, 2});
  const HostTensor& expected = data;  // never compared: every case errors first
  const NodeInputs inputs = {&data, &indices, &updates};
  expectError(root / "scatter_at_8", {"Scatter", 8, {}}, inputs, expected,
              "Scatter: the model imports opset 8, but Scatter exists from opset 9 on");
  expectError(root / "scatter_at_11", {"Scatter", 11, {}}, inputs, expected,
              "Scatter: the model imports opset 11, but Scatter is deprecated from opset 11 on (use ScatterElements)");
  expectError(root / "scatter_reduction", {"Scatter", 10, {{"reduction", std::string("none")}}}, inputs, expected,
              "Scatter: unknown attribute 'reduction'");
  // Scatter runs as ScatterElements, and its errors name the operator the model used.
  HostTensor bad_indices = indexTensor(DataType::kInt64, {1, 2}, {1, 2});
  expectError(root / "scatter_bad_index", {"Scatter", 9, {}}, {&data, &bad_indices, &updates}, expected,
              "Scatter: indices[0, 1] = 2 is out of range for axis 0 of size 2 (allowed [-2, 1])");
  expectError(root / "scatter_updates_shape", {"Scatter", 10, {}}, {&data, &indices, &data}, expected,
              "Scatter: input 'updates' has shape [2, 3] but input 'indices' has shape [1, 2]; they must be equal");
  expectError(root / "elements_at_10", {"ScatterElements", 10, {}}, inputs, expected,
              "ScatterElements: the model imports opset 10, but ScatterElements exists from opset 11 on");
  expectError(root / "elements_add_at_13", {"ScatterElements", 13, {{"reduction", std::string("add")}}}, inputs,
              expected, "ScatterElements: attribute 'reduction' is not defined at opset 13 (from opset 16)");
  expectError(root / "elements_none_at_11", {"ScatterElements", 11, {{"reduction", std::string("none")}}}, inputs,
              expected, "ScatterElements: attribute 'reduction' is not defined at opset 11 (from opset 16)");
  expectError(root / "elements_min_at_17", {"ScatterElements", 17, {{"reduction", std::string("min")}}}, inputs,
              expected, "ScatterElements: reduction 'min' is not defined at opset 17 (max and min from opset 18)");
  expectError(root / "elements_batch_dims", {"ScatterElements", 18, {{"batch_dims", 0}}}, inputs, expected,
              "ScatterElements: unknown attribute 'batch_dims'");
  expectError(root / "elements_int_reduction", {"ScatterElements", 18, {{"reduction", int64_t{1}}}}, inputs, expected,
              "ScatterElements: attribute 'reduction' must be STRING, got INT");
  expectError(root / "elements_two_inputs", {"ScatterElements", 13, {}}, {&data, &indices}, expected,
              "ScatterElements: expected 3 inputs and 1 output, got 2 and 1");

  HostTensor nd_indices = indexTensor(DataType::kInt64, {1, 1}, {1});
  HostTensor nd_updates = randomTensor(rng, DataType::kFloat32, {1, 3});
  const NodeInputs nd_inputs = {&data, &nd_indices, &nd_updates};
  expectError(root / "nd_max_at_16", {"ScatterND", 16, {{"reduction", std::string("max")}}}, nd_inputs, expected,
              "ScatterND: reduction 'max' is not defined at opset 16 (max and min from opset 18)");
  expectError(root / "nd_mul_at_13", {"ScatterND", 13, {{"reduction", std::string("mul")}}}, nd_inputs, expected,
              "ScatterND: attribute 'reduction' is not defined at opset 13 (from opset 16)");
  expectError(root / "nd_avg", {"ScatterND", 18, {{"reduction", std::string("avg")}}}, nd_inputs, expected,
              "ScatterND: attribute 'reduction' = 'avg' is not one of none, add, mul, max, min");
  expectError(root / "nd_axis", {"ScatterND", 18, {{"axis", 0}}}, nd_inputs, expected,
              "ScatterND: unknown attribute 'axis'");
  expectError(root / "nd_at_10", {"ScatterND", 10, {}}, nd_inputs, expected,
              "ScatterND: the model imports opset 10, but ScatterND exists from opset 11 on");

  // Defined at the opset, refused by the library for the type.
  HostTensor flags = randomTensor(rng, DataType::kBool, {2, 3});
  HostTensor flag_updates = randomTensor(rng, DataType::kBool, {1, 3});
  expectError(root / "nd_max_bool", {"ScatterND", 18, {{"reduction", std::string("max")}}},
              {&flags, &nd_indices, &flag_updates}, flags,
              "ScatterND: reduction 'max' is not defined for bool (bool allows none, add as OR, mul as AND)");
}

// bfloat16 joined Gather, GatherElements, GatherND, ScatterElements and ScatterND at opset 13 and was
// never a type of Scatter (9, 10): below that the runner refuses the node, naming operator, opset, input
// and type, in both storage forms; at 13 the same node passes.
TEST_F(OnnxGeneratedTest, BFloat16BeforeOpset13IsRefused) {
  const fs::path root = scratch("bfloat16_opsets");
  Rng rng(85);
  const HostTensor data = randomTensor(rng, DataType::kBFloat16, {3, 2});
  const HostTensor updates = randomTensor(rng, DataType::kBFloat16, {1, 2});
  const HostTensor rows = indexTensor(DataType::kInt64, {1, 2}, {2, 0});
  const HostTensor tuples = indexTensor(DataType::kInt64, {1, 1}, {2});
  struct Case {
    std::string op_type;
    std::vector<int64_t> refused_opsets;
    NodeInputs inputs;
    HostTensor expected;  // the reference's output (what opset 13 gives)
  };
  const std::vector<Case> cases = {
      {"Gather", {1, 11, 12}, {&data, &rows}, referenceGather(data, rows, 0).output},
      {"GatherElements", {11, 12}, {&data, &rows}, referenceGatherElements(data, rows, 0).output},
      {"GatherND", {11, 12}, {&data, &tuples}, referenceGatherND(data, tuples, 0).output},
      {"ScatterElements",
       {11, 12},
       {&data, &rows, &updates},
       referenceScatterElements(data, rows, updates, 0, Reduction::kNone).output},
      {"ScatterND",
       {11, 12},
       {&data, &tuples, &updates},
       referenceScatterND(data, tuples, updates, Reduction::kNone).output},
      {"Scatter",
       {9, 10},
       {&data, &rows, &updates},
       referenceScatterElements(data, rows, updates, 0, Reduction::kNone).output},
  };
  for (const Case& c : cases) {
    for (const int64_t opset : c.refused_opsets) {
      const std::string name = c.op_type + "-" + std::to_string(opset);
      const std::string range = c.op_type == "Scatter"
                                    ? "no opset of Scatter does; ScatterElements has it from opset 13"
                                    : "bfloat16 from opset 13";
      for (const bool raw : {false, true}) {
        writeNodeTest(root / (name + (raw ? "_raw" : "")), {c.op_type, opset, {}}, c.inputs, c.expected, raw);
        const tools::NodeTestResult result =
            tools::runNodeTestDir(context(), (root / (name + (raw ? "_raw" : ""))).string(), {});
        EXPECT_STREQ(tools::outcomeName(result.outcome), "error") << name;
        EXPECT_EQ(result.message,
                  c.op_type + ": input 'data' has type bfloat16, which " + name + " does not define (" + range + ")");
      }
    }
    if (c.op_type != "Scatter") expectPass(root / (c.op_type + "-13"), {c.op_type, 13, {}}, c.inputs, c.expected, true);
  }
}

}  // namespace
}  // namespace vkindex::test
