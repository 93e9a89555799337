#include "node_ops.hpp"

#include <set>

namespace vkindex::tools {
namespace {

const std::set<std::string>& indexingOps() {
  static const std::set<std::string> ops = {"Gather",  "GatherElements",  "GatherND",
                                            "Scatter", "ScatterElements", "ScatterND"};
  return ops;
}

// An ONNX operator bound to vkindex. The three gathers share one form: inputs (data, indices), one
// output, and one INT attribute (default 0) passed straight to the library, which validates its value.
struct OpBinding {
  const char* op_type;
  int64_t since_opset;      // the first opset that defines the operator
  const char* attribute;    // its one attribute: "axis" or "batch_dims"
  int64_t attribute_since;  // the first opset whose version of the operator has that attribute
  StatusOr<Tensor> (*run)(Context&, const Tensor&, const Tensor&, int64_t);
  StatusOr<RecordedOp> (*record)(Context&, VkCommandBuffer, const Tensor&, const Tensor&, int64_t, Tensor&);
};

// Gather: opsets 1, 11, 13. GatherElements: 11, 13. GatherND: 11, 12, 13, with batch_dims from 12.
const OpBinding kBindings[] = {
    {"Gather", 1, "axis", 1, gather, recordGather},
    {"GatherElements", 11, "axis", 11, gatherElements, recordGatherElements},
    {"GatherND", 11, "batch_dims", 12, gatherND, recordGatherND},
};

const OpBinding* findBinding(const std::string& op_type) {
  for (const OpBinding& binding : kBindings) {
    if (op_type == binding.op_type) return &binding;
  }
  return nullptr;
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

// A checked node: the operator's binding and its attribute's value.
struct BoundNode {
  const OpBinding* binding = nullptr;
  int64_t attribute = 0;
};

StatusOr<BoundNode> bindNode(const onnxio::NodeModel& node) {
  if (!node.domain.empty()) {
    return unsupported("operator '" + node.op_type + "' of domain '" + node.domain + "' is not an ONNX operator");
  }
  if (indexingOps().count(node.op_type) == 0) {
    return unsupported("operator '" + node.op_type + "' is not an indexing operator vkindex implements");
  }
  const std::string opset = std::to_string(node.opset);
  const OpBinding* binding = findBinding(node.op_type);
  if (binding == nullptr) {
    return unsupported(node.op_type + " (opset " + opset + ") is not implemented yet in vkindex");
  }
  if (node.opset < binding->since_opset) {
    return invalidArgument(node.op_type + ": the model imports opset " + opset + ", but " + node.op_type +
                           " exists from opset " + std::to_string(binding->since_opset) + " on");
  }
  VKINDEX_RETURN_IF_ERROR(expectInputs(node, 2));
  VKINDEX_RETURN_IF_ERROR(expectAttributes(node, {binding->attribute}));
  if (node.opset < binding->attribute_since && node.attributes.count(binding->attribute) > 0) {
    return invalidArgument(node.op_type + ": attribute '" + binding->attribute + "' is not defined at opset " + opset +
                           " (" + node.op_type + " has it from opset " + std::to_string(binding->attribute_since) +
                           " on)");
  }
  BoundNode bound;
  bound.binding = binding;
  VKINDEX_ASSIGN_OR_RETURN(bound.attribute, intAttribute(node, binding->attribute, 0));
  return bound;
}

}  // namespace

Status checkNode(const onnxio::NodeModel& node) { return bindNode(node).status(); }

StatusOr<std::vector<Tensor>> runNode(Context& context, const onnxio::NodeModel& node, const DeviceInputs& inputs) {
  VKINDEX_ASSIGN_OR_RETURN(BoundNode bound, bindNode(node));
  VKINDEX_ASSIGN_OR_RETURN(Tensor output, bound.binding->run(context, *inputs[0], *inputs[1], bound.attribute));
  std::vector<Tensor> outputs;
  outputs.push_back(std::move(output));
  return outputs;
}

StatusOr<RecordedOp> recordNode(Context& context, VkCommandBuffer command_buffer, const onnxio::NodeModel& node,
                                const DeviceInputs& inputs, std::vector<Tensor>& outputs) {
  VKINDEX_ASSIGN_OR_RETURN(BoundNode bound, bindNode(node));
  return bound.binding->record(context, command_buffer, *inputs[0], *inputs[1], bound.attribute, outputs[0]);
}

bool canRecord(const DeviceInputs& inputs) {
  for (const Tensor* input : inputs) {
    if (input->dtype() == DataType::kString) return false;
  }
  return true;
}

}  // namespace vkindex::tools
