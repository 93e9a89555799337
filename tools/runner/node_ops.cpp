#include "node_ops.hpp"

#include <set>

namespace vkindex::tools {
namespace {

const std::set<std::string>& indexingOps() {
  static const std::set<std::string> ops = {"Gather",  "GatherElements",  "GatherND",
                                            "Scatter", "ScatterElements", "ScatterND"};
  return ops;
}

// Reads an INT attribute, or `fallback` when absent.
StatusOr<int64_t> intAttribute(const onnxio::NodeModel& node, const std::string& name, int64_t fallback) {
  auto found = node.attributes.find(name);
  if (found == node.attributes.end()) return fallback;
  if (found->second.kind != onnxio::AttributeValue::Kind::kInt) {
    return invalidArgument(node.op_type + ": attribute '" + name + "' must be INT, got " +
                           onnxio::attributeKindName(found->second.kind));
  }
  return found->second.i;
}

Status expectAttributes(const onnxio::NodeModel& node, const std::set<std::string>& known) {
  for (const auto& [name, value] : node.attributes) {
    if (known.count(name) == 0) return invalidArgument(node.op_type + ": unknown attribute '" + name + "'");
  }
  return Status::Ok();
}

Status expectInputs(const onnxio::NodeModel& node, size_t count) {
  if (node.inputs.size() != count || node.outputs.size() != 1) {
    return invalidArgument(node.op_type + ": expected " + std::to_string(count) + " inputs and 1 output, got " +
                           std::to_string(node.inputs.size()) + " and " + std::to_string(node.outputs.size()));
  }
  return Status::Ok();
}

}  // namespace

Status checkNode(const onnxio::NodeModel& node) {
  if (!node.domain.empty()) {
    return unsupported("operator '" + node.op_type + "' of domain '" + node.domain + "' is not an ONNX operator");
  }
  if (indexingOps().count(node.op_type) == 0) {
    return unsupported("operator '" + node.op_type + "' is not an indexing operator vkindex implements");
  }
  if (node.op_type == "Gather") {
    VKINDEX_RETURN_IF_ERROR(expectInputs(node, 2));
    VKINDEX_RETURN_IF_ERROR(expectAttributes(node, {"axis"}));
    return intAttribute(node, "axis", 0).status();
  }
  return unsupported(node.op_type + " (opset " + std::to_string(node.opset) + ") is not implemented yet in vkindex");
}

StatusOr<std::vector<Tensor>> runNode(Context& context, const onnxio::NodeModel& node, const DeviceInputs& inputs) {
  VKINDEX_RETURN_IF_ERROR(checkNode(node));
  VKINDEX_ASSIGN_OR_RETURN(int64_t axis, intAttribute(node, "axis", 0));
  VKINDEX_ASSIGN_OR_RETURN(Tensor output, gather(context, *inputs[0], *inputs[1], axis));
  std::vector<Tensor> outputs;
  outputs.push_back(std::move(output));
  return outputs;
}

StatusOr<RecordedOp> recordNode(Context& context, VkCommandBuffer command_buffer, const onnxio::NodeModel& node,
                                const DeviceInputs& inputs, std::vector<Tensor>& outputs) {
  VKINDEX_RETURN_IF_ERROR(checkNode(node));
  VKINDEX_ASSIGN_OR_RETURN(int64_t axis, intAttribute(node, "axis", 0));
  return recordGather(context, command_buffer, *inputs[0], *inputs[1], axis, outputs[0]);
}

bool canRecord(const DeviceInputs& inputs) {
  for (const Tensor* input : inputs) {
    if (input->dtype() == DataType::kString) return false;
  }
  return true;
}

}  // namespace vkindex::tools
