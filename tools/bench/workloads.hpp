// The benchmark's rows: a table of workload descriptors. Each prepares one operator call on the device
// (inputs uploaded, output allocated), the CPU's expectation of its output, and how to record it.
// A new operator row is one more entry in workloads() with a prepare function for that operator.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ops/host_index_gather.hpp"
#include "vkindex/vkindex.hpp"

namespace vkindex::bench {

// One operator call ready to be timed.
struct PreparedCase {
  std::vector<Tensor> inputs;
  Tensor output;
  std::vector<uint8_t> expected;  // the output's bytes according to the CPU reference
  // How many bytes (from the output's start) the copy baselines move: 0 for the whole output. In-place
  // rows write only part of their output, and the baselines copy that many bytes.
  uint64_t baseline_bytes = 0;
  // The bytes the operator reads and writes, where that is not 2 x the output's (one read and one write
  // of each output byte): GatherBlockQuantized reads quantized bytes. 0: 2 x the output's.
  uint64_t traffic_bytes = 0;
  // Gather and GatherND rows, with indices in host memory or in a tensor: the copy regions their rows
  // make (what the host-index planner builds from the same indices, given the data tensor) and the
  // data's bytes, for the host's own memcpy of the same regions (host_floor.hpp). Computed only when
  // the floor is measured: a sweep point of 1-byte rows would make 16M regions. Unset for other rows.
  std::function<StatusOr<std::vector<plan::CopyRegion>>(const Tensor& data)> copy_regions;
  std::vector<uint8_t> host_data;
  // Records the operator into `cmd`, reading `inputs` and writing `output` (attributes are captured).
  // In-place rows read and write `output`; running them again must give the same result.
  std::function<StatusOr<RecordedOp>(Context&, VkCommandBuffer, const std::vector<Tensor>& inputs, Tensor& output)>
      record;
};

struct Workload {
  std::string name;    // the row's label, e.g. "embedding"
  std::string op;      // the ONNX operator, e.g. "Gather"
  std::string shapes;  // what is measured, e.g. "float32[32000,1024] x int64[8192], axis 0"
  std::function<StatusOr<PreparedCase>(Context&)> prepare;
  // A comparison row larger than some devices allow (SwiftShader: 1 GiB per allocation): kUnsupported
  // there is a visible skip with its reason, not a failed run.
  bool skip_when_unsupported = false;
};

// The rows, in print order: the gathers, then scatterWorkloads. `quick` picks smaller sizes, for a smoke
// test.
std::vector<Workload> workloads(bool quick);

// One Gather row outside the fixed table (the sweep's points): random valid indices for data's dim `axis`
// (non-negative), data of pseudo-random bytes from `seed`, output checked against cpuGather.
Workload gatherWorkload(std::string name, DataType data_type, Shape data_shape, DataType index_type,
                        Shape indices_shape, int64_t axis, uint64_t seed);

// The same for GatherND (`batch_dims`; the tuples' length is indices' last dim), output checked against
// cpuGatherND.
Workload gatherNDWorkload(std::string name, DataType data_type, Shape data_shape, DataType index_type,
                          Shape indices_shape, int64_t batch_dims, uint64_t seed);

// The same Gather with the indices in host memory (HostIndices), on the planner's path or a forced one.
Workload hostIndexGatherWorkload(std::string name, DataType data_type, Shape data_shape, DataType index_type,
                                 Shape indices_shape, internal::ForcedPath path, uint64_t seed);

// "float32[32000,1024]": a tensor's type and shape as the rows describe it.
std::string shapeText(DataType type, const Shape& shape);

// The GatherBlockQuantized rows, each beside a float16 Gather of as many rows (gbq_workloads.cpp).
std::vector<Workload> gbqWorkloads(bool quick);

// The scatter rows (scatter_workloads.cpp).
std::vector<Workload> scatterWorkloads(bool quick);

// ScatterND in place onto every row of data (its dim 0) once, in random order: one-component int32
// tuples, a row of updates each, reduction none (the sweep's ScatterND points). Checked against
// cpuScatterND.
Workload scatterNDRowsWorkload(std::string name, DataType type, Shape data_shape, uint64_t seed);

}  // namespace vkindex::bench
