// GatherBlockQuantized (com.microsoft): the call's validation on the host (types, attributes, the
// shapes of scales and zero points) with ONNX Runtime's rules, and its plan: the index check where the
// policy asks for one, then dequantizing passes (shaders/gather_block_quantized.comp), one per window of
// data rows when the table is larger than one storage binding.
#pragma once

#include <optional>

#include "plan/op_plan.hpp"
#include "plan/tuning.hpp"
#include "plan/windows.hpp"
#include "vkindex/data_type.hpp"
#include "vkindex/gather_block_quantized.hpp"

namespace vkindex::plan {

// The operator's name, as its messages begin.
inline constexpr const char* kGatherBlockQuantizedOp = "GatherBlockQuantized";

// What the planner needs of one input: its type and shape.
struct TensorInput {
  DataType type = DataType::kFloat32;
  Shape shape;
};

// The operation as the kernel sees it. Data is `outer` x `axis_dim` x `row_codes` codes (gather_axis
// in the middle); the output `outer` x `index_count` x `row_codes` elements. Around quantize_axis the
// same codes are `quantize_outer` x `quantize_dim` x `quantize_inner`, and the scales
// `quantize_outer` x `blocks` x `quantize_inner`, where a shared (broadcast) side has extent 1.
struct GatherBlockQuantizedShape {
  DataType data_type = DataType::kUInt8;
  DataType scale_type = DataType::kFloat32;  // the output's type too
  DataType index_type = DataType::kInt64;
  Shape indices_shape;
  Shape output_shape;
  int64_t gather_axis = 0;    // normalized
  int64_t quantize_axis = 0;  // normalized
  uint32_t code_bits = 4;     // bits per code: 8, 4 or 2
  uint64_t block_size = 0;    // effective: block_size, or the whole axis (float data, block_size 0)
  uint64_t outer = 0;
  uint64_t axis_dim = 0;
  uint64_t row_codes = 0;
  uint64_t index_count = 0;
  uint64_t quantize_outer = 0;
  uint64_t quantize_dim = 0;  // codes along quantize_axis
  uint64_t quantize_inner = 0;
  uint64_t blocks = 0;
  bool scales_shared_outer = false;  // float data: one scale along every axis before quantize_axis
  bool scales_shared_inner = false;  // float data: one scale along every axis after it
  bool has_zero_points = false;
  uint64_t zero_point_row_bytes = 0;  // uint8 data with bits 4 or 2: bytes per packed zero-point row
  IndexPolicy policy = IndexPolicy::kSkip;
};

// Validates the call as ONNX Runtime's CPU kernel does, with messages naming the operator, the input
// or attribute, and what is allowed; infers the output shape.
StatusOr<GatherBlockQuantizedShape> inferGatherBlockQuantizedShape(const TensorInput& data, const TensorInput& indices,
                                                                   const TensorInput& scales,
                                                                   const std::optional<TensorInput>& zero_points,
                                                                   const GatherBlockQuantizedOptions& options);

// The plan, tensors at the given placements (`zero_points` unset when absent).
StatusOr<OpPlan> planGatherBlockQuantized(const GatherBlockQuantizedShape& shape, const Placement& data,
                                          const Placement& indices, const Placement& scales,
                                          const std::optional<Placement>& zero_points, const Placement& output,
                                          const DeviceInfo& device, const Tuning& tuning);

}  // namespace vkindex::plan
