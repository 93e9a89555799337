// GatherBlockQuantized's plan: the error policy's index check, then one dequantizing pass per window of
// data rows. A table larger than one storage binding (a 262144-row vocabulary) is cut along the
// gather axis when that is axis 0: each pass binds its rows and the scales and zero points they use,
// reads every index and writes the output rows whose index falls in its window; the first pass also
// writes the zero slices. Otherwise every tensor is bound whole.
#include <algorithm>
#include <string>
#include <tuple>

#include "common/gather_block_quantized_params.h"
#include "plan/fast_division.hpp"
#include "plan/gather_block_quantized_plan.hpp"
#include "plan/index_checks.hpp"
#include "plan/segments.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan {
namespace {

// The kernel counts codes, elements and words in 32 bits with room for sums: every count below 2^31.
constexpr uint64_t kCountLimit = uint64_t(1) << 31;

uint32_t codeKind(DataType type) {
  switch (type) {
    case DataType::kInt4: return VKINDEX_CODE_INT4;
    case DataType::kFloat8E4M3FN: return VKINDEX_CODE_E4M3FN;
    case DataType::kFloat8E4M3FNUZ: return VKINDEX_CODE_E4M3FNUZ;
    case DataType::kFloat8E5M2: return VKINDEX_CODE_E5M2;
    case DataType::kFloat8E5M2FNUZ: return VKINDEX_CODE_E5M2FNUZ;
    case DataType::kFloat4E2M1: return VKINDEX_CODE_E2M1;
    default: return VKINDEX_CODE_UINT;
  }
}

uint32_t scaleKind(DataType type) {
  if (type == DataType::kFloat16) return VKINDEX_SCALE_FLOAT16;
  if (type == DataType::kBFloat16) return VKINDEX_SCALE_BFLOAT16;
  return VKINDEX_SCALE_FLOAT32;
}

uint32_t log2Of(uint64_t power_of_two) {
  uint32_t shift = 0;
  while ((uint64_t(1) << shift) < power_of_two && shift < 63) ++shift;
  return shift;
}

// A window over bytes [begin, end) of a tensor at `placement` (offsets relative to the tensor), and
// how many `bits`-wide items lie between the binding's start and item `first_item` of the tensor.
struct BoundRange {
  Binding binding;
  uint64_t lead_items = 0;
};

BoundRange bindItems(Role role, const Placement& placement, uint64_t first_item, uint64_t end_item, uint32_t bits,
                     const DeviceInfo& device) {
  if (placement.bytes == 0) return {{Role::kStatus, {}}, 0};  // nothing is read: any valid binding
  const uint64_t begin = placement.offset + first_item * bits / 8;
  const uint64_t end = placement.offset + std::min<uint64_t>((end_item * bits + 7) / 8, placement.bytes);
  uint64_t lead = 0;
  const Window window = windowFor(begin, std::max(end, begin + 1), device, &lead);
  // Items from the window's start (bytes before `begin`) to item first_item.
  const uint64_t lead_items = lead * 8 / bits + (first_item * bits % 8) / bits;
  return {{role, window}, lead_items};
}

// The module of `kernel`'s path that checks every index itself (common/self_check.glsl).
Kernel selfCheckingKernel(Kernel kernel) {
  switch (kernel) {
    case Kernel::kGatherBlockQuantizedWords: return Kernel::kGatherBlockQuantizedWordsChecked;
    case Kernel::kGatherBlockQuantizedWordsHalfScales: return Kernel::kGatherBlockQuantizedWordsHalfScalesChecked;
    case Kernel::kGatherBlockQuantizedWordsNative:
    case Kernel::kGatherBlockQuantizedWordsNativeInt64: return Kernel::kGatherBlockQuantizedWordsNativeChecked;
    default: return Kernel::kGatherBlockQuantizedChecked;
  }
}

Status checkBindable(const char* input, uint64_t bytes, const DeviceInfo& device) {
  if (bytes <= windowCapacity(device)) return Status::Ok();
  return unsupported(std::string(kGatherBlockQuantizedOp) + ": input '" + input + "' has " + str(int64_t(bytes)) +
                     " bytes, more than one storage binding of this device holds (" +
                     str(int64_t(windowCapacity(device))) + " bytes)");
}

// Rows of the gather axis per pass: as many as one binding holds of data, scales and zero points,
// whole blocks when the gather axis is also quantize_axis.
StatusOr<uint64_t> rowsPerPass(const GatherBlockQuantizedShape& shape, uint64_t scale_bytes_per_row,
                               uint64_t zero_point_bytes_per_row, const DeviceInfo& device) {
  const uint64_t all_rows = std::max<uint64_t>(shape.axis_dim, 1);
  const uint64_t row_bytes = (shape.row_codes * shape.code_bits + 7) / 8 + 1;
  const uint64_t capacity = windowCapacity(device);
  uint64_t rows = capacity / std::max<uint64_t>(row_bytes, 1);
  rows = std::min(rows, (kCountLimit / 2) / std::max<uint64_t>(shape.row_codes, 1));
  if (scale_bytes_per_row > 0) rows = std::min(rows, capacity / scale_bytes_per_row);
  if (zero_point_bytes_per_row > 0) rows = std::min(rows, capacity / zero_point_bytes_per_row);
  if (shape.quantize_axis == shape.gather_axis) rows = rows / shape.block_size * shape.block_size;
  if (rows == 0) {
    return unsupported(std::string(kGatherBlockQuantizedOp) +
                       ": one row of input 'data' along gather_axis, with its scales and zero " +
                       "points, does not fit one storage binding of this device");
  }
  return std::min(rows, all_rows);
}

}  // namespace

StatusOr<OpPlan> planGatherBlockQuantized(const GatherBlockQuantizedShape& shape, const Placement& data,
                                          const Placement& indices, const Placement& scales,
                                          const std::optional<Placement>& zero_points, const Placement& output,
                                          const DeviceInfo& device, const Tuning& tuning) {
  OpPlan plan;
  plan.report = {kGatherBlockQuantizedOp, "indices", shape.indices_shape, false, {shape.axis_dim}, {shape.gather_axis}};
  const uint64_t output_elements = shape.outer * shape.index_count * shape.row_codes;
  const bool checks_indices = shape.policy == IndexPolicy::kError && shape.index_count > 0;
  VKINDEX_RETURN_IF_ERROR(checkBindable("indices", indices.bytes, device));
  bool gated = false;
  if (checks_indices) {
    const IndexCheck check{shape.index_type, shape.index_count, {shape.axis_dim}, IndexPolicy::kError};
    VKINDEX_ASSIGN_OR_RETURN(gated, appendIndexChecks(plan, check, indices, device, tuning, kGatherBlockQuantizedOp));
  }
  if (output_elements == 0) return plan;

  const uint32_t output_bytes_per_element = static_cast<uint32_t>(elementSize(shape.scale_type));
  const uint64_t elements_per_word = 4 / output_bytes_per_element;
  const uint64_t output_words = (output_elements + elements_per_word - 1) / elements_per_word;
  VKINDEX_RETURN_IF_ERROR(checkBindable("the output", output.bytes, device));
  if (output_elements >= kCountLimit) {
    return unsupported(std::string(kGatherBlockQuantizedOp) + ": the output has " + str(int64_t(output_elements)) +
                       " elements; the kernel counts fewer than 2^31");
  }

  if (shape.axis_dim >= kCountLimit) {
    return unsupported(std::string(kGatherBlockQuantizedOp) + ": input 'data' has " + str(int64_t(shape.axis_dim)) +
                       " rows along gather_axis; the kernel counts fewer than 2^31");
  }

  // Scales (and zero points) per row of the gather axis, where the pass cuts the table in rows.
  const uint32_t scale_bits = static_cast<uint32_t>(elementBits(shape.scale_type));
  const uint64_t scale_inner = shape.scales_shared_inner ? 1 : shape.quantize_inner;
  const uint64_t scale_outer_stride = shape.blocks * scale_inner;
  const bool cut_rows = shape.outer == 1;  // gather_axis 0 (or all dims before it 1)
  const uint64_t data_codes = shape.outer * shape.axis_dim * shape.row_codes;
  // x steps per row of the gather axis when quantize_axis comes after it (outer == 1).
  const uint64_t x_per_row = shape.quantize_axis > shape.gather_axis
                                 ? shape.row_codes / std::max<uint64_t>(shape.quantize_dim * shape.quantize_inner, 1)
                                 : 0;
  const uint32_t zero_point_bits = shape.data_type == DataType::kUInt8 ? shape.code_bits : 4;
  const uint64_t zero_point_codes_per_x =
      shape.zero_point_row_bytes != 0 ? shape.zero_point_row_bytes * (8 / shape.code_bits) : scale_outer_stride;

  uint64_t rows = std::max<uint64_t>(shape.axis_dim, 1);
  if (cut_rows) {
    const uint64_t scale_bytes =
        shape.scales_shared_outer || x_per_row == 0 ? 0 : x_per_row * scale_outer_stride * scale_bits / 8 + 1;
    const uint64_t zero_point_bytes =
        zero_points && x_per_row != 0 ? x_per_row * zero_point_codes_per_x * zero_point_bits / 8 + 1 : 0;
    VKINDEX_ASSIGN_OR_RETURN(rows, rowsPerPass(shape, scale_bytes, zero_point_bytes, device));
  } else {
    VKINDEX_RETURN_IF_ERROR(checkBindable("data", data.bytes, device));
    VKINDEX_RETURN_IF_ERROR(checkBindable("scales", scales.bytes, device));
    if (zero_points) VKINDEX_RETURN_IF_ERROR(checkBindable("zero_points", zero_points->bytes, device));
    if (data_codes >= kCountLimit) {
      return unsupported(std::string(kGatherBlockQuantizedOp) + ": input 'data' has " + str(int64_t(data_codes)) +
                         " codes; with " + "gather_axis " + str(shape.gather_axis) +
                         " the kernel counts fewer than 2^31");
    }
  }
  const uint64_t passes = (std::max<uint64_t>(shape.axis_dim, 1) + rows - 1) / rows;
  if (passes > 1 && elements_per_word == 2 && shape.row_codes % 2 != 0) {
    return unsupported(std::string(kGatherBlockQuantizedOp) + ": input 'data' needs " + str(int64_t(passes)) +
                       " storage bindings and " + "its rows have an odd number of codes (" +
                       str(int64_t(shape.row_codes)) + "); vkindex cuts a 16-bit output only between whole words");
  }

  const uint32_t workgroup = tuning.workgroup_size;
  uint64_t output_lead = 0;
  const Window output_window = windowFor(output.offset, output.offset + output.bytes, device, &output_lead);
  uint64_t indices_lead = 0;
  const Window indices_window =
      windowFor(indices.offset, indices.offset + std::max<uint64_t>(indices.bytes, 4), device, &indices_lead);
  // The word path (gather_block_quantized.comp): an invocation per data word of codes, which then share
  // a row, a scale and a zero point.
  const uint64_t codes_per_word = 32 / shape.code_bits;
  const bool word_path = cut_rows && shape.quantize_inner == 1 && shape.quantize_axis != shape.gather_axis &&
                         shape.quantize_dim % codes_per_word == 0 && shape.row_codes % codes_per_word == 0;
  // Its segments: up to the device's row_items data words of a row per invocation (Tuning::row_items:
  // long runs on CPU drivers), but short enough that four workgroups' invocations all have one; a
  // power of two, so that few pipelines serve all sizes. A small call, which that would leave at one
  // word per invocation (a decode step's row or few), is spread over fewer invocations instead:
  // - on a CPU driver, one group of one subgroup per worker thread (DeviceInfo::cpu_threads): it runs
  //   a group's subgroups one SIMD batch after another on one thread, each paying for its index and
  //   its blocks, and its groups on all its threads at once (docs/tuning.md, row_items);
  // - on a GPU, four subgroups' invocations in one group fitted to them (plan::fitOneGroup), whose
  //   segments stay at most row_items (4) words.
  const uint64_t words = word_path ? shape.index_count * (shape.row_codes / codes_per_word) : 0;
  const uint64_t groups_spread = uint64_t(4) * workgroup;
  const uint32_t subgroup = std::min(device.subgroup_size, workgroup);  // 0: unknown
  const bool small_call = words / groups_spread < 2 && subgroup != 0;
  const bool thread_groups = word_path && small_call && device.cpu_threads != 0;
  const uint64_t spread = !small_call ? groups_spread : uint64_t(thread_groups ? device.cpu_threads : 4) * subgroup;
  const uint64_t wanted_segment = std::clamp<uint64_t>(words / spread, 1, std::max<uint32_t>(tuning.row_items, 1));
  uint64_t segment_words = 1;
  while (segment_words * 2 <= wanted_segment) segment_words *= 2;
  const uint64_t segments_per_row = (shape.row_codes / codes_per_word + segment_words - 1) / segment_words;
  const uint64_t items = word_path
                             ? shape.index_count * segments_per_row
                             : (output_words + VKINDEX_GBQ_WORDS_PER_INVOCATION - 1) / VKINDEX_GBQ_WORDS_PER_INVOCATION;
  const FastDivisor row_divisor = fastDivisor(static_cast<uint32_t>(word_path ? segments_per_row : shape.row_codes));
  const FastDivisor index_divisor = fastDivisor(static_cast<uint32_t>(std::max<uint64_t>(shape.index_count, 1)));
  const uint64_t span = std::max<uint64_t>(shape.quantize_dim * shape.quantize_inner, 1);
  const FastDivisor span_divisor = fastDivisor(static_cast<uint32_t>(std::min<uint64_t>(span, kMax32)));
  const FastDivisor inner_divisor = fastDivisor(static_cast<uint32_t>(std::max<uint64_t>(shape.quantize_inner, 1)));

  for (uint64_t pass = 0; pass < passes; ++pass) {
    const uint64_t row_first = pass * rows;
    const uint64_t row_end = std::min(row_first + rows, std::max<uint64_t>(shape.axis_dim, 1));
    // The scales (and zero points) this pass reads, as items from the tensors' starts: the scales
    // steps x of its rows, or its blocks when the gather axis is quantize_axis.
    uint64_t scale_first = 0;
    uint64_t scale_end = scales.bytes * 8 / scale_bits;
    uint64_t zero_point_first = 0;
    uint64_t zero_point_end = zero_points ? zero_points->bytes * 8 / zero_point_bits : 0;
    if (cut_rows && passes > 1 && !shape.scales_shared_outer) {
      if (x_per_row != 0) {
        scale_first = row_first * x_per_row * scale_outer_stride;
        scale_end = row_end * x_per_row * scale_outer_stride;
        zero_point_first = row_first * x_per_row * zero_point_codes_per_x;
        zero_point_end = row_end * x_per_row * zero_point_codes_per_x;
      } else if (shape.quantize_axis == shape.gather_axis) {
        scale_first = row_first / shape.block_size * scale_inner;
        scale_end = (row_end + shape.block_size - 1) / shape.block_size * scale_inner;
        zero_point_first = scale_first;
        zero_point_end = scale_end;
      }
    }
    const BoundRange data_range = bindItems(Role::kData, data, row_first * shape.row_codes,
                                            row_end * shape.row_codes * shape.outer, shape.code_bits, device);
    const BoundRange scale_range = bindItems(Role::kScales, scales, scale_first, scale_end, scale_bits, device);
    BoundRange zero_point_range{{Role::kStatus, {}}, 0};
    if (zero_points) {
      zero_point_range =
          bindItems(Role::kZeroPoints, *zero_points, zero_point_first, zero_point_end, zero_point_bits, device);
    }

    // Scales and zero points that are not cut with the rows are bound whole: they must fit.
    const std::tuple<const char*, const BoundRange*, uint64_t> bound[] = {
        {"data", &data_range, data.bytes},
        {"scales", &scale_range, scales.bytes},
        {"zero_points", &zero_point_range, zero_points ? zero_points->bytes : 0}};
    for (const auto& [input, range, bytes] : bound) {
      if (range->binding.role != Role::kStatus && range->binding.window.size > device.max_storage_buffer_range) {
        return unsupported(std::string(kGatherBlockQuantizedOp) + ": input '" + input + "' (" + str(int64_t(bytes)) +
                           " bytes) does not fit one storage binding of this device (" +
                           str(int64_t(windowCapacity(device))) + " bytes) where the pass reads it");
      }
    }

    abi::GatherBlockQuantizedParams params{};
    params.flags = (zero_points ? VKINDEX_GBQ_ZERO_POINTS : 0u) | (pass == 0 ? VKINDEX_GBQ_WRITES_ZEROS : 0u) |
                   (shape.scales_shared_outer ? VKINDEX_GBQ_SHARED_OUTER : 0u) |
                   (shape.scales_shared_inner ? VKINDEX_GBQ_SHARED_INNER : 0u) | (gated ? VKINDEX_GBQ_STATUS_GATE : 0u);
    params.output_elements = static_cast<uint32_t>(output_elements);
    params.row_codes = static_cast<uint32_t>(shape.row_codes);
    params.row_multiplier = row_divisor.multiplier;
    params.row_shift = row_divisor.shift;
    params.index_count = index_divisor.divisor;
    params.index_multiplier = index_divisor.multiplier;
    params.index_shift = index_divisor.shift;
    params.axis_dim = static_cast<uint32_t>(shape.axis_dim);
    params.row_first = static_cast<uint32_t>(row_first);
    params.row_end = static_cast<uint32_t>(row_end);
    params.quantize_span = span_divisor.divisor;
    params.span_multiplier = span_divisor.multiplier;
    params.span_shift = span_divisor.shift;
    params.quantize_inner = inner_divisor.divisor;
    params.inner_multiplier = inner_divisor.multiplier;
    params.inner_shift = inner_divisor.shift;
    params.block_shift = std::min<uint32_t>(log2Of(shape.block_size), 31);
    params.scale_outer_stride = static_cast<uint32_t>(scale_outer_stride);
    params.scale_inner = static_cast<uint32_t>(scale_inner);
    params.zero_point_row_bytes = static_cast<uint32_t>(shape.zero_point_row_bytes);
    params.default_zero_point = shape.data_type == DataType::kUInt8 ? 1u << (shape.code_bits - 1) : 0u;
    params.indices_word_offset = static_cast<uint32_t>(indices_lead / 4);
    params.data_code_lead = static_cast<uint32_t>(data_range.lead_items);
    params.scale_lead = static_cast<uint32_t>(scale_range.lead_items);
    params.zero_point_lead = static_cast<uint32_t>(zero_point_range.lead_items);
    params.out_word_offset = static_cast<uint32_t>(output_lead / 4);
    // The word path's vector stores (its native-multiply module has them): a data word's output words (2
    // for 8-bit codes into float16, else 4 or more) as 8- or 16-byte vectors, where the output's first
    // word lies on such a boundary (rows and data words then do too: a row's output words are a
    // multiple of a data word's).
    const uint64_t out_words_per_data_word = codes_per_word / (shape.scale_type == DataType::kFloat32 ? 1 : 2);
    if (word_path && tuning.native_float32_add &&
        params.out_word_offset % std::min<uint64_t>(out_words_per_data_word, 4) == 0) {
      params.flags |= VKINDEX_GBQ_VECTOR_STORES;
    }
    // And its quads of data words: a 16-byte load of codes for 16-byte stores, where everything the
    // quads step over is whole quads (the quantized axis, hence rows and blocks' ends; blocks; segments;
    // the data binding's lead) and the output starts on 16 bytes.
    const uint64_t quad_codes = 4 * codes_per_word;
    if (word_path && tuning.native_float32_add && params.out_word_offset % 4 == 0 && segment_words % 4 == 0 &&
        shape.quantize_dim % quad_codes == 0 && shape.block_size % quad_codes == 0 &&
        data_range.lead_items % quad_codes == 0) {
      params.flags |= VKINDEX_GBQ_QUAD_WORDS;
    }
    params.output_words = static_cast<uint32_t>(output_words);

    Step step;
    // The device's multiply where it rounds to nearest even on request (the native float32 add's
    // condition, Tuning::native_float32_add); elsewhere for float16 and bfloat16 scales, whose
    // products with integer codes are exact (the half_scales module).
    const bool half_scales = shape.scale_type != DataType::kFloat32;
    step.kernel = !word_path                  ? Kernel::kGatherBlockQuantized
                  : tuning.native_float32_add ? (tuning.int64_units ? Kernel::kGatherBlockQuantizedWordsNativeInt64
                                                                    : Kernel::kGatherBlockQuantizedWordsNative)
                  : half_scales               ? Kernel::kGatherBlockQuantizedWordsHalfScales
                                              : Kernel::kGatherBlockQuantizedWords;
    step.spec[kSpecWorkgroupSize] = workgroup;
    step.spec[kSpecIndexWords] = shape.index_type == DataType::kInt64 ? 2 : 1;
    step.spec[kSpecCodeKind] = codeKind(shape.data_type);
    step.spec[kSpecCodeBits] = shape.code_bits;
    step.spec[kSpecScaleKind] = scaleKind(shape.scale_type);
    if (word_path) step.spec[kSpecSegmentWords] = static_cast<uint32_t>(segment_words);
    step.bindings = {{Role::kStatus, {}},
                     indices.bytes > 0 ? Binding{Role::kIndices, indices_window} : Binding{Role::kStatus, {}},
                     data_range.binding,
                     scale_range.binding,
                     zero_point_range.binding,
                     {Role::kOutput, output_window}};
    setPush(step, params);
    if (thread_groups) {
      step.spec[kSpecWorkgroupSize] = subgroup;
      step.groups = std::max<uint64_t>(groupsForItems(items, subgroup), 1);
    } else {
      step.groups = std::max<uint64_t>(groupsForItems(items, workgroup), 1);
      fitOneGroup(step, items, 1, device);
    }
    if (gated) waitForChecks(step);
    plan.steps.push_back(std::move(step));
  }
  // A few indices under the error policy: check, report and the one pass become the pass's
  // self-checking module (fuseSmallChecks; it declines whatever else, several passes included).
  if (gated) {
    const IndexCheck check{shape.index_type, shape.index_count, {shape.axis_dim}, IndexPolicy::kError};
    fuseSmallChecks(plan, check, selfCheckingKernel(plan.steps.back().kernel));
  }
  return plan;
}

}  // namespace vkindex::plan
