// Block-quantized embedding tables for the GatherBlockQuantized rows (gbq_workloads.cpp, the latency
// section's gbq-1row): codes, float16 scales and zero points from fixed seeds, and the lookup's
// expected float16 output computed on the host with the operator's arithmetic.
#pragma once

#include <cstdint>
#include <vector>

#include "vkindex/vkindex.hpp"

namespace vkindex::bench {

struct QuantizedTable {
  DataType data_type = DataType::kInt4;  // int4 (with int4 zero points) or uint8 of 4-bit codes (default 8)
  int64_t rows = 0;
  int64_t codes_per_row = 0;  // even
  int64_t block = 32;
  uint64_t seed = 0;
  std::vector<uint8_t> codes, scales, zero_points;  // host bytes (zero points: int4 tables only)

  int64_t blocksPerRow() const { return (codes_per_row + block - 1) / block; }
  Shape dataShape() const;
  Shape scaleShape() const { return {rows, blocksPerRow()}; }
  GatherBlockQuantizedOptions options() const;
  // Bytes a lookup of one row reads: its codes, scales and zero points.
  uint64_t rowBytes() const;
};

// A table of random codes, normal float16 scales of magnitude 2^-8 to 2^-5 (every product a normal
// float16 number or zero) and, for int4, random zero points.
QuantizedTable randomQuantizedTable(DataType data_type, int64_t rows, int64_t codes_per_row, int64_t block,
                                    uint64_t seed);

// The float16 bytes of the lookup of `tokens` (non-negative, in range): (code - zero point) x scale
// in float32 (IEEE's multiply on the host), rounded to nearest even.
std::vector<uint8_t> dequantizedRows(const QuantizedTable& table, const std::vector<int64_t>& tokens);

// The table on the device: data, scales and (int4) zero points.
StatusOr<std::vector<Tensor>> uploadTable(Context& context, const QuantizedTable& table);

}  // namespace vkindex::bench
