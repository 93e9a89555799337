#include "workloads.hpp"

#include <utility>

#include "host_data.hpp"

namespace vkindex::bench {
namespace {

struct GatherSpec {
  DataType data_type;
  Shape data_shape;
  DataType index_type;
  Shape indices_shape;
  int64_t axis;
};

std::string shapeText(DataType type, const Shape& shape) {
  std::string text = std::string(dataTypeName(type)) + "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

StatusOr<PreparedCase> prepareGather(Context& context, const GatherSpec& spec, uint64_t seed) {
  const size_t element_size = elementSize(spec.data_type);
  std::vector<uint8_t> data = randomBytes(elementCount(spec.data_shape) * element_size, seed);
  std::vector<uint8_t> indices = randomIndices(spec.index_type, elementCount(spec.indices_shape),
                                               spec.data_shape[static_cast<size_t>(spec.axis)], seed + 1);
  PreparedCase prepared;
  prepared.expected = cpuGather(data, spec.data_shape, element_size, indices, spec.index_type, spec.axis);

  VKINDEX_ASSIGN_OR_RETURN(Tensor data_tensor,
                           Tensor::fromHost(context, spec.data_type, spec.data_shape, data.data(), data.size()));
  VKINDEX_ASSIGN_OR_RETURN(Tensor index_tensor, Tensor::fromHost(context, spec.index_type, spec.indices_shape,
                                                                 indices.data(), indices.size()));
  // Output shape: data.shape[:axis] + indices.shape + data.shape[axis+1:].
  Shape output_shape(spec.data_shape.begin(), spec.data_shape.begin() + spec.axis);
  output_shape.insert(output_shape.end(), spec.indices_shape.begin(), spec.indices_shape.end());
  output_shape.insert(output_shape.end(), spec.data_shape.begin() + spec.axis + 1, spec.data_shape.end());
  VKINDEX_ASSIGN_OR_RETURN(prepared.output, Tensor::create(context, spec.data_type, output_shape));
  prepared.inputs.push_back(std::move(data_tensor));
  prepared.inputs.push_back(std::move(index_tensor));
  const int64_t axis = spec.axis;
  prepared.record = [axis](Context& ctx, VkCommandBuffer cmd, const std::vector<Tensor>& inputs, Tensor& output) {
    return recordGather(ctx, cmd, inputs[0], inputs[1], axis, output);
  };
  return prepared;
}

Workload gatherWorkload(std::string name, const GatherSpec& spec, uint64_t seed) {
  Workload workload;
  workload.name = std::move(name);
  workload.op = "Gather";
  workload.shapes = shapeText(spec.data_type, spec.data_shape) + " x " +
                    shapeText(spec.index_type, spec.indices_shape) + ", axis " + std::to_string(spec.axis);
  workload.prepare = [spec, seed](Context& context) { return prepareGather(context, spec, seed); };
  return workload;
}

}  // namespace

std::vector<Workload> workloads(bool quick) {
  using DT = DataType;
  // Full sizes: outputs of 8 to 32 MiB, large enough that launch overhead does not dominate. Quick
  // sizes keep every shape property (row widths, sub-word rows) at a fraction of the bytes.
  const int64_t vocab = quick ? 4000 : 32000;
  const int64_t hidden = quick ? 256 : 1024;
  const int64_t tokens = quick ? 1024 : 8192;
  return {
      // Token embedding lookup: whole 4 KiB rows picked from a 125 MiB table.
      gatherWorkload("embedding", {DT::kFloat32, {vocab, hidden}, DT::kInt64, {tokens}, 0}, 1),
      // Gather on a middle axis: 256-byte rows, many outer slices; 16 MiB out.
      gatherWorkload(
          "middle-axis",
          {DT::kFloat32, {quick ? 16 : 64, quick ? 1024 : 4096, quick ? 16 : 64}, DT::kInt64, {quick ? 256 : 1024}, 1},
          2),
      // One byte per gathered element and rows of 4099 bytes (not word multiples): the byte-assembly path.
      gatherWorkload("uint8-rows",
                     {DT::kUInt8, {quick ? 512 : 4096, quick ? 515 : 4099}, DT::kInt32, {quick ? 256 : 2048}, 1}, 3),
      // The embedding again with int32 indices: what the narrower index type saves or costs.
      gatherWorkload("embedding-i32", {DT::kFloat32, {vocab, hidden}, DT::kInt32, {tokens}, 0}, 1),
  };
}

}  // namespace vkindex::bench
