#include "kv_write_row.hpp"

#include <cstring>

#include "host_data.hpp"
#include "vkindex/tensor_scatter.hpp"

namespace vkindex::tune {
namespace {

constexpr int64_t kMaxSequence = 64;
constexpr int64_t kHeadWidth = 64;  // float32 elements per cache row (256 bytes)

StatusOr<bench::PreparedCase> prepareKvWrite(Context& context, int64_t sequences) {
  const Shape cache_shape = {sequences, kMaxSequence, kHeadWidth};
  const Shape update_shape = {sequences, 1, kHeadWidth};
  const uint64_t row_bytes = kHeadWidth * sizeof(float);
  const std::vector<uint8_t> cache = bench::randomBytes(uint64_t(sequences * kMaxSequence) * row_bytes, 41);
  const std::vector<uint8_t> update = bench::randomBytes(uint64_t(sequences) * row_bytes, 42);
  std::vector<int64_t> positions(static_cast<size_t>(sequences));
  const std::vector<int64_t> order = bench::randomPermutation(sequences * kMaxSequence, 43);
  for (size_t s = 0; s < positions.size(); ++s) positions[s] = order[s] % kMaxSequence;

  bench::PreparedCase prepared;
  prepared.expected = cache;  // each sequence's row at its position becomes its update
  for (size_t s = 0; s < positions.size(); ++s) {
    std::memcpy(prepared.expected.data() + (s * kMaxSequence + size_t(positions[s])) * row_bytes,
                update.data() + s * row_bytes, row_bytes);
  }
  const std::vector<uint8_t> position_bytes = bench::indexBytes(DataType::kInt64, positions);
  VKINDEX_ASSIGN_OR_RETURN(Tensor cache_tensor,
                           Tensor::fromHost(context, DataType::kFloat32, cache_shape, cache.data(), cache.size()));
  VKINDEX_ASSIGN_OR_RETURN(Tensor update_tensor,
                           Tensor::fromHost(context, DataType::kFloat32, update_shape, update.data(), update.size()));
  VKINDEX_ASSIGN_OR_RETURN(Tensor position_tensor, Tensor::fromHost(context, DataType::kInt64, {sequences},
                                                                    position_bytes.data(), position_bytes.size()));
  VKINDEX_ASSIGN_OR_RETURN(prepared.output, Tensor::create(context, DataType::kFloat32, cache_shape));
  prepared.inputs.push_back(std::move(cache_tensor));
  prepared.inputs.push_back(std::move(update_tensor));
  prepared.inputs.push_back(std::move(position_tensor));
  prepared.record = [](Context& ctx, VkCommandBuffer cmd, const std::vector<Tensor>& inputs, Tensor& output) {
    return recordTensorScatter(ctx, cmd, inputs[0], inputs[1], &inputs[2], {}, output);
  };
  return prepared;
}

}  // namespace

bench::Workload kvWriteRow(int64_t sequences) {
  bench::Workload workload;
  workload.name = "kv-write-" + std::to_string(sequences);
  workload.op = "TensorScatter";
  workload.shapes = "float32[" + std::to_string(sequences) + ",64,64] <- float32[" + std::to_string(sequences) +
                    ",1,64] at int64[" + std::to_string(sequences) + "], axis -2";
  workload.prepare = [sequences](Context& context) { return prepareKvWrite(context, sequences); };
  return workload;
}

}  // namespace vkindex::tune
