// GatherBlockQuantized rows: a 4-bit embedding table (int4 codes, float16 scales per block of 32,
// int4 zero points) looked up for a prefill batch and for one decode token, and a 262144-row uint8
// table of 4-bit codes (the vocabulary of a phone-sized LLM, larger than lavapipe's storage binding),
// each beside the float16 Gather of the same rows, so that one run gives the quantized lookup's cost
// against the plain one. Expected outputs come from the operator's arithmetic on the host: float32
// (code - zero point) x scale (the host's float32 multiply is IEEE's, subnormals kept), rounded to
// float16 to nearest even.
#include <cmath>
#include <cstring>
#include <memory>

#include "host_data.hpp"
#include "workloads.hpp"

namespace vkindex::bench {
namespace {

struct QuantizedTable {
  DataType data_type = DataType::kInt4;  // int4 (zero points given) or uint8 with 4-bit codes (default 8)
  int64_t rows = 0;
  int64_t codes_per_row = 0;
  int64_t block = 32;
  int64_t tokens = 0;
  uint64_t seed = 0;
};

int64_t blocksPerRow(const QuantizedTable& table) { return (table.codes_per_row + table.block - 1) / table.block; }

// Float16 bits of a float32, rounded to nearest even (normal results only: the scales below keep every
// product far from float16's subnormal and overflow ranges).
uint16_t halfOf(float value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, 4);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude == 0) return static_cast<uint16_t>(sign);
  // Rebias 127 -> 15 and round the 13 dropped fraction bits to nearest even.
  const uint32_t rebased = magnitude - (112u << 23);
  const uint32_t rest = rebased & 0x1FFFu;
  uint32_t half = rebased >> 13;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0)) ++half;
  return static_cast<uint16_t>(sign | half);
}

float floatOfHalf(uint16_t half) {
  // Normal float16 only (the scales below are).
  const uint32_t bits = (uint32_t(half & 0x8000u) << 16) | ((uint32_t(half & 0x7FFFu) + (112u << 10)) << 13);
  float value = 0;
  std::memcpy(&value, &bits, 4);
  return value;
}

// Normal float16 scales of magnitude 2^-8 to 2^-5, either sign.
std::vector<uint8_t> randomScales(uint64_t count, uint64_t seed) {
  const std::vector<uint8_t> noise = randomBytes(count * 2, seed);
  std::vector<uint8_t> scales(count * 2);
  for (uint64_t i = 0; i < count; ++i) {
    const uint16_t r = static_cast<uint16_t>(noise[2 * i] | (noise[2 * i + 1] << 8));
    const uint16_t half = static_cast<uint16_t>((r & 0x8000u) | ((7u + (r >> 10) % 4) << 10) | (r & 0x3FFu));
    std::memcpy(&scales[2 * i], &half, 2);
  }
  return scales;
}

// Code `position` of a tensor of 4-bit codes packed two per byte, low nibble first (int4: signed).
int32_t nibble(const std::vector<uint8_t>& packed, uint64_t position, bool is_signed) {
  const int32_t code = (packed[position / 2] >> (4 * (position % 2))) & 0xF;
  return is_signed && code >= 8 ? code - 16 : code;
}

// The lookup's float16 output bytes for `tokens` (int64, non-negative).
std::vector<uint8_t> expectedOutput(const QuantizedTable& table, const std::vector<uint8_t>& codes,
                                    const std::vector<uint8_t>& scales, const std::vector<uint8_t>& zero_points,
                                    const std::vector<int64_t>& tokens) {
  const bool is_int4 = table.data_type == DataType::kInt4;
  const int64_t blocks = blocksPerRow(table);
  std::vector<uint8_t> output(tokens.size() * static_cast<uint64_t>(table.codes_per_row) * 2);
  uint64_t out = 0;
  for (const int64_t row : tokens) {
    for (int64_t c = 0; c < table.codes_per_row; ++c) {
      const uint64_t code_position = static_cast<uint64_t>(row * table.codes_per_row + c);
      const uint64_t scale_position = static_cast<uint64_t>(row * blocks + c / table.block);
      const int32_t zero_point = is_int4 ? nibble(zero_points, scale_position, true) : 8;
      uint16_t scale_half = 0;
      std::memcpy(&scale_half, &scales[2 * scale_position], 2);
      const float value =
          static_cast<float>(nibble(codes, code_position, is_int4) - zero_point) * floatOfHalf(scale_half);
      const uint16_t half = halfOf(value);
      std::memcpy(&output[out], &half, 2);
      out += 2;
    }
  }
  return output;
}

Shape dataShape(const QuantizedTable& table) {
  return {table.rows, table.data_type == DataType::kInt4 ? table.codes_per_row : table.codes_per_row / 2};
}

StatusOr<PreparedCase> prepareLookup(Context& context, const QuantizedTable& table) {
  const bool is_int4 = table.data_type == DataType::kInt4;
  const uint64_t codes = static_cast<uint64_t>(table.rows * table.codes_per_row);
  const uint64_t scale_count = static_cast<uint64_t>(table.rows * blocksPerRow(table));
  std::vector<uint8_t> data = randomBytes(codes / 2, table.seed);
  std::vector<uint8_t> scales = randomScales(scale_count, table.seed + 1);
  std::vector<uint8_t> zero_points =
      is_int4 ? randomBytes((scale_count + 1) / 2, table.seed + 2) : std::vector<uint8_t>();
  std::vector<int64_t> tokens(static_cast<size_t>(table.tokens));
  const std::vector<uint8_t> token_bytes = randomIndices(DataType::kInt64, tokens.size(), table.rows, table.seed + 3);
  std::memcpy(tokens.data(), token_bytes.data(), token_bytes.size());

  PreparedCase prepared;
  prepared.expected = expectedOutput(table, data, scales, zero_points, tokens);
  const Shape scale_shape = {table.rows, blocksPerRow(table)};
  VKINDEX_ASSIGN_OR_RETURN(Tensor data_tensor,
                           Tensor::fromHost(context, table.data_type, dataShape(table), data.data(), data.size()));
  VKINDEX_ASSIGN_OR_RETURN(Tensor index_tensor, Tensor::fromHost(context, DataType::kInt64, {table.tokens},
                                                                 token_bytes.data(), token_bytes.size()));
  VKINDEX_ASSIGN_OR_RETURN(Tensor scale_tensor,
                           Tensor::fromHost(context, DataType::kFloat16, scale_shape, scales.data(), scales.size()));
  prepared.inputs.push_back(std::move(data_tensor));
  prepared.inputs.push_back(std::move(index_tensor));
  prepared.inputs.push_back(std::move(scale_tensor));
  if (is_int4) {
    VKINDEX_ASSIGN_OR_RETURN(Tensor zero_point_tensor, Tensor::fromHost(context, DataType::kInt4, scale_shape,
                                                                        zero_points.data(), zero_points.size()));
    prepared.inputs.push_back(std::move(zero_point_tensor));
  }
  VKINDEX_ASSIGN_OR_RETURN(prepared.output,
                           Tensor::create(context, DataType::kFloat16, {table.tokens, table.codes_per_row}));
  // Quantized bytes read (each looked-up row's codes, scales and zero points) plus output bytes written.
  const uint64_t row_bytes = static_cast<uint64_t>(table.codes_per_row / 2 + blocksPerRow(table) * 2 +
                                                   (is_int4 ? (blocksPerRow(table) + 1) / 2 : 0));
  prepared.traffic_bytes = static_cast<uint64_t>(table.tokens) * row_bytes + prepared.expected.size();
  GatherBlockQuantizedOptions options;
  options.block_size = table.block;
  options.bits = 4;
  prepared.record = [options](Context& ctx, VkCommandBuffer cmd, const std::vector<Tensor>& inputs, Tensor& output) {
    const Tensor* zero_point_input = inputs.size() > 3 ? &inputs[3] : nullptr;
    return recordGatherBlockQuantized(ctx, cmd, inputs[0], inputs[1], inputs[2], zero_point_input, options, output);
  };
  return prepared;
}

Workload lookupWorkload(std::string name, const QuantizedTable& table) {
  Workload workload;
  workload.name = std::move(name);
  workload.op = "GatherBlockQuantized";
  workload.shapes = shapeText(table.data_type, dataShape(table)) + " x int64[" + std::to_string(table.tokens) +
                    "], float16 scales, block " + std::to_string(table.block) +
                    (table.data_type == DataType::kInt4 ? ", int4 zero points" : ", bits 4");
  workload.prepare = [table](Context& context) { return prepareLookup(context, table); };
  return workload;
}

// The float16 Gather of as many random rows of the same table shape: the plain lookup to compare with.
Workload plainWorkload(std::string name, const QuantizedTable& table) {
  return gatherWorkload(std::move(name), DataType::kFloat16, {table.rows, table.codes_per_row}, DataType::kInt64,
                        {table.tokens}, 0, table.seed + 3);
}

}  // namespace

std::vector<Workload> gbqWorkloads(bool quick) {
  const QuantizedTable embedding{
      DataType::kInt4, quick ? 4000 : 32000, quick ? 512 : 4096, 32, quick ? 1024 : 8192, 41};
  QuantizedTable one_token = embedding;
  one_token.tokens = 1;
  const QuantizedTable vocabulary{DataType::kUInt8, quick ? 16384 : 262144, 2560, 32, 512, 47};
  return {lookupWorkload("gbq-embedding", embedding),
          plainWorkload("gbq-embedding-f16", embedding),
          lookupWorkload("gbq-embedding-1token", one_token),
          plainWorkload("gbq-embedding-1token-f16", one_token),
          lookupWorkload("gbq-256k", vocabulary),
          plainWorkload("gbq-256k-f16", vocabulary)};
}

}  // namespace vkindex::bench
