// ModelProto -> NodeModel: the one node of a node-test model, the opset it runs under, and the graph
// declarations and initializers around it. Checks what a broken-but-parseable file could get wrong.
#include <set>

#include "onnx_proto_decode.hpp"
#include "proto_file.hpp"
#include "quote.hpp"

namespace vkindex::onnxio {
namespace {

// "" and "ai.onnx" both name the default ONNX operator domain.
std::string normalizeDomain(const std::string& domain) { return domain == "ai.onnx" ? std::string() : domain; }

// Resolves the opset version the model imports for `domain` (already normalized).
StatusOr<int64_t> resolveOpset(const onnx::ModelProto& model, const std::string& domain, const std::string& origin) {
  std::optional<int64_t> version;
  for (const onnx::OperatorSetIdProto& import : model.opset_import()) {
    if (normalizeDomain(import.domain()) != domain) continue;
    if (import.version() <= 0) {
      return invalidArgument(origin + ": opset_import for domain " + quoteName(domain) + " has version " +
                             std::to_string(import.version()) + "; versions start at 1");
    }
    if (version && *version != import.version()) {
      return invalidArgument(origin + ": opset_import lists domain " + quoteName(domain) + " twice, as versions " +
                             std::to_string(*version) + " and " + std::to_string(import.version()));
    }
    version = import.version();
  }
  if (version) return *version;
  // Before IR version 3 models carried no opset_import and meant opset 1 of the default domain.
  if (domain.empty() && model.opset_import_size() == 0 && model.ir_version() < 3) return int64_t{1};
  return invalidArgument(origin + ": model imports no opset for domain " + quoteName(domain) + " used by its node");
}

ValueKind valueKindOf(const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType: return ValueKind::kTensor;
    case onnx::TypeProto::kSequenceType: return ValueKind::kSequence;
    case onnx::TypeProto::kMapType: return ValueKind::kMap;
    case onnx::TypeProto::kOptionalType: return ValueKind::kOptional;
    case onnx::TypeProto::kSparseTensorType: return ValueKind::kSparseTensor;
    case onnx::TypeProto::VALUE_NOT_SET: return ValueKind::kUndeclared;
    default: return ValueKind::kOther;
  }
}

// The element type a graph input or output declares: nullopt for 0 (UNDEFINED: the file leaves it
// open). Any other code must be a type vkindex knows; ignoring it would let data of any type through.
StatusOr<std::optional<DataType>> declaredElemType(int32_t code, const std::string& where) {
  if (code == onnx::TensorProto_DataType_UNDEFINED) return std::optional<DataType>();
  if (const std::optional<DataType> type = dataTypeFromOnnx(code)) return type;
  if (!onnx::TensorProto_DataType_IsValid(code)) {
    return invalidArgument(where + " declares elem_type " + std::to_string(code) +
                           ", which is not a TensorProto.DataType code");
  }
  return unsupported(where + " declares elem_type " + onnx::TensorProto_DataType_Name(code) + " (" +
                     std::to_string(code) + "), which vkindex does not support");
}

StatusOr<ValueInfo> decodeValueInfo(const onnx::ValueInfoProto& proto, const std::string& where) {
  if (proto.name().empty()) return invalidArgument(where + " has no name");
  ValueInfo info;
  info.name = proto.name();
  if (!proto.has_type()) return info;
  info.kind = valueKindOf(proto.type());
  if (info.kind != ValueKind::kTensor) return info;
  const onnx::TypeProto_Tensor& tensor_type = proto.type().tensor_type();
  info.onnx_elem_type = tensor_type.elem_type();
  VKINDEX_ASSIGN_OR_RETURN(info.elem_type, declaredElemType(info.onnx_elem_type, where + " " + quoteName(info.name)));
  if (!tensor_type.has_shape()) return info;
  std::vector<DeclaredDim> shape;
  for (const onnx::TensorShapeProto_Dimension& dim : tensor_type.shape().dim()) {
    DeclaredDim declared;
    if (dim.has_dim_value()) {
      if (dim.dim_value() < 0) {
        return invalidArgument(where + " " + quoteName(info.name) + " declares negative dimension " +
                               std::to_string(dim.dim_value()));
      }
      declared.value = dim.dim_value();
    } else if (dim.has_dim_param()) {
      declared.param = dim.dim_param();
    }
    shape.push_back(std::move(declared));
  }
  info.shape = std::move(shape);
  return info;
}

Status decodeValueInfos(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& protos,
                        const std::string& where, std::vector<ValueInfo>* infos) {
  std::set<std::string> seen;
  for (int i = 0; i < protos.size(); ++i) {
    VKINDEX_ASSIGN_OR_RETURN(ValueInfo info, decodeValueInfo(protos[i], where + " #" + std::to_string(i)));
    if (!seen.insert(info.name).second) {
      return invalidArgument(where + " " + quoteName(info.name) + " is declared twice");
    }
    infos->push_back(std::move(info));
  }
  return Status::Ok();
}

Status decodeInitializers(const onnx::GraphProto& graph, const std::string& origin, NodeModel* model) {
  if (graph.sparse_initializer_size() > 0) return unsupported(origin + ": sparse initializers are not supported");
  for (int i = 0; i < graph.initializer_size(); ++i) {
    const onnx::TensorProto& proto = graph.initializer(i);
    if (proto.name().empty()) {
      return invalidArgument(origin + ": initializer #" + std::to_string(i) + " has no name");
    }
    VKINDEX_ASSIGN_OR_RETURN(HostTensor tensor, decodeTensorProto(proto, origin + ": initializer"));
    if (!model->initializers.emplace(proto.name(), std::move(tensor)).second) {
      return invalidArgument(origin + ": initializer " + quoteName(proto.name()) + " is defined twice");
    }
  }
  return Status::Ok();
}

Status decodeNode(const onnx::NodeProto& node, const std::string& origin, NodeModel* model) {
  if (node.op_type().empty()) return invalidArgument(origin + ": node has no op_type");
  const std::string where = origin + ": node " + quoteName(node.op_type());
  if (node.output_size() == 0) return invalidArgument(where + " has no outputs");
  model->op_type = node.op_type();
  model->node_name = node.name();
  model->domain = normalizeDomain(node.domain());
  model->inputs.assign(node.input().begin(), node.input().end());
  model->outputs.assign(node.output().begin(), node.output().end());
  for (const onnx::AttributeProto& proto : node.attribute()) {
    VKINDEX_ASSIGN_OR_RETURN(AttributeValue value, decodeAttribute(proto, where));
    if (!model->attributes.emplace(proto.name(), std::move(value)).second) {
      return invalidArgument(where + ": attribute " + quoteName(proto.name()) + " appears twice");
    }
  }
  return Status::Ok();
}

// In a one-node graph every node input must come from the graph inputs or initializers and every graph
// output from the node; anything else means the file is wired wrongly.
Status checkWiring(const NodeModel& model, const std::string& origin) {
  std::set<std::string> available;
  for (const ValueInfo& input : model.graph_inputs) available.insert(input.name);
  for (const auto& entry : model.initializers) available.insert(entry.first);
  for (const std::string& input : model.inputs) {
    if (!input.empty() && available.count(input) == 0) {
      return invalidArgument(origin + ": node input " + quoteName(input) +
                             " is neither a graph input nor an initializer");
    }
  }
  const std::set<std::string> produced(model.outputs.begin(), model.outputs.end());
  for (const ValueInfo& output : model.graph_outputs) {
    if (produced.count(output.name) == 0) {
      return invalidArgument(origin + ": graph output " + quoteName(output.name) + " is not produced by the node");
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<NodeModel> decodeNodeModel(const onnx::ModelProto& model, const std::string& origin) {
  if (!model.has_graph()) return invalidArgument(origin + ": model has no graph");
  const onnx::GraphProto& graph = model.graph();
  if (graph.node_size() == 0) return invalidArgument(origin + ": model has no node");
  if (graph.node_size() != 1) {
    return invalidArgument(origin + ": model has " + std::to_string(graph.node_size()) + " nodes, expected 1");
  }
  NodeModel result;
  result.ir_version = model.ir_version();
  VKINDEX_RETURN_IF_ERROR(decodeNode(graph.node(0), origin, &result));
  VKINDEX_ASSIGN_OR_RETURN(result.opset, resolveOpset(model, result.domain, origin));
  VKINDEX_RETURN_IF_ERROR(decodeValueInfos(graph.input(), origin + ": graph input", &result.graph_inputs));
  VKINDEX_RETURN_IF_ERROR(decodeValueInfos(graph.output(), origin + ": graph output", &result.graph_outputs));
  VKINDEX_RETURN_IF_ERROR(decodeInitializers(graph, origin, &result));
  VKINDEX_RETURN_IF_ERROR(checkWiring(result, origin));
  return result;
}

StatusOr<NodeModel> readNodeModel(const std::string& model_path) {
  onnx::ModelProto model;
  VKINDEX_RETURN_IF_ERROR(parseProtoFile(model_path, "ModelProto", &model));
  return decodeNodeModel(model, model_path);
}

}  // namespace vkindex::onnxio
