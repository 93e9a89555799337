#include "node_ops.hpp"

#include <array>
#include <iterator>
#include <set>
#include <string>

#include "quote.hpp"

namespace vkindex::tools {
namespace {

// The most INT attributes an operator has: GatherBlockQuantized's gather_axis, quantize_axis, block_size
// and bits.
constexpr size_t kMaxIntAttributes = 4;

// The values of a node's INT attributes, in the order its binding names them (the default where the
// node leaves one out; 0 in the slots the operator does not use).
using IntValues = std::array<int64_t, kMaxIntAttributes>;

// A checked node's arguments: its inputs in node order, its INT attributes (axis, batch_dims, ...) and
// its reduction (kNone when absent).
struct NodeCall {
  const DeviceInputs& inputs;
  IntValues ints{};
  Reduction reduction = Reduction::kNone;
  TensorScatterMode mode = TensorScatterMode::kLinear;  // TensorScatter's 'mode'
};

// The input at `index`, or null when the node leaves that optional input out.
const Tensor* optionalInput(const NodeCall& call, size_t index) {
  return index < call.inputs.size() ? call.inputs[index] : nullptr;
}

using RunFunction = StatusOr<Tensor> (*)(Context&, const NodeCall&);
using RecordFunction = StatusOr<RecordedOp> (*)(Context&, VkCommandBuffer, const NodeCall&, Tensor& output);

// The gathers' public forms: (data, indices, one integer attribute).
using GatherRun = StatusOr<Tensor> (*)(Context&, const Tensor&, const Tensor&, int64_t);
using GatherRecord = StatusOr<RecordedOp> (*)(Context&, VkCommandBuffer, const Tensor&, const Tensor&, int64_t,
                                              Tensor&);

template <GatherRun op>
StatusOr<Tensor> runGatherForm(Context& context, const NodeCall& call) {
  return op(context, *call.inputs[0], *call.inputs[1], call.ints[0]);
}

template <GatherRecord op>
StatusOr<RecordedOp> recordGatherForm(Context& context, VkCommandBuffer cmd, const NodeCall& call, Tensor& output) {
  return op(context, cmd, *call.inputs[0], *call.inputs[1], call.ints[0], output);
}

// Scatter and ScatterElements: (data, indices, updates), axis and reduction. Recorded out of place:
// `output` is a separate tensor of data's shape, so a repeated run gives the same result.
StatusOr<Tensor> runScatterElements(Context& context, const NodeCall& call) {
  return scatterElements(context, *call.inputs[0], *call.inputs[1], *call.inputs[2], call.ints[0], call.reduction);
}

StatusOr<RecordedOp> recordScatterElementsNode(Context& context, VkCommandBuffer cmd, const NodeCall& call,
                                               Tensor& output) {
  return recordScatterElements(context, cmd, *call.inputs[0], *call.inputs[1], *call.inputs[2], call.ints[0],
                               call.reduction, output);
}

// Scatter (opsets 9 and 10) is ScatterElements under its old name. The library's messages name
// ScatterElements; a Scatter node's report names the operator its model used.
StatusOr<Tensor> runScatter(Context& context, const NodeCall& call) {
  StatusOr<Tensor> output = runScatterElements(context, call);
  const std::string library_name = "ScatterElements:";
  if (output.ok() || output.status().message().rfind(library_name, 0) != 0) return output;
  return Status(output.status().code(), "Scatter:" + output.status().message().substr(library_name.size()));
}

// ScatterND: (data, indices, updates) and reduction.
StatusOr<Tensor> runScatterND(Context& context, const NodeCall& call) {
  return scatterND(context, *call.inputs[0], *call.inputs[1], *call.inputs[2], call.reduction);
}

StatusOr<RecordedOp> recordScatterNDNode(Context& context, VkCommandBuffer cmd, const NodeCall& call, Tensor& output) {
  return recordScatterND(context, cmd, *call.inputs[0], *call.inputs[1], *call.inputs[2], call.reduction, output);
}

// TensorScatter: (past_cache, update, optional write_indices), axis and mode. Recorded out of place, as
// the scatters.
TensorScatterOptions tensorScatterOptions(const NodeCall& call) {
  TensorScatterOptions options;
  options.axis = call.ints[0];
  options.mode = call.mode;
  return options;
}

StatusOr<Tensor> runTensorScatter(Context& context, const NodeCall& call) {
  return tensorScatter(context, *call.inputs[0], *call.inputs[1], optionalInput(call, 2), tensorScatterOptions(call));
}

StatusOr<RecordedOp> recordTensorScatterNode(Context& context, VkCommandBuffer cmd, const NodeCall& call,
                                             Tensor& output) {
  return recordTensorScatter(context, cmd, *call.inputs[0], *call.inputs[1], optionalInput(call, 2),
                             tensorScatterOptions(call), output);
}

// GatherBlockQuantized (com.microsoft): (data, indices, scales, optional zero_points) and gather_axis,
// quantize_axis, block_size, bits, under the library's default index policy, which is the schema's (an
// index out of range gives a zero slice).
GatherBlockQuantizedOptions gatherBlockQuantizedOptions(const NodeCall& call) {
  GatherBlockQuantizedOptions options;
  options.gather_axis = call.ints[0];
  options.quantize_axis = call.ints[1];
  options.block_size = call.ints[2];
  options.bits = call.ints[3];
  return options;
}

StatusOr<Tensor> runGatherBlockQuantized(Context& context, const NodeCall& call) {
  return gatherBlockQuantized(context, *call.inputs[0], *call.inputs[1], *call.inputs[2], optionalInput(call, 3),
                              gatherBlockQuantizedOptions(call));
}

StatusOr<RecordedOp> recordGatherBlockQuantizedNode(Context& context, VkCommandBuffer cmd, const NodeCall& call,
                                                    Tensor& output) {
  return recordGatherBlockQuantized(context, cmd, *call.inputs[0], *call.inputs[1], *call.inputs[2],
                                    optionalInput(call, 3), gatherBlockQuantizedOptions(call), output);
}

// One INT attribute of an operator: its name and its value when the node leaves it out.
struct IntAttribute {
  const char* name;
  int64_t fallback;
};

// An operator's INT attributes in the order NodeCall::ints holds their values; unused slots have a null
// name.
using IntAttributes = std::array<IntAttribute, kMaxIntAttributes>;

constexpr IntAttributes kNoIntAttribute = {};
constexpr IntAttributes kAxis = {{{"axis", 0}}};
constexpr IntAttributes kBatchDims = {{{"batch_dims", 0}}};
constexpr IntAttributes kSequenceAxis = {{{"axis", -2}}};  // TensorScatter's
// ONNX Runtime's defaults (contrib_defs.cc and its CPU kernel).
constexpr IntAttributes kGatherBlockQuantizedAttributes = {
    {{"gather_axis", 0}, {"quantize_axis", 1}, {"block_size", 128}, {"bits", 4}}};

// An operator bound to vkindex: its domain and name, its inputs, one output, its INT attributes passed
// straight to the library, which validates their values, for the scatters the STRING attribute
// 'reduction', and for TensorScatter the STRING attribute 'mode'. Opsets are versions of the operator's
// domain.
struct OpBinding {
  const char* domain;  // "" (ONNX's default domain) or "com.microsoft" (ONNX Runtime's contrib operators)
  const char* op_type;
  int64_t since_opset;       // the first opset that defines the operator
  int64_t deprecated_opset;  // the first opset that no longer does (0: still defined)
  size_t input_count;
  IntAttributes attributes;
  int64_t attribute_since;  // the first opset whose version of the operator has its INT attributes
  int64_t reduction_since;  // the first opset with the attribute 'reduction' (0: never)
  int64_t bfloat16_since;   // the first opset whose type constraints have bfloat16 (0: never)
  RunFunction run;
  RecordFunction record;
  size_t optional_inputs = 0;  // trailing inputs a node may leave out (or name "": absent)
  bool has_mode = false;       // the STRING attribute 'mode' (TensorScatter)
};

// reduction 'add' and 'mul' exist from opset 16 (with the attribute), 'max' and 'min' from 18.
constexpr int64_t kReductionSince = 16;
constexpr int64_t kMaxMinSince = 18;

// bfloat16 joined the type constraint T of every one of these operators at opset 13 (ONNX's operator
// changelog: Gather-11, GatherElements-11, GatherND-12, ScatterElements-11 and ScatterND-11 list every
// other type but not bfloat16; their opset-13 versions add it). Scatter ends at 10, without it.
constexpr int64_t kBFloat16Since = 13;

constexpr const char* kContribDomain = "com.microsoft";

// Gather: opsets 1, 11, 13. GatherElements: 11, 13. GatherND: 11, 12, 13, with batch_dims from 12.
// Scatter: 9, 10 (deprecated by ScatterElements at 11; always reduction none). ScatterElements and
// ScatterND: 11, 13, 16, 18, with reduction from 16. TensorScatter: 24 (axis -2 by default, optional
// write_indices, mode). GatherBlockQuantized: com.microsoft version 1 (optional zero_points; its scales
// take bfloat16 there).
const OpBinding kBindings[] = {
    {"", "Gather", 1, 0, 2, kAxis, 1, 0, kBFloat16Since, runGatherForm<gather>, recordGatherForm<recordGather>},
    {"", "GatherElements", 11, 0, 2, kAxis, 11, 0, kBFloat16Since, runGatherForm<gatherElements>,
     recordGatherForm<recordGatherElements>},
    {"", "GatherND", 11, 0, 2, kBatchDims, 12, 0, kBFloat16Since, runGatherForm<gatherND>,
     recordGatherForm<recordGatherND>},
    {"", "Scatter", 9, 11, 3, kAxis, 9, 0, 0, runScatter, recordScatterElementsNode},
    {"", "ScatterElements", 11, 0, 3, kAxis, 11, kReductionSince, kBFloat16Since, runScatterElements,
     recordScatterElementsNode},
    {"", "ScatterND", 11, 0, 3, kNoIntAttribute, 0, kReductionSince, kBFloat16Since, runScatterND, recordScatterNDNode},
    {"", "TensorScatter", 24, 0, 3, kSequenceAxis, 24, 0, 24, runTensorScatter, recordTensorScatterNode, 1, true},
    {kContribDomain, "GatherBlockQuantized", 1, 0, 4, kGatherBlockQuantizedAttributes, 1, 0, 1, runGatherBlockQuantized,
     recordGatherBlockQuantizedNode, 1},
};

const OpBinding* findBinding(const std::string& domain, const std::string& op_type) {
  for (const OpBinding& binding : kBindings) {
    if (domain == binding.domain && op_type == binding.op_type) return &binding;
  }
  return nullptr;
}

// How messages name a domain: "ONNX's default domain" or "domain 'com.microsoft'".
std::string domainText(const std::string& domain) {
  return domain.empty() ? "ONNX's default domain" : "domain " + onnxio::quoteName(domain);
}

// "GatherBlockQuantized of domain 'com.microsoft'": the operators vkindex implements outside ONNX's
// default domain, for the message that refuses a node of any other domain.
std::string otherDomainOperators() {
  std::string names;
  for (const OpBinding& binding : kBindings) {
    if (*binding.domain == '\0') continue;
    if (!names.empty()) names += ", ";
    names += std::string(binding.op_type) + " of " + domainText(binding.domain);
  }
  return names;
}

// Refuses a node no binding matches: an operator vkindex lacks, or one of a domain other than the one
// vkindex implements it in (the message names that domain).
Status unknownOperator(const onnxio::NodeModel& node) {
  const std::string where = node.domain.empty() ? "" : " of " + domainText(node.domain);
  const std::string refusal = "operator " + onnxio::quoteName(node.op_type) + where;
  for (const OpBinding& binding : kBindings) {
    if (node.op_type != binding.op_type) continue;
    return unsupported(refusal + " is not one vkindex implements; it implements " + binding.op_type + " of " +
                       domainText(binding.domain));
  }
  if (node.domain.empty()) return unsupported(refusal + " is not an indexing operator vkindex implements");
  return unsupported(refusal + " is not an ONNX operator, nor one vkindex implements from another domain (" +
                     otherDomainOperators() + ")");
}

// Reads an INT attribute, or `fallback` when absent.
StatusOr<int64_t> intAttribute(const onnxio::NodeModel& node, const std::string& name, int64_t fallback) {
  auto found = node.attributes.find(name);
  if (found == node.attributes.end()) return fallback;
  if (found->second.kind != onnxio::AttributeValue::Kind::kInt) {
    return invalidArgument(node.op_type + ": attribute " + onnxio::quoteName(name) + " must be INT, got " +
                           onnxio::attributeKindName(found->second.kind));
  }
  return found->second.i;
}

// Reads the STRING attribute 'reduction' (kNone when absent) and checks it against the opset.
StatusOr<Reduction> reductionAttribute(const onnxio::NodeModel& node, const OpBinding& binding) {
  auto found = node.attributes.find("reduction");
  if (found == node.attributes.end()) return Reduction::kNone;
  if (node.opset < binding.reduction_since) {
    return invalidArgument(node.op_type + ": attribute 'reduction' is not defined at opset " +
                           std::to_string(node.opset) + " (from opset " + std::to_string(binding.reduction_since) +
                           ")");
  }
  if (found->second.kind != onnxio::AttributeValue::Kind::kString) {
    return invalidArgument(node.op_type + ": attribute 'reduction' must be STRING, got " +
                           onnxio::attributeKindName(found->second.kind));
  }
  const std::string& name = found->second.s;
  for (Reduction reduction : {Reduction::kNone, Reduction::kAdd, Reduction::kMul, Reduction::kMax, Reduction::kMin}) {
    if (name != reductionName(reduction)) continue;
    const bool max_or_min = reduction == Reduction::kMax || reduction == Reduction::kMin;
    if (max_or_min && node.opset < kMaxMinSince) {
      return invalidArgument(node.op_type + ": reduction " + onnxio::quoteName(name) + " is not defined at opset " +
                             std::to_string(node.opset) + " (max and min from opset " + std::to_string(kMaxMinSince) +
                             ")");
    }
    return reduction;
  }
  return invalidArgument(node.op_type + ": attribute 'reduction' = " + onnxio::quoteName(name) +
                         " is not one of none, add, mul, max, min");
}

// Reads TensorScatter's STRING attribute 'mode' (linear when absent).
StatusOr<TensorScatterMode> modeAttribute(const onnxio::NodeModel& node) {
  auto found = node.attributes.find("mode");
  if (found == node.attributes.end()) return TensorScatterMode::kLinear;
  if (found->second.kind != onnxio::AttributeValue::Kind::kString) {
    return invalidArgument(node.op_type + ": attribute 'mode' must be STRING, got " +
                           onnxio::attributeKindName(found->second.kind));
  }
  if (found->second.s == "linear") return TensorScatterMode::kLinear;
  if (found->second.s == "circular") return TensorScatterMode::kCircular;
  return invalidArgument(node.op_type + ": attribute 'mode' = " + onnxio::quoteName(found->second.s) +
                         " is not one of linear, circular");
}

Status expectAttributes(const onnxio::NodeModel& node, const std::set<std::string>& known) {
  for (const auto& [name, value] : node.attributes) {
    if (known.count(name) == 0) return invalidArgument(node.op_type + ": unknown attribute " + onnxio::quoteName(name));
  }
  return Status::Ok();
}

// The node names `count` inputs, or fewer by up to `optional` trailing ones (a trailing "" counts as left
// out), and one output.
Status expectInputs(const onnxio::NodeModel& node, size_t count, size_t optional) {
  const size_t given = node.inputs.size();
  if (given + optional < count || given > count || node.outputs.size() != 1) {
    const std::string expected =
        optional == 0 ? std::to_string(count) : std::to_string(count - optional) + " to " + std::to_string(count);
    return invalidArgument(node.op_type + ": expected " + expected + " inputs and 1 output, got " +
                           std::to_string(given) + " and " + std::to_string(node.outputs.size()));
  }
  for (size_t i = 0; i + optional < count && i < given; ++i) {
    if (node.inputs[i].empty()) {
      return invalidArgument(node.op_type + ": input " + std::to_string(i) + " is required but the node names none");
    }
  }
  return Status::Ok();
}

// A checked node: the operator's binding and its attributes' values.
struct BoundNode {
  const OpBinding* binding = nullptr;
  IntValues ints{};
  Reduction reduction = Reduction::kNone;
  TensorScatterMode mode = TensorScatterMode::kLinear;
};

// Refuses an opset that does not define the operator: one before its first, or from its deprecation on.
Status checkOpset(const onnxio::NodeModel& node, const OpBinding& binding) {
  const std::string opset = std::to_string(node.opset);
  if (node.opset < binding.since_opset) {
    return invalidArgument(node.op_type + ": the model imports opset " + opset + ", but " + node.op_type +
                           " exists from opset " + std::to_string(binding.since_opset) + " on");
  }
  if (binding.deprecated_opset != 0 && node.opset >= binding.deprecated_opset) {
    return invalidArgument(node.op_type + ": the model imports opset " + opset + ", but " + node.op_type +
                           " is deprecated from opset " + std::to_string(binding.deprecated_opset) +
                           " on (use ScatterElements)");
  }
  return Status::Ok();
}

// Refuses attributes the operator lacks: the names are its INT attributes, 'reduction' and 'mode' where
// it has them.
Status checkAttributeNames(const onnxio::NodeModel& node, const OpBinding& binding) {
  std::set<std::string> known;
  for (const IntAttribute& attribute : binding.attributes) {
    if (attribute.name != nullptr) known.insert(attribute.name);
  }
  if (binding.reduction_since != 0) known.insert("reduction");
  if (binding.has_mode) known.insert("mode");
  return expectAttributes(node, known);
}

// Reads the INT attributes in the binding's order, each its default when the node leaves it out; one the
// node's opset does not define yet is refused.
StatusOr<IntValues> intAttributes(const onnxio::NodeModel& node, const OpBinding& binding) {
  IntValues values{};
  for (size_t i = 0; i < kMaxIntAttributes && binding.attributes[i].name != nullptr; ++i) {
    const IntAttribute& attribute = binding.attributes[i];
    if (node.opset < binding.attribute_since && node.attributes.count(attribute.name) > 0) {
      return invalidArgument(node.op_type + ": attribute '" + attribute.name + "' is not defined at opset " +
                             std::to_string(node.opset) + " (" + node.op_type + " has it from opset " +
                             std::to_string(binding.attribute_since) + " on)");
    }
    VKINDEX_ASSIGN_OR_RETURN(values[i], intAttribute(node, attribute.name, attribute.fallback));
  }
  return values;
}

// The helpers above run only after findBinding matched, so node.op_type is one of kBindings' names
// there and prints as it is; before that, it is quoted like any text from the file.
StatusOr<BoundNode> bindNode(const onnxio::NodeModel& node) {
  const OpBinding* binding = findBinding(node.domain, node.op_type);
  if (binding == nullptr) return unknownOperator(node);
  VKINDEX_RETURN_IF_ERROR(checkOpset(node, *binding));
  VKINDEX_RETURN_IF_ERROR(expectInputs(node, binding->input_count, binding->optional_inputs));
  VKINDEX_RETURN_IF_ERROR(checkAttributeNames(node, *binding));
  BoundNode bound;
  bound.binding = binding;
  VKINDEX_ASSIGN_OR_RETURN(bound.ints, intAttributes(node, *binding));
  if (binding->has_mode) {
    VKINDEX_ASSIGN_OR_RETURN(bound.mode, modeAttribute(node));
  }
  if (binding->reduction_since != 0) {
    VKINDEX_ASSIGN_OR_RETURN(bound.reduction, reductionAttribute(node, *binding));
  }
  return bound;
}

// The ONNX names of the inputs checkInputTypes can refuse, in node-input order: those of the gathers
// (the first two) and the scatters, the operators whose bfloat16_since is later than their since_opset.
constexpr const char* kInputNames[] = {"data", "indices", "updates"};

// Refuses inputs of a type the node's opset does not define for the operator: bfloat16 before
// binding.bfloat16_since (the library itself takes bfloat16 at any opset; the opset is the model's).
Status checkInputTypes(const onnxio::NodeModel& node, const OpBinding& binding, const DeviceInputs& inputs) {
  for (size_t i = 0; i < inputs.size() && i < std::size(kInputNames); ++i) {
    if (inputs[i] == nullptr || inputs[i]->dtype() != DataType::kBFloat16) continue;
    const std::string prefix = node.op_type + ": input '" + kInputNames[i] + "' has type bfloat16, which " +
                               node.op_type + "-" + std::to_string(node.opset) + " does not define";
    if (binding.bfloat16_since == 0) {
      return invalidArgument(prefix + " (no opset of " + node.op_type + " does; ScatterElements has it from opset " +
                             std::to_string(kBFloat16Since) + ")");
    }
    if (node.opset < binding.bfloat16_since) {
      return invalidArgument(prefix + " (bfloat16 from opset " + std::to_string(binding.bfloat16_since) + ")");
    }
  }
  return Status::Ok();
}

}  // namespace

Status checkNode(const onnxio::NodeModel& node) { return bindNode(node).status(); }

StatusOr<std::vector<Tensor>> runNode(Context& context, const onnxio::NodeModel& node, const DeviceInputs& inputs) {
  VKINDEX_ASSIGN_OR_RETURN(BoundNode bound, bindNode(node));
  VKINDEX_RETURN_IF_ERROR(checkInputTypes(node, *bound.binding, inputs));
  const NodeCall call{inputs, bound.ints, bound.reduction, bound.mode};
  VKINDEX_ASSIGN_OR_RETURN(Tensor output, bound.binding->run(context, call));
  std::vector<Tensor> outputs;
  outputs.push_back(std::move(output));
  return outputs;
}

StatusOr<RecordedOp> recordNode(Context& context, VkCommandBuffer command_buffer, const onnxio::NodeModel& node,
                                const DeviceInputs& inputs, std::vector<Tensor>& outputs) {
  VKINDEX_ASSIGN_OR_RETURN(BoundNode bound, bindNode(node));
  VKINDEX_RETURN_IF_ERROR(checkInputTypes(node, *bound.binding, inputs));
  const NodeCall call{inputs, bound.ints, bound.reduction, bound.mode};
  return bound.binding->record(context, command_buffer, call, outputs[0]);
}

bool canRecord(const DeviceInputs& inputs) {
  for (const Tensor* input : inputs) {
    if (input != nullptr && input->dtype() == DataType::kString) return false;
  }
  return true;
}

}  // namespace vkindex::tools
