// Binds the single node of an ONNX node test to a vkindex operator: checks its inputs and attributes
// and runs it (submitting, or recorded into a command buffer for timing): Gather, GatherElements,
// GatherND, Scatter, ScatterElements, ScatterND and TensorScatter at the opsets that define them, and
// ONNX Runtime's GatherBlockQuantized (domain com.microsoft, version 1). Other operators and domains,
// and attributes or reductions the imported opset does not define, give an error that says so.
#pragma once

#include <vector>

#include "onnx_io.hpp"
#include "vkindex/vkindex.hpp"

namespace vkindex::tools {

// The node's inputs on the device, in node-input order; null for an optional input the node leaves out
// (named "").
using DeviceInputs = std::vector<const Tensor*>;

// Checks op type, domain, input count and attributes. Errors read "<Op>: ..." (an unknown operator's:
// "operator '<op>' ...").
Status checkNode(const onnxio::NodeModel& node);

// Runs the node once and returns its outputs in node-output order.
StatusOr<std::vector<Tensor>> runNode(Context& context, const onnxio::NodeModel& node, const DeviceInputs& inputs);

// Records the node into `command_buffer`, writing into `outputs`: tensors of the types and shapes
// runNode returned (scatters write out of place, so every recorded run gives the same result).
StatusOr<RecordedOp> recordNode(Context& context, VkCommandBuffer command_buffer, const onnxio::NodeModel& node,
                                const DeviceInputs& inputs, std::vector<Tensor>& outputs);

// True when the node can be recorded into a command buffer (string tensors cannot: they live on the
// host).
bool canRecord(const DeviceInputs& inputs);

}  // namespace vkindex::tools
