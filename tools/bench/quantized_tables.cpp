#include "quantized_tables.hpp"

#include <cstring>

#include "host_data.hpp"

namespace vkindex::bench {
namespace {

// Float16 bits of a float32, rounded to nearest even (normal results and zeros only: the scales keep
// every product there).
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

// A normal float16 number's value.
float floatOfHalf(uint16_t half) {
  const uint32_t bits = (uint32_t(half & 0x8000u) << 16) | ((uint32_t(half & 0x7FFFu) + (112u << 10)) << 13);
  float value = 0;
  std::memcpy(&value, &bits, 4);
  return value;
}

// Code `position` of 4-bit codes packed two per byte, low nibble first (signed: int4).
int32_t nibble(const std::vector<uint8_t>& packed, uint64_t position, bool is_signed) {
  const int32_t code = (packed[position / 2] >> (4 * (position % 2))) & 0xF;
  return is_signed && code >= 8 ? code - 16 : code;
}

}  // namespace

Shape QuantizedTable::dataShape() const {
  return {rows, data_type == DataType::kInt4 ? codes_per_row : codes_per_row / 2};
}

GatherBlockQuantizedOptions QuantizedTable::options() const {
  GatherBlockQuantizedOptions options;
  options.block_size = block;
  options.bits = 4;
  return options;
}

uint64_t QuantizedTable::rowBytes() const {
  const uint64_t blocks = static_cast<uint64_t>(blocksPerRow());
  return static_cast<uint64_t>(codes_per_row / 2) + blocks * 2 + (data_type == DataType::kInt4 ? (blocks + 1) / 2 : 0);
}

QuantizedTable randomQuantizedTable(DataType data_type, int64_t rows, int64_t codes_per_row, int64_t block,
                                    uint64_t seed) {
  QuantizedTable table{data_type, rows, codes_per_row, block, seed, {}, {}, {}};
  const uint64_t scale_count = static_cast<uint64_t>(rows * table.blocksPerRow());
  table.codes = randomBytes(static_cast<uint64_t>(rows * codes_per_row) / 2, seed);
  const std::vector<uint8_t> noise = randomBytes(scale_count * 2, seed + 1);
  table.scales.resize(scale_count * 2);
  for (uint64_t i = 0; i < scale_count; ++i) {
    const uint16_t r = static_cast<uint16_t>(noise[2 * i] | (noise[2 * i + 1] << 8));
    const uint16_t half = static_cast<uint16_t>((r & 0x8000u) | ((7u + (r >> 10) % 4) << 10) | (r & 0x3FFu));
    std::memcpy(&table.scales[2 * i], &half, 2);
  }
  if (data_type == DataType::kInt4) table.zero_points = randomBytes((scale_count + 1) / 2, seed + 2);
  return table;
}

std::vector<uint8_t> dequantizedRows(const QuantizedTable& table, const std::vector<int64_t>& tokens) {
  const bool is_int4 = table.data_type == DataType::kInt4;
  const int64_t blocks = table.blocksPerRow();
  std::vector<uint8_t> output(tokens.size() * static_cast<uint64_t>(table.codes_per_row) * 2);
  uint64_t out = 0;
  for (const int64_t row : tokens) {
    for (int64_t c = 0; c < table.codes_per_row; ++c) {
      const uint64_t code_position = static_cast<uint64_t>(row * table.codes_per_row + c);
      const uint64_t scale_position = static_cast<uint64_t>(row * blocks + c / table.block);
      const int32_t zero_point = is_int4 ? nibble(table.zero_points, scale_position, true) : 8;
      uint16_t scale = 0;
      std::memcpy(&scale, &table.scales[2 * scale_position], 2);
      const float value =
          static_cast<float>(nibble(table.codes, code_position, is_int4) - zero_point) * floatOfHalf(scale);
      const uint16_t half = halfOf(value);
      std::memcpy(&output[out], &half, 2);
      out += 2;
    }
  }
  return output;
}

StatusOr<std::vector<Tensor>> uploadTable(Context& context, const QuantizedTable& table) {
  std::vector<Tensor> tensors;
  VKINDEX_ASSIGN_OR_RETURN(Tensor data, Tensor::fromHost(context, table.data_type, table.dataShape(),
                                                         table.codes.data(), table.codes.size()));
  VKINDEX_ASSIGN_OR_RETURN(Tensor scales, Tensor::fromHost(context, DataType::kFloat16, table.scaleShape(),
                                                           table.scales.data(), table.scales.size()));
  tensors.push_back(std::move(data));
  tensors.push_back(std::move(scales));
  if (!table.zero_points.empty()) {
    VKINDEX_ASSIGN_OR_RETURN(Tensor zero_points, Tensor::fromHost(context, DataType::kInt4, table.scaleShape(),
                                                                  table.zero_points.data(), table.zero_points.size()));
    tensors.push_back(std::move(zero_points));
  }
  return tensors;
}

}  // namespace vkindex::bench
