// GatherBlockQuantized rows: a 4-bit embedding table (int4 codes, float16 scales per block of 32,
// int4 zero points) looked up for a prefill batch and for one decode token, and a 262144-row uint8
// table of 4-bit codes (the vocabulary of a phone-sized LLM, larger than lavapipe's storage binding),
// each beside a float16 Gather of as many rows of the same table shape, so that one run gives the
// quantized lookup's cost against the plain one (quantized_tables.hpp has the tables and the expected
// output).
#include <cstring>
#include <memory>

#include "host_data.hpp"
#include "quantized_tables.hpp"
#include "workloads.hpp"

namespace vkindex::bench {
namespace {

struct LookupSpec {
  DataType data_type = DataType::kInt4;
  int64_t rows = 0;
  int64_t codes_per_row = 0;
  int64_t tokens = 0;
  uint64_t seed = 0;
};

constexpr int64_t kBlock = 32;

StatusOr<PreparedCase> prepareLookup(Context& context, const LookupSpec& spec) {
  const QuantizedTable table = randomQuantizedTable(spec.data_type, spec.rows, spec.codes_per_row, kBlock, spec.seed);
  const std::vector<uint8_t> token_bytes =
      randomIndices(DataType::kInt64, static_cast<uint64_t>(spec.tokens), spec.rows, spec.seed + 3);
  std::vector<int64_t> tokens(static_cast<size_t>(spec.tokens));
  std::memcpy(tokens.data(), token_bytes.data(), token_bytes.size());

  PreparedCase prepared;
  prepared.expected = dequantizedRows(table, tokens);
  VKINDEX_ASSIGN_OR_RETURN(std::vector<Tensor> tensors, uploadTable(context, table));
  VKINDEX_ASSIGN_OR_RETURN(Tensor index_tensor, Tensor::fromHost(context, DataType::kInt64, {spec.tokens},
                                                                 token_bytes.data(), token_bytes.size()));
  // inputs: data, indices, scales, [zero points]
  prepared.inputs.push_back(std::move(tensors[0]));
  prepared.inputs.push_back(std::move(index_tensor));
  for (size_t i = 1; i < tensors.size(); ++i) prepared.inputs.push_back(std::move(tensors[i]));
  VKINDEX_ASSIGN_OR_RETURN(prepared.output,
                           Tensor::create(context, DataType::kFloat16, {spec.tokens, spec.codes_per_row}));
  // Quantized bytes read (each looked-up row's codes, scales and zero points) plus output bytes written.
  prepared.traffic_bytes = static_cast<uint64_t>(spec.tokens) * table.rowBytes() + prepared.expected.size();
  prepared.record = [options = table.options()](Context& ctx, VkCommandBuffer cmd, const std::vector<Tensor>& inputs,
                                                Tensor& output) {
    const Tensor* zero_points = inputs.size() > 3 ? &inputs[3] : nullptr;
    return recordGatherBlockQuantized(ctx, cmd, inputs[0], inputs[1], inputs[2], zero_points, options, output);
  };
  return prepared;
}

Workload lookupWorkload(std::string name, const LookupSpec& spec) {
  const QuantizedTable shape_only{spec.data_type, spec.rows, spec.codes_per_row, kBlock, 0, {}, {}, {}};
  Workload workload;
  workload.name = std::move(name);
  workload.op = "GatherBlockQuantized";
  workload.shapes = shapeText(spec.data_type, shape_only.dataShape()) + " x int64[" + std::to_string(spec.tokens) +
                    "], float16 scales, block " + std::to_string(kBlock) +
                    (spec.data_type == DataType::kInt4 ? ", int4 zero points" : ", bits 4");
  workload.prepare = [spec](Context& context) { return prepareLookup(context, spec); };
  return workload;
}

// A float16 Gather of as many random rows of the same table shape: the plain lookup to compare with.
// The 262144-row table in float16 (1.3 GB) exceeds some devices' allocations: skipped there.
Workload plainWorkload(std::string name, const LookupSpec& spec) {
  Workload workload = gatherWorkload(std::move(name), DataType::kFloat16, {spec.rows, spec.codes_per_row},
                                     DataType::kInt64, {spec.tokens}, 0, spec.seed + 3);
  workload.skip_when_unsupported = true;
  return workload;
}

}  // namespace

std::vector<Workload> gbqWorkloads(bool quick) {
  const LookupSpec embedding{DataType::kInt4, quick ? 4000 : 32000, quick ? 512 : 4096, quick ? 1024 : 8192, 41};
  LookupSpec one_token = embedding;
  one_token.tokens = 1;
  const LookupSpec vocabulary{DataType::kUInt8, quick ? 16384 : 262144, 2560, 512, 47};
  return {lookupWorkload("gbq-embedding", embedding),
          plainWorkload("gbq-embedding-f16", embedding),
          lookupWorkload("gbq-embedding-1token", one_token),
          plainWorkload("gbq-embedding-1token-f16", one_token),
          lookupWorkload("gbq-256k", vocabulary),
          plainWorkload("gbq-256k-f16", vocabulary)};
}

}  // namespace vkindex::bench
