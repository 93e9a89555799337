// GatherBlockQuantized's validation and shape inference (ONNX Runtime's CPU kernel is the reference for
// what is accepted: contrib_ops/cpu/quantization/gather_block_quantized.cc).
#include <string>

#include "plan/gather_block_quantized_plan.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan {
namespace {

std::string prefix() { return std::string(kGatherBlockQuantizedOp) + ": "; }

bool isFloatCodeType(DataType type) {
  switch (type) {
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat4E2M1: return true;
    default: return false;
  }
}

Status checkDataType(DataType type) {
  if (type == DataType::kInt4 || type == DataType::kUInt4 || type == DataType::kUInt8 || isFloatCodeType(type)) {
    return Status::Ok();
  }
  return invalidArgument(prefix() + "input 'data' has type " + dataTypeName(type) +
                         " (allowed int4, uint4, uint8, float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz, "
                         "float4e2m1)");
}

// The code width: `bits` for uint8 data (8, 4 or 2), 4 for int4/uint4 (where bits must be 4), the
// type's own width for float data (bits is not used).
StatusOr<uint32_t> codeBits(DataType type, int64_t bits) {
  if (type == DataType::kUInt8) {
    if (bits == 8 || bits == 4 || bits == 2) return static_cast<uint32_t>(bits);
    return invalidArgument(prefix() + "attribute 'bits' = " + str(bits) +
                           " is not allowed for data of type uint8 (allowed 2, 4, 8)");
  }
  if (type == DataType::kInt4 || type == DataType::kUInt4) {
    if (bits == 4) return 4u;
    return invalidArgument(prefix() + "attribute 'bits' = " + str(bits) + " is not allowed for data of type " +
                           dataTypeName(type) + " (allowed 4)");
  }
  return static_cast<uint32_t>(elementBits(type));
}

Status checkBlockSize(DataType type, int64_t block_size) {
  const bool power_of_two = block_size >= 16 && (block_size & (block_size - 1)) == 0;
  if (power_of_two || (block_size == 0 && isFloatCodeType(type))) return Status::Ok();
  const char* allowed = isFloatCodeType(type) ? "0, or a power of 2 not less than 16" : "a power of 2 not less than 16";
  return invalidArgument(prefix() + "attribute 'block_size' = " + str(block_size) +
                         " is not allowed for data of type " + dataTypeName(type) + " (allowed " + allowed + ")");
}

StatusOr<int64_t> normalizedAxis(const char* name, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return invalidArgument(prefix() + "attribute '" + name + "' = " + str(axis) + " is out of range for input " +
                           "'data' of rank " + str(rank) + " (allowed [" + str(-rank) + ", " + str(rank - 1) + "])");
  }
  return axis < 0 ? axis + rank : axis;
}

// The scales' dims: the block count at quantize_axis, data's dims elsewhere (float data: or 1, one
// scale shared along that axis).
Status checkScales(const TensorInput& scales, const Shape& data_shape, int64_t quantize_axis, uint64_t codes_along,
                   uint64_t block_size, bool float_codes, Shape* expected) {
  if (scales.type != DataType::kFloat32 && scales.type != DataType::kFloat16 && scales.type != DataType::kBFloat16) {
    return invalidArgument(prefix() + "input 'scales' has type " + dataTypeName(scales.type) +
                           " (allowed float, float16, bfloat16)");
  }
  *expected = data_shape;
  (*expected)[static_cast<size_t>(quantize_axis)] = static_cast<int64_t>((codes_along + block_size - 1) / block_size);
  bool match = scales.shape.size() == expected->size();
  for (size_t d = 0; match && d < expected->size(); ++d) {
    match = scales.shape[d] == (*expected)[d] ||
            (float_codes && static_cast<int64_t>(d) != quantize_axis && scales.shape[d] == 1);
  }
  if (match) return Status::Ok();
  std::string rule = "; its dim at quantize_axis " + str(quantize_axis) + " is the block count ceil(" +
                     str(static_cast<int64_t>(codes_along)) + " / " + str(static_cast<int64_t>(block_size)) +
                     ") and its other dims are data's";
  if (float_codes) rule += " (or 1)";
  return invalidArgument(prefix() + "input 'scales' has shape " + shapeString(scales.shape) + ", expected " +
                         shapeString(*expected) + rule);
}

// Zero points: data's type and the scales' shape, the last dim packed for uint8 data of 4 or 2 bits.
Status checkZeroPoints(const TensorInput& zero_points, DataType data_type, uint32_t code_bits,
                       const Shape& scales_shape) {
  if (isFloatCodeType(data_type)) {
    return invalidArgument(prefix() + "input 'zero_points' must be absent for data of type " + dataTypeName(data_type) +
                           " (float data has no zero points)");
  }
  if (zero_points.type != data_type) {
    return invalidArgument(prefix() + "input 'zero_points' has type " + dataTypeName(zero_points.type) +
                           " but input 'data' has type " + dataTypeName(data_type) + "; they must be the same");
  }
  Shape expected = scales_shape;
  std::string packing;
  if (data_type == DataType::kUInt8 && code_bits < 8) {
    const int64_t per_byte = 8 / code_bits;
    expected.back() = (expected.back() + per_byte - 1) / per_byte;
    packing = " (scales' shape with the last dim packed " + str(per_byte) + " per byte)";
  } else {
    packing = " (scales' shape)";
  }
  if (zero_points.shape == expected) return Status::Ok();
  return invalidArgument(prefix() + "input 'zero_points' has shape " + shapeString(zero_points.shape) + ", expected " +
                         shapeString(expected) + packing);
}

// Whether the scales' dims in [begin, end) are all shared (1 where data has more) or none is; the
// kernel takes these two layouts on each side of quantize_axis.
StatusOr<bool> sharedSide(const Shape& scales_shape, const Shape& data_shape, size_t begin, size_t end,
                          const char* side) {
  bool any_shared = false;
  bool any_own = false;
  for (size_t d = begin; d < end; ++d) {
    if (data_shape[d] == scales_shape[d]) continue;
    any_shared = true;  // scales' dim is 1 where data's is larger (checkScales allowed only that)
  }
  for (size_t d = begin; d < end; ++d) {
    if (data_shape[d] > 1 && scales_shape[d] == data_shape[d]) any_own = true;
  }
  if (any_shared && any_own) {
    return unsupported(prefix() + "input 'scales' is shared (dim 1) along some but not all of the axes " + side +
                       " quantize_axis; vkindex takes one scale shared along all of them, or none shared");
  }
  return any_shared;
}

}  // namespace

StatusOr<GatherBlockQuantizedShape> inferGatherBlockQuantizedShape(const TensorInput& data, const TensorInput& indices,
                                                                   const TensorInput& scales,
                                                                   const std::optional<TensorInput>& zero_points,
                                                                   const GatherBlockQuantizedOptions& options) {
  GatherBlockQuantizedShape shape;
  if (options.index_policy != IndexPolicy::kError && options.index_policy != IndexPolicy::kSkip) {
    return invalidArgument(prefix() + "unknown index policy " + str(static_cast<int>(options.index_policy)) +
                           " (allowed kError, kSkip)");
  }
  shape.policy = options.index_policy;
  VKINDEX_RETURN_IF_ERROR(checkDataType(data.type));
  shape.data_type = data.type;
  const bool float_codes = isFloatCodeType(data.type);
  VKINDEX_ASSIGN_OR_RETURN(shape.code_bits, codeBits(data.type, options.bits));
  VKINDEX_RETURN_IF_ERROR(checkBlockSize(data.type, options.block_size));
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  if (rank < 1) return invalidArgument(prefix() + "input 'data' must have rank >= 1, got shape []");
  VKINDEX_ASSIGN_OR_RETURN(shape.gather_axis, normalizedAxis("gather_axis", options.gather_axis, rank));
  VKINDEX_ASSIGN_OR_RETURN(shape.quantize_axis, normalizedAxis("quantize_axis", options.quantize_axis, rank));
  if (data.type == DataType::kUInt8) {
    if (shape.gather_axis != 0) {
      return invalidArgument(prefix() + "attribute 'gather_axis' = " + str(options.gather_axis) +
                             " is not allowed for data of type uint8 (allowed 0)");
    }
    if (shape.quantize_axis != rank - 1) {
      return invalidArgument(prefix() + "attribute 'quantize_axis' = " + str(options.quantize_axis) +
                             " is not allowed for data of type uint8 (allowed the last axis, " + str(rank - 1) + ")");
    }
    if (shape.gather_axis == shape.quantize_axis) {
      return invalidArgument(prefix() + "gather_axis and quantize_axis are both axis 0 of input 'data' of rank 1; " +
                             "for data of type uint8 they must differ");
    }
  }
  if (indices.type != DataType::kInt32 && indices.type != DataType::kInt64) {
    return invalidArgument(prefix() + "input 'indices' has type " + dataTypeName(indices.type) +
                           " (allowed int32, int64)");
  }
  shape.index_type = indices.type;
  shape.indices_shape = indices.shape;
  if (!elementCount(indices.shape)) {
    return invalidArgument(prefix() + "input 'indices' has shape " + shapeString(indices.shape) +
                           ": a negative dim, or more elements than 2^63");
  }

  // Codes per data element along the last axis: uint8 packs 8 / bits of them into each byte.
  const uint64_t components = data.type == DataType::kUInt8 ? 8 / shape.code_bits : 1;
  Shape codes_shape = data.shape;
  for (const int64_t dim : data.shape) {
    if (dim < 0) return invalidArgument(prefix() + "input 'data' has a negative dim: " + shapeString(data.shape));
  }
  if (static_cast<uint64_t>(codes_shape.back()) > (uint64_t(1) << 60))
    codes_shape.back() = -1;  // refused below
  else
    codes_shape.back() = static_cast<int64_t>(static_cast<uint64_t>(codes_shape.back()) * components);
  if (!elementCount(codes_shape)) {
    return invalidArgument(prefix() + "input 'data' has shape " + shapeString(data.shape) + ", more than 2^63 codes");
  }
  const size_t g = static_cast<size_t>(shape.gather_axis);
  const size_t q = static_cast<size_t>(shape.quantize_axis);
  const uint64_t codes_along = static_cast<uint64_t>(codes_shape[q]);
  shape.block_size =
      options.block_size != 0 ? static_cast<uint64_t>(options.block_size) : std::max<uint64_t>(codes_along, 1);

  Shape expected_scales;
  VKINDEX_RETURN_IF_ERROR(checkScales(scales, codes_shape, shape.quantize_axis, codes_along, shape.block_size,
                                      float_codes, &expected_scales));
  shape.scale_type = scales.type;
  if (zero_points.has_value()) {
    VKINDEX_RETURN_IF_ERROR(checkZeroPoints(*zero_points, data.type, shape.code_bits, scales.shape));
    shape.has_zero_points = true;
    if (data.type == DataType::kUInt8 && shape.code_bits < 8) {
      shape.zero_point_row_bytes = static_cast<uint64_t>(zero_points->shape.back());
    }
  }
  VKINDEX_ASSIGN_OR_RETURN(shape.scales_shared_outer, sharedSide(scales.shape, codes_shape, 0, q, "before"));
  VKINDEX_ASSIGN_OR_RETURN(shape.scales_shared_inner,
                           sharedSide(scales.shape, codes_shape, q + 1, codes_shape.size(), "after"));

  Shape output;
  output.insert(output.end(), codes_shape.begin(), codes_shape.begin() + static_cast<int64_t>(g));
  output.insert(output.end(), indices.shape.begin(), indices.shape.end());
  output.insert(output.end(), codes_shape.begin() + static_cast<int64_t>(g) + 1, codes_shape.end());
  VKINDEX_RETURN_IF_ERROR(checkOutputShape(kGatherBlockQuantizedOp, output));
  shape.output_shape = output;

  const auto count = [&](size_t begin, size_t end) { return productOf(codes_shape, begin, end).value_or(0); };
  shape.outer = count(0, g);
  shape.axis_dim = static_cast<uint64_t>(codes_shape[g]);
  shape.row_codes = count(g + 1, codes_shape.size());
  shape.index_count = productOf(indices.shape, 0, indices.shape.size()).value_or(0);
  shape.quantize_outer = count(0, q);
  shape.quantize_dim = codes_along;
  shape.quantize_inner = count(q + 1, codes_shape.size());
  shape.blocks = static_cast<uint64_t>(expected_scales[q]);
  return shape;
}

}  // namespace vkindex::plan
