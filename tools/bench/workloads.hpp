// The benchmark's rows: a table of workload descriptors. Each prepares one operator call on the device
// (inputs uploaded, output allocated), the CPU's expectation of its output, and how to record it.
// A new operator row is one more entry in workloads() with a prepare function for that operator.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "vkindex/vkindex.hpp"

namespace vkindex::bench {

// One operator call ready to be timed.
struct PreparedCase {
  std::vector<Tensor> inputs;
  Tensor output;
  std::vector<uint8_t> expected;  // the output's bytes according to the CPU reference
  // Records the operator into `cmd`, reading `inputs` and writing `output` (attributes are captured).
  std::function<StatusOr<RecordedOp>(Context&, VkCommandBuffer, const std::vector<Tensor>& inputs, Tensor& output)>
      record;
};

struct Workload {
  std::string name;    // the row's label, e.g. "embedding"
  std::string op;      // the ONNX operator, e.g. "Gather"
  std::string shapes;  // what is measured, e.g. "float32[32000,1024] x int64[8192], axis 0"
  std::function<StatusOr<PreparedCase>(Context&)> prepare;
};

// The rows, in print order. `quick` picks smaller sizes, for a smoke test.
std::vector<Workload> workloads(bool quick);

}  // namespace vkindex::bench
