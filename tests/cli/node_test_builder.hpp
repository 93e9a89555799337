// Hand-made ONNX node-test directories for the CLI tests: one node, its graph inputs and output, one
// data set. Everything a file can carry (op type, domain, names, attributes, string values) is the
// caller's to choose, hostile bytes included.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace vkindex::tools::test {

struct SpecInput {
  std::string name;                      // the graph input and node input name
  onnx::TensorProto tensor;              // written as input_K.pb
  std::optional<int32_t> declared_type;  // the graph's elem_type for it; the tensor's own by default
};

struct NodeTestSpec {
  std::string op_type = "Gather";
  std::string domain;
  int64_t opset = 13;
  std::vector<SpecInput> inputs;
  onnx::TensorProto expected;  // output_0.pb, for the graph output "y"
  std::vector<onnx::AttributeProto> attributes;
};

// Writes model.onnx and test_data_set_0/ under `dir` (created if needed).
void writeNodeTest(const std::filesystem::path& dir, const NodeTestSpec& spec);

onnx::TensorProto floatTensor(const std::string& name, const std::vector<float>& values);
onnx::TensorProto int64Tensor(const std::string& name, const std::vector<int64_t>& values);
onnx::TensorProto stringTensor(const std::string& name, const std::vector<std::string>& values);
onnx::AttributeProto intAttribute(const std::string& name, int64_t value);
onnx::AttributeProto stringAttribute(const std::string& name, const std::string& value);

// Gather(data = [1, 2, 3], indices = [2, 0], axis 0) = [3, 1]: a test that passes on every device.
NodeTestSpec passingGather();

}  // namespace vkindex::tools::test
