// Fuzzes GatherBlockQuantized's validation and planner (src/plan/gather_block_quantized_*.cpp) with
// random types, shapes, attributes, placements and device limits (plan_problem.hpp's decoders). Every
// outcome must be a refusal with a message (kInvalidArgument or kUnsupported), or a plan whose every
// dequantizing pass stays inside what it binds: each window valid for its tensor and the device, the
// pass's highest data code, scale, zero point, index and output word inside its window, the passes'
// rows tiling the gather axis with the zero slices written by the first alone. A broken property
// aborts with the problem described, so libFuzzer saves the input.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "common/gather_block_quantized_params.h"
#include "fuzz_check.hpp"
#include "plan/gather_block_quantized_plan.hpp"
#include "plan/index_checks.hpp"
#include "plan_problem.hpp"

namespace vkindex::fuzz {
namespace {

using plan::Placement;
using plan::TensorInput;

constexpr DataType kCodeTypes[] = {DataType::kInt4,           DataType::kUInt4,          DataType::kUInt8,
                                   DataType::kFloat8E4M3FN,   DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
                                   DataType::kFloat8E5M2FNUZ, DataType::kFloat4E2M1,     DataType::kFloat32};
constexpr DataType kScaleTypes[] = {DataType::kFloat32, DataType::kFloat16, DataType::kBFloat16, DataType::kInt8};

struct Problem {
  TensorInput data, indices, scales;
  std::optional<TensorInput> zero_points;
  GatherBlockQuantizedOptions options;
  uint64_t data_offset = 0, indices_offset = 0, scales_offset = 0, zero_points_offset = 0, output_offset = 0;
  FakeDevice device;
};

// Mostly a consistent call (scales and zero points shaped from data), sometimes anything.
Problem decode(FuzzedDataProvider& input) {
  Problem p;
  p.device = decodeDevice(input);
  p.data.type = kCodeTypes[input.ConsumeIntegralInRange<size_t>(0, std::size(kCodeTypes) - 1)];
  p.data.shape = decodeShape(input, decodeRank(input), {});
  p.indices.type = decodeIndexType(input);
  p.indices.shape = decodeShape(input, decodeRank(input), {});
  p.options.gather_axis = input.ConsumeIntegralInRange<int64_t>(-4, 4);
  p.options.quantize_axis = input.ConsumeIntegralInRange<int64_t>(-4, 4);
  const int block_choice = input.ConsumeIntegralInRange<int>(0, 9);
  p.options.block_size = block_choice == 0   ? 0
                         : block_choice == 1 ? input.ConsumeIntegral<int64_t>()
                                             : int64_t(1) << input.ConsumeIntegralInRange<int>(3, 12);
  p.options.bits = input.ConsumeBool() ? 4 : input.ConsumeIntegralInRange<int64_t>(0, 9);
  p.options.index_policy = input.ConsumeBool() ? IndexPolicy::kSkip : IndexPolicy::kError;
  p.scales.type = kScaleTypes[input.ConsumeIntegralInRange<size_t>(0, std::size(kScaleTypes) - 1)];
  // The scales' shape: data's with the block count at quantize_axis (a consistent call), or any.
  p.scales.shape = p.data.shape;
  const int64_t rank = static_cast<int64_t>(p.data.shape.size());
  if (rank > 0 && input.ConsumeIntegralInRange<int>(0, 7) != 0) {
    const int64_t q = p.options.quantize_axis < 0 ? p.options.quantize_axis + rank : p.options.quantize_axis;
    if (q >= 0 && q < rank && p.data.shape[q] >= 0 && p.data.shape[q] < (int64_t(1) << 40)) {
      const int64_t per_byte =
          p.data.type == DataType::kUInt8 && p.options.bits > 0 && p.options.bits < 8 ? 8 / p.options.bits : 1;
      const int64_t codes = q == rank - 1 ? p.data.shape[q] * per_byte : p.data.shape[q];
      const int64_t block = p.options.block_size > 0 ? p.options.block_size : std::max<int64_t>(codes, 1);
      p.scales.shape[q] = codes / block + (codes % block != 0 ? 1 : 0);
    }
  } else {
    p.scales.shape = decodeShape(input, decodeRank(input), p.data.shape);
  }
  if (input.ConsumeBool()) {
    TensorInput zero_points{p.data.type, p.scales.shape};
    if (p.data.type == DataType::kUInt8 && !zero_points.shape.empty() && p.options.bits > 0 && p.options.bits < 8 &&
        zero_points.shape.back() < (int64_t(1) << 40)) {
      const int64_t per_byte = 8 / p.options.bits;
      zero_points.shape.back() = (zero_points.shape.back() + per_byte - 1) / per_byte;
    }
    if (input.ConsumeIntegralInRange<int>(0, 7) == 0) zero_points.shape = decodeShape(input, decodeRank(input), {});
    p.zero_points = zero_points;
  }
  p.data_offset = decodeOffset(input);
  p.indices_offset = decodeOffset(input);
  p.scales_offset = decodeOffset(input);
  p.zero_points_offset = decodeOffset(input);
  p.output_offset = decodeOffset(input);
  return p;
}

std::string describe(const Problem& p) {
  std::string text = "GatherBlockQuantized data " + plan::shapeString(p.data.shape) + " " + dataTypeName(p.data.type) +
                     ", indices " + plan::shapeString(p.indices.shape) + " " + dataTypeName(p.indices.type) +
                     ", scales " + plan::shapeString(p.scales.shape) + " " + dataTypeName(p.scales.type);
  if (p.zero_points) text += ", zero points " + plan::shapeString(p.zero_points->shape);
  text += ", gather_axis " + std::to_string(p.options.gather_axis) + ", quantize_axis " +
          std::to_string(p.options.quantize_axis) + ", block_size " + std::to_string(p.options.block_size) + ", bits " +
          std::to_string(p.options.bits) + "; device range " + std::to_string(p.device.max_storage_buffer_range) +
          ", alignment " + std::to_string(p.device.min_storage_buffer_offset_alignment) + ", workgroup " +
          std::to_string(p.device.workgroup_size) + ", subgroup " + std::to_string(p.device.subgroup_size) +
          ", row items " + std::to_string(p.device.row_items);
  return text;
}

// fuzz_check.hpp's check, naming the problem.
void expect(const Problem& p, bool holds, const std::string& what) {
  if (!holds) fail(describe(p) + "\n" + what);
}

void expectRefusal(const Problem& p, const Status& status, const std::string& where) {
  expect(p, status.code() == StatusCode::kInvalidArgument || status.code() == StatusCode::kUnsupported,
         where + " refused with " + status.toString());
  expect(p, !status.message().empty(), where + " refused without a message");
}

std::optional<Placement> placementOf(DataType type, const plan::Shape& shape, uint64_t offset) {
  const std::optional<uint64_t> count = plan::elementCount(shape);
  if (!count || *count > (uint64_t(1) << 44)) return std::nullopt;
  return Placement{offset, packedByteSize(type, *count)};
}

// A window of `tensor` the device can bind: aligned start at or below the tensor, whole words, within
// the binding range and the tensor's bytes rounded up to a word.
void checkWindow(const Problem& p, const plan::Binding& binding, const Placement& tensor, const std::string& what) {
  const FakeDevice& device = p.device;
  const plan::Window& w = binding.window;
  const uint64_t alignment = plan::bindingAlignment(device);
  expect(p, w.offset % alignment == 0 && w.size % 4 == 0 && w.size > 0 && w.size <= device.max_storage_buffer_range,
         what + " window is not bindable");
  expect(p,
         w.offset >= tensor.offset / alignment * alignment &&
             w.offset + w.size <= plan::alignUp(tensor.offset + tensor.bytes, 4),
         what + " window leaves its tensor");
}

// The items (of `bits` each) a window holds.
uint64_t itemsOf(const plan::Binding& binding, uint32_t bits) { return binding.window.size * 8 / bits; }

void checkPass(const plan::Step& step, const plan::GatherBlockQuantizedShape& shape, const Problem& p,
               const Placement& data, const Placement& indices, const Placement& scales,
               const std::optional<Placement>& zero_points, const Placement& output) {
  expect(p, step.bindings.size() == 6, "a pass binds six buffers");
  const auto params = plan::pushOf<abi::GatherBlockQuantizedParams>(step);
  expect(p, step.groups >= 1, "a pass with no workgroup");
  // The device's workgroup, a single group's fitted to its work (plan::fitOneGroup), or on a CPU driver
  // groups of one subgroup (a small call on the word path, spread over its threads).
  const uint32_t workgroup = step.spec[plan::kSpecWorkgroupSize];
  const bool subgroup_groups = p.device.cpu_threads != 0 && p.device.subgroup_size != 0 &&
                               workgroup == std::min(p.device.subgroup_size, p.device.workgroup_size) &&
                               step.kernel != plan::Kernel::kGatherBlockQuantized &&
                               step.kernel != plan::Kernel::kGatherBlockQuantizedChecked;
  expect(p,
         workgroup == p.device.workgroup_size ||
             (step.groups == 1 && workgroup >= 1 && workgroup < p.device.workgroup_size) || subgroup_groups,
         "a workgroup other than the device's, in a pass of several groups");
  expect(p, params.row_first < params.row_end || shape.axis_dim == 0, "a pass with no rows");
  const plan::Binding& data_binding = step.bindings[2];
  const plan::Binding& scale_binding = step.bindings[3];
  const plan::Binding& zero_point_binding = step.bindings[4];
  const plan::Binding& output_binding = step.bindings[5];
  checkWindow(p, output_binding, output, "output");
  expect(p, params.out_word_offset + uint64_t(params.output_words) <= output_binding.window.size / 4,
         "the output words leave the output window");
  if (step.bindings[1].role == plan::Role::kIndices) {
    checkWindow(p, step.bindings[1], indices, "indices");
    const uint64_t words = shape.index_count * (shape.index_type == DataType::kInt64 ? 2 : 1);
    expect(p, params.indices_word_offset + words <= step.bindings[1].window.size / 4, "indices leave their window");
  }
  // The highest code position the pass reads: its rows' codes (all outer slices when it binds all rows);
  // none when the gather axis is empty (every index gives a zero slice).
  const uint64_t rows = shape.axis_dim == 0 ? 0 : params.row_end - params.row_first;
  const uint64_t codes = rows * shape.row_codes * (shape.outer == 1 ? 1 : shape.outer);
  if (data.bytes > 0 && codes > 0) {
    checkWindow(p, data_binding, data, "data");
    expect(p, params.data_code_lead + codes <= itemsOf(data_binding, shape.code_bits), "codes leave the data window");
  }
  // Quads of data words: only in the native modules, and only where everything they step over is whole
  // quads, so that each 16-byte load and store lies inside the windows and one block.
  if ((params.flags & VKINDEX_GBQ_QUAD_WORDS) != 0) {
    const uint64_t quad_codes = 4 * 32 / shape.code_bits;
    expect(p,
           step.kernel == plan::Kernel::kGatherBlockQuantizedWordsNative ||
               step.kernel == plan::Kernel::kGatherBlockQuantizedWordsNativeInt64 ||
               step.kernel == plan::Kernel::kGatherBlockQuantizedWordsNativeChecked,
           "quads in a module without them");
    expect(p, params.out_word_offset % 4 == 0 && params.data_code_lead % quad_codes == 0, "quads off 16 bytes");
    expect(p,
           step.spec[plan::kSpecSegmentWords] % 4 == 0 && shape.quantize_dim % quad_codes == 0 &&
               shape.block_size % quad_codes == 0 && (params.data_code_lead + codes) % quad_codes == 0,
           "quads over segments, rows or blocks that are not whole quads");
  }
  if (codes == 0) return;
  // The highest scale index: the last code's x, the last block, the last inner position.
  const uint64_t span = std::max<uint64_t>(shape.quantize_dim * shape.quantize_inner, 1);
  const uint64_t code_x = (codes - 1) / span;
  const uint64_t last_x = shape.scales_shared_outer ? 0 : code_x;
  // Every y when the pass spans several x, else up to its last code's (a pass of rows along
  // quantize_axis itself counts y from its first row).
  const uint64_t last_y =
      code_x > 0 ? shape.quantize_dim - 1 : (codes - 1) / std::max<uint64_t>(shape.quantize_inner, 1);
  const uint64_t last_block = last_y >> params.block_shift;
  const uint64_t last_z = shape.scales_shared_inner ? 0 : shape.quantize_inner - 1;
  const uint64_t last_scale = last_x * params.scale_outer_stride + last_block * params.scale_inner + last_z;
  checkWindow(p, scale_binding, scales, "scales");
  expect(p,
         params.scale_lead + last_scale < itemsOf(scale_binding, static_cast<uint32_t>(elementBits(shape.scale_type))),
         "scales leave their window");
  if (zero_points && zero_points->bytes > 0) {
    const uint32_t bits = shape.data_type == DataType::kUInt8 ? shape.code_bits : 4;
    const uint64_t last = params.zero_point_row_bytes != 0
                              ? last_x * params.zero_point_row_bytes * (8 / shape.code_bits) + last_block
                              : last_scale;
    checkWindow(p, zero_point_binding, *zero_points, "zero points");
    expect(p, params.zero_point_lead + last < itemsOf(zero_point_binding, bits), "zero points leave their window");
  }
}

void checkPlan(const Problem& p) {
  StatusOr<plan::GatherBlockQuantizedShape> shape =
      plan::inferGatherBlockQuantizedShape(p.data, p.indices, p.scales, p.zero_points, p.options);
  if (!shape.ok()) return expectRefusal(p, shape.status(), "validation");
  const auto data = placementOf(p.data.type, p.data.shape, p.data_offset);
  const auto indices = placementOf(p.indices.type, p.indices.shape, p.indices_offset);
  const auto scales = placementOf(p.scales.type, p.scales.shape, p.scales_offset);
  const auto output = placementOf(shape->scale_type, shape->output_shape, p.output_offset);
  std::optional<Placement> zero_points;
  if (p.zero_points) zero_points = placementOf(p.zero_points->type, p.zero_points->shape, p.zero_points_offset);
  if (!data || !indices || !scales || !output || (p.zero_points && !zero_points)) return;
  // A table of many windows plans many passes; the properties are the same in fewer.
  const uint64_t capacity = plan::windowCapacity(p.device);
  if (capacity > 0 && data->bytes / capacity > 256) return;
  StatusOr<plan::OpPlan> planned =
      plan::planGatherBlockQuantized(*shape, *data, *indices, *scales, zero_points, *output, p.device, p.device);
  if (!planned.ok()) return expectRefusal(p, planned.status(), "planning");
  uint64_t next_row = 0;
  bool first_pass = true;
  for (const plan::Step& step : planned->steps) {
    if (plan::isCheckKernel(step.kernel) || step.kernel == plan::Kernel::kReportIndex) {
      expect(p, shape->policy == IndexPolicy::kError, "an index check under the skip policy");
      continue;
    }
    const bool self_checking = step.kernel == plan::Kernel::kGatherBlockQuantizedChecked ||
                               step.kernel == plan::Kernel::kGatherBlockQuantizedWordsChecked ||
                               step.kernel == plan::Kernel::kGatherBlockQuantizedWordsHalfScalesChecked ||
                               step.kernel == plan::Kernel::kGatherBlockQuantizedWordsNativeChecked;
    expect(p,
           self_checking || step.kernel == plan::Kernel::kGatherBlockQuantized ||
               step.kernel == plan::Kernel::kGatherBlockQuantizedWords ||
               step.kernel == plan::Kernel::kGatherBlockQuantizedWordsHalfScales ||
               step.kernel == plan::Kernel::kGatherBlockQuantizedWordsNative ||
               step.kernel == plan::Kernel::kGatherBlockQuantizedWordsNativeInt64,
           "a pass of another kernel");
    expect(p, step.kernel != plan::Kernel::kGatherBlockQuantizedWordsNativeInt64 || p.device.int64_units,
           "64-bit units without int64_units");
    // The half_scales modules assemble two 16-bit elements per output word (storeUnshifted).
    expect(p,
           (step.kernel != plan::Kernel::kGatherBlockQuantizedWordsHalfScales &&
            step.kernel != plan::Kernel::kGatherBlockQuantizedWordsHalfScalesChecked) ||
               shape->scale_type == DataType::kFloat16 || shape->scale_type == DataType::kBFloat16,
           "a half_scales module for scales that are not float16 or bfloat16");
    // A self-checking pass (fuseSmallChecks) is the whole plan: the error policy, few indices, its own
    // status, nothing before it.
    if (self_checking) {
      expect(p, shape->policy == IndexPolicy::kError, "a self-checking pass under the skip policy");
      expect(p, planned->steps.size() == 1 && planned->writes_own_status && step.wait_for.empty(),
             "a self-checking pass beside other steps");
      expect(p, shape->index_count <= plan::kMaxSelfCheckedComponents, "a self-checking pass over many indices");
    }
    const auto params = plan::pushOf<abi::GatherBlockQuantizedParams>(step);
    expect(p, params.row_first == next_row, "the passes' rows do not tile the gather axis");
    expect(p, ((params.flags & VKINDEX_GBQ_WRITES_ZEROS) != 0) == first_pass, "zero slices written by another pass");
    next_row = params.row_end;
    first_pass = false;
    checkPass(step, *shape, p, *data, *indices, *scales, zero_points, *output);
  }
  const uint64_t output_count = plan::elementCount(shape->output_shape).value_or(0);
  if (output_count > 0) expect(p, next_row == std::max<uint64_t>(shape->axis_dim, 1), "rows left without a pass");
}

void fuzzOne(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  const Problem problem = decode(input);
  // VKINDEX_FUZZ_VERBOSE=1 prints every problem, to see what a saved input holds.
  static const bool verbose = std::getenv("VKINDEX_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "%s\n", describe(problem).c_str());
  checkPlan(problem);
}

}  // namespace
}  // namespace vkindex::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  vkindex::fuzz::fuzzOne(data, size);
  return 0;
}
