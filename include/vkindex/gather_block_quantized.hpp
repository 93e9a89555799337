// GatherBlockQuantized (domain com.microsoft, version 1): the quantized embedding lookup. Gather along
// `gather_axis` of a block-quantized table, dequantized on the way out:
//   output = (code - zero_point) * scale       (integer data: int4, uint4, uint8 with bits 8, 4 or 2)
//   output = value * scale                      (float8 and float4e2m1 data: no zero points)
// as ONNX Runtime's CPU kernel computes it: the integer difference (or the float8/float4 value) made a
// float32, one float32 multiply by the scale widened to float32 (subnormals kept, overflow to +-inf),
// one round-to-nearest-even conversion to the scales' type. Every form runs on the baseline device.
#pragma once

#include "vkindex/api.h"
#include "vkindex/index_policy.hpp"
#include "vkindex/ops.hpp"

namespace vkindex {

// The operator's attributes (ONNX Runtime's defaults) and vkindex's index policy.
struct GatherBlockQuantizedOptions {
  int64_t gather_axis = 0;    // in [-r, r-1]; 0 for uint8 data
  int64_t quantize_axis = 1;  // in [-r, r-1]; the last axis for uint8 data
  // A power of two >= 16: the elements along quantize_axis that share a scale (and zero point). 0 is
  // allowed for float8/float4e2m1 data: one block spans the whole axis.
  int64_t block_size = 128;
  // uint8 data: 8, 4 or 2 bits per code, packed along the last axis (first code in the low bits), so
  // data's last dimension holds 8 / bits codes per byte. int4/uint4 data: 4 only. Float data: ignored.
  int64_t bits = 4;
  // kSkip (the schema's rule, and the default): an index in [-s, s-1] addresses a row (negative ones
  // count from the back, under either policy), any other gives a zero output slice. kError: any other
  // is a kOutOfRange error found on the device before anything is written.
  IndexPolicy index_policy = IndexPolicy::kSkip;
};

// data: r >= 1 dims of int4, uint4 (packed over the whole tensor, vkindex/data_type.hpp), uint8 (codes
// of `bits` bits packed along the last axis), float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz
// or float4e2m1. indices: int32 or int64, any rank (rank 0 too). scales: float32, float16 or bfloat16,
// data's rank; its dim at quantize_axis is the block count ceil(codes along the axis / block_size), its
// other dims equal data's (float data: or 1, shared along that axis). zero_points (optional, null when
// absent; integer data only): data's type; int4/uint4: scales' shape, packed over the whole tensor;
// uint8 with bits 8: scales' shape; with bits 4 or 2: scales' shape with the last dim packed (8 / bits
// per byte, each row padded to whole bytes). When absent the zero point is 0 (int4, uint4) or
// 2^(bits-1) (uint8). The output has Gather's shape along gather_axis (uint8 data: the last dim counts
// codes, data's last dim x 8 / bits) and the scales' type.
VKINDEX_API StatusOr<Tensor> gatherBlockQuantized(Context& context, const Tensor& data, const Tensor& indices,
                                                  const Tensor& scales, const Tensor* zero_points,
                                                  const GatherBlockQuantizedOptions& options = {});
// The same into `output` (the shape and type above, no overlap with the inputs).
VKINDEX_API Status gatherBlockQuantized(Context& context, const Tensor& data, const Tensor& indices,
                                        const Tensor& scales, const Tensor* zero_points,
                                        const GatherBlockQuantizedOptions& options, Tensor& output);
// The same recorded into `command_buffer` (in the recording state), under ops.hpp's synchronization
// contract.
VKINDEX_API StatusOr<RecordedOp> recordGatherBlockQuantized(Context& context, VkCommandBuffer command_buffer,
                                                            const Tensor& data, const Tensor& indices,
                                                            const Tensor& scales, const Tensor* zero_points,
                                                            const GatherBlockQuantizedOptions& options, Tensor& output);
// Host indices (token ids from a CPU sampler, ops.hpp's HostIndices): the same operator, checked on
// the host before anything is recorded; the values are recorded into the command buffer.
VKINDEX_API StatusOr<Tensor> gatherBlockQuantized(Context& context, const Tensor& data, const HostIndices& indices,
                                                  const Tensor& scales, const Tensor* zero_points,
                                                  const GatherBlockQuantizedOptions& options = {});
VKINDEX_API Status gatherBlockQuantized(Context& context, const Tensor& data, const HostIndices& indices,
                                        const Tensor& scales, const Tensor* zero_points,
                                        const GatherBlockQuantizedOptions& options, Tensor& output);

}  // namespace vkindex
