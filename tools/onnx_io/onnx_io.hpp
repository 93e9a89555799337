// onnx_io: reads ONNX node tests (model.onnx plus test_data_set_N/{input,output}_K.pb) into plain host
// structures, so vkindex tests can run the official operator cases without depending on the ONNX
// runtime. This header is free of protobuf types; onnx_proto_decode.hpp has the proto-level entry points.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vkindex/data_type.hpp"
#include "vkindex/status.hpp"

namespace vkindex::onnxio {

// A tensor held in host memory. `bytes` packs the elements little-endian at elementSize(dtype) bytes
// each (bool 1 byte, float16/bfloat16 their raw 16-bit patterns, complex as (real, imag) pairs).
// For DataType::kString `bytes` stays empty and `strings` holds the elements instead.
struct HostTensor {
  std::string name;
  DataType dtype = DataType::kFloat32;
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;
  std::vector<std::string> strings;

  // Product of dims; 1 for a rank-0 tensor. Decoded tensors never overflow here (the decoder checks).
  int64_t elementCount() const;
};

// "[2, 3, 4]" for dims {2, 3, 4} and "[]" for a scalar; used in error messages and test output.
std::string formatDims(const std::vector<int64_t>& dims);

// Copies the elements of a non-string tensor into a typed vector. Returns nullopt when sizeof(T) is not
// the element width of the tensor's dtype, so a float64 tensor cannot be misread as float32.
template <typename T>
std::optional<std::vector<T>> tensorValues(const HostTensor& tensor) {
  if (tensor.dtype == DataType::kString || sizeof(T) != elementSize(tensor.dtype)) return std::nullopt;
  std::vector<T> values(tensor.bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), tensor.bytes.data(), values.size() * sizeof(T));
  return values;
}

// Reads one serialized TensorProto (.pb file). Errors name the file and what was wrong with it.
StatusOr<HostTensor> readTensorFile(const std::string& path);

// One node attribute. Only the member selected by `kind` is meaningful; the others stay empty.
struct AttributeValue {
  enum class Kind { kInt, kFloat, kString, kInts, kFloats, kStrings, kTensor };

  Kind kind = Kind::kInt;
  int64_t i = 0;
  float f = 0.0f;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::vector<std::string> strings;
  HostTensor tensor;
};

// The ONNX spelling of an attribute kind: "INT", "FLOATS", "TENSOR", ...
const char* attributeKindName(AttributeValue::Kind kind);

// One dimension of a declared graph input/output shape: a fixed size, a symbolic name, or neither
// (an unknown dimension).
struct DeclaredDim {
  std::optional<int64_t> value;
  std::string param;
};

// The kind of value a graph input or output is declared as; kUndeclared when the file gives no type.
enum class ValueKind { kUndeclared, kTensor, kSequence, kMap, kOptional, kSparseTensor, kOther };

// Lower-case name of a value kind for messages: "tensor", "sequence", "optional", ...
const char* valueKindName(ValueKind kind);

// What the graph declares about one of its inputs or outputs. Element type and shape are filled only
// for tensors.
struct ValueInfo {
  std::string name;
  ValueKind kind = ValueKind::kUndeclared;
  int32_t onnx_elem_type = 0;                     // raw TensorProto.DataType code, 0 when absent
  std::optional<DataType> elem_type;              // the same code; a code vkindex lacks is rejected
  std::optional<std::vector<DeclaredDim>> shape;  // nullopt when even the rank is unknown
};

// The single node of an ONNX node-test model together with the graph context it runs in.
struct NodeModel {
  std::string op_type;
  // The node's domain; the default ONNX domain is reported as "" whether the file says "" or "ai.onnx".
  std::string domain;
  // The opset version the model imports for the node's domain.
  int64_t opset = 0;
  int64_t ir_version = 0;
  std::string node_name;
  std::map<std::string, AttributeValue> attributes;
  // Node input/output names in order; "" marks an omitted optional input or output.
  std::vector<std::string> inputs, outputs;
  std::vector<ValueInfo> graph_inputs, graph_outputs;
  // Graph initializers by name (some models bind constant inputs this way).
  std::map<std::string, HostTensor> initializers;
};

// Parses a model.onnx that holds exactly one node. Errors name the file and what was wrong with it.
StatusOr<NodeModel> readNodeModel(const std::string& model_path);

// One test_data_set_N directory: input_K.pb and output_K.pb decoded in numeric order of K.
struct TestDataSet {
  std::string dir;
  std::vector<HostTensor> inputs, outputs;
};

// A whole ONNX node-test directory: the model and its data sets in numeric order of N.
struct NodeTest {
  std::string dir;
  NodeModel model;
  std::vector<TestDataSet> data_sets;
};

// Reads `dir`/model.onnx and every `dir`/test_data_set_N, checking each data set against the graph's
// declared inputs and outputs (count, element type and fixed dimensions). Data saved as uint16 for a
// slot declared bfloat16 (the ONNX generators' workaround for numpy) comes back as bfloat16.
StatusOr<NodeTest> readNodeTest(const std::string& dir);

}  // namespace vkindex::onnxio
