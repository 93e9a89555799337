#include "plan_problem.hpp"

#include <cstdint>
#include <iterator>
#include <limits>

namespace vkindex::fuzz {
namespace {

constexpr uint64_t kMaxTensorEnd = uint64_t(1) << 48;

}  // namespace

// Mostly ranks 0-4; sometimes up to 14, past the 12 components a tuple may have and the 8 coalesced
// dims an element kernel takes, so the planners' own limits get checked too.
size_t decodeRank(FuzzedDataProvider& input) {
  if (input.ConsumeIntegralInRange<int>(0, 7) == 0) return input.ConsumeIntegralInRange<size_t>(5, 14);
  return input.ConsumeIntegralInRange<size_t>(0, 4);
}
namespace {

// One dim: mostly small, sometimes equal to `like` (a dim of another tensor, so shapes agree), rarely
// zero, large or negative.
int64_t decodeDim(FuzzedDataProvider& input, std::optional<int64_t> like) {
  switch (input.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: return 0;
    case 1: return input.ConsumeIntegralInRange<int64_t>(9, 100000);
    case 2: return input.ConsumeIntegralInRange<int64_t>(int64_t(1) << 20, int64_t(1) << 40);
    case 3: return input.ConsumeIntegral<int64_t>();
    case 4:
    case 5:
    case 6:
    case 7:
      if (like) return *like;
      [[fallthrough]];
    default: return input.ConsumeIntegralInRange<int64_t>(1, 8);
  }
}

}  // namespace

// A shape of the given rank whose dims often copy `like`'s.
plan::Shape decodeShape(FuzzedDataProvider& input, size_t rank, const plan::Shape& like) {
  plan::Shape shape(rank);
  for (size_t i = 0; i < rank; ++i) {
    shape[i] = decodeDim(input, i < like.size() ? std::optional<int64_t>(like[i]) : std::nullopt);
  }
  return shape;
}

DataType decodeType(FuzzedDataProvider& input) {
  return kClassicDataTypes[input.ConsumeIntegralInRange<size_t>(0, std::size(kClassicDataTypes) - 1)];
}

// Index types are int32 or int64 except, rarely, another type (which must be rejected).
DataType decodeIndexType(FuzzedDataProvider& input) {
  const uint8_t choice = input.ConsumeIntegral<uint8_t>();
  if (choice < 8) return decodeType(input);
  return choice % 2 ? DataType::kInt32 : DataType::kInt64;
}

// Offsets are multiples of 4 (the Tensor layer guarantees it), mostly within a few windows.
uint64_t decodeOffset(FuzzedDataProvider& input) {
  if (input.ConsumeIntegralInRange<int>(0, 15) == 0) return input.ConsumeIntegralInRange<uint64_t>(0, 1ull << 34) * 4;
  return input.ConsumeIntegralInRange<uint64_t>(0, 1024) * 4;
}

// Limits as a device, or ContextOptions (max_binding_bytes, workgroup_size up to 256,
// items_per_invocation up to 64, min_walk_lines), can set them.
FakeDevice decodeDevice(FuzzedDataProvider& input) {
  FakeDevice device;
  switch (input.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: device.max_storage_buffer_range = input.ConsumeIntegralInRange<uint64_t>(1, 256); break;
    case 1: device.max_storage_buffer_range = input.ConsumeIntegralInRange<uint64_t>(257, 1 << 16); break;
    case 2: device.max_storage_buffer_range = uint64_t(1) << 27; break;  // the Vulkan minimum
    default: device.max_storage_buffer_range = input.ConsumeIntegralInRange<uint64_t>(1, 0xFFFFFFFFu); break;
  }
  // Vulkan: a power of two, at most 256.
  device.min_storage_buffer_offset_alignment = uint64_t(1) << input.ConsumeIntegralInRange<int>(0, 8);
  device.workgroup_size = input.ConsumeIntegralInRange<uint32_t>(1, 256);
  device.items_per_invocation = input.ConsumeIntegralInRange<uint32_t>(1, 64);
  // Row segments: any lane count (the planner keeps a power of two dividing the workgroup), and items
  // from 0 (treated as 1) to the CPU drivers' 256.
  device.row_lanes = input.ConsumeIntegralInRange<uint32_t>(0, 256);
  device.row_items = input.ConsumeIntegralInRange<uint32_t>(0, 256);
  device.max_workgroup_count = {65535, 65535, 65535};
  device.max_workgroup_invocations = 256;
  device.max_workgroup_size_x = 256;
  // Unknown (0: no group is fitted to its work), or a power of two up to 128 (plan::fitOneGroup).
  const int subgroup_log2 = input.ConsumeIntegralInRange<int>(-1, 7);
  device.subgroup_size = subgroup_log2 < 0 ? 0 : 1u << subgroup_log2;
  device.shader_int64 = input.ConsumeBool();
  device.int64_units = device.shader_int64;         // the 64-bit-component row gathers need the feature
  device.native_float32_add = input.ConsumeBool();  // float32 add's native-add modules
  // ScatterElements none: always walked, or through the winner table wherever it fits.
  device.min_walk_lines = input.ConsumeBool() ? 0 : UINT64_MAX;
  // ... but a vector of more updates than this through the table.
  device.max_single_line_walk_updates =
      input.ConsumeBool() ? UINT64_MAX : input.ConsumeIntegralInRange<uint64_t>(0, 64);
  device.min_atomic_walk_lines = input.ConsumeBool() ? 0 : UINT64_MAX;  // integer reductions by atomics
  // float32 adds on one line folded from this many updates per element, or never.
  device.min_float32_add_fold_duplicates = input.ConsumeIntegralInRange<uint64_t>(0, 8);
  device.claim_by_store = input.ConsumeBool();  // the winner table claimed by atomicMax, or store and fixup
  // A GPU, or a CPU driver with up to SwiftShader's 16 worker threads (DeviceInfo::cpu_threads).
  device.cpu_threads = input.ConsumeBool() ? 0 : input.ConsumeIntegralInRange<uint32_t>(1, 16);
  return device;
}

namespace {

// ScatterND's updates shape: indices.shape[:-1] + data.shape[k:], when k is a valid tuple length.
plan::Shape scatterNDUpdates(const plan::Shape& data, const plan::Shape& indices) {
  if (indices.empty()) return {};
  plan::Shape updates(indices.begin(), indices.end() - 1);
  const int64_t k = indices.back();
  if (k >= 0 && uint64_t(k) <= data.size()) updates.insert(updates.end(), data.begin() + k, data.end());
  return updates;
}

const char* opName(PlannedOp op) {
  switch (op) {
    case PlannedOp::kGather: return "Gather";
    case PlannedOp::kGatherElements: return "GatherElements";
    case PlannedOp::kGatherND: return "GatherND";
    case PlannedOp::kScatterElements: return "ScatterElements";
    case PlannedOp::kScatterND: return "ScatterND";
  }
  return "?";
}

}  // namespace

PlanProblem decodeProblem(FuzzedDataProvider& input) {
  PlanProblem p;
  p.op = static_cast<PlannedOp>(input.ConsumeIntegralInRange<int>(0, 4));
  p.device = decodeDevice(input);
  p.data_type = decodeType(input);
  p.index_type = decodeIndexType(input);
  p.updates_type = input.ConsumeIntegralInRange<int>(0, 7) == 0 ? decodeType(input) : p.data_type;
  p.data_shape = decodeShape(input, decodeRank(input), {});
  // Element ops want indices of data's rank; ND ops a short last dim (the tuple length).
  size_t indices_rank = decodeRank(input);
  const bool elements = p.op == PlannedOp::kGatherElements || p.op == PlannedOp::kScatterElements;
  if (elements && input.ConsumeIntegralInRange<int>(0, 3) != 0) indices_rank = p.data_shape.size();
  p.indices_shape = decodeShape(input, indices_rank, p.data_shape);
  const bool nd = p.op == PlannedOp::kGatherND || p.op == PlannedOp::kScatterND;
  if (nd && !p.indices_shape.empty() && input.ConsumeBool()) {
    p.indices_shape.back() = input.ConsumeIntegralInRange<int64_t>(0, int64_t(p.data_shape.size()));
  }
  switch (input.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: p.updates_shape = decodeShape(input, decodeRank(input), p.indices_shape); break;
    default:
      p.updates_shape =
          p.op == PlannedOp::kScatterND ? scatterNDUpdates(p.data_shape, p.indices_shape) : p.indices_shape;
  }
  p.attribute = input.ConsumeIntegralInRange<int>(0, 15) == 0 ? input.ConsumeIntegral<int64_t>()
                                                              : input.ConsumeIntegralInRange<int64_t>(-9, 9);
  p.reduction = static_cast<Reduction>(input.ConsumeIntegralInRange<int>(0, 4));
  p.in_place = input.ConsumeBool();
  p.data_offset = decodeOffset(input);
  p.indices_offset = decodeOffset(input);
  p.updates_offset = decodeOffset(input);
  p.output_offset = p.in_place ? p.data_offset : decodeOffset(input);
  for (int planted = input.ConsumeIntegralInRange<int>(0, 2); planted > 0; --planted) {
    const uint64_t position = input.ConsumeIntegral<uint32_t>();
    // An int32 index buffer holds only int32 values.
    const int64_t value =
        p.index_type == DataType::kInt32 ? input.ConsumeIntegral<int32_t>() : input.ConsumeIntegral<int64_t>();
    p.bad.emplace_back(position, value);
  }
  p.seed = input.ConsumeIntegral<uint32_t>();
  return p;
}

std::string describe(const PlanProblem& p) {
  std::string text = std::string(opName(p.op)) + " data " + plan::shapeString(p.data_shape) + " " +
                     dataTypeName(p.data_type) + " @" + std::to_string(p.data_offset) + ", indices " +
                     plan::shapeString(p.indices_shape) + " " + dataTypeName(p.index_type) + " @" +
                     std::to_string(p.indices_offset) + ", updates " + plan::shapeString(p.updates_shape) + " " +
                     dataTypeName(p.updates_type) + " @" + std::to_string(p.updates_offset) + ", output @" +
                     std::to_string(p.output_offset) + ", attribute " + std::to_string(p.attribute) + ", reduction " +
                     reductionName(p.reduction) + (p.in_place ? " in place" : "") + "; device range " +
                     std::to_string(p.device.max_storage_buffer_range) + ", alignment " +
                     std::to_string(p.device.min_storage_buffer_offset_alignment) + ", workgroup " +
                     std::to_string(p.device.workgroup_size) + " x " + std::to_string(p.device.items_per_invocation) +
                     ", subgroup " + std::to_string(p.device.subgroup_size) + ", row segments " +
                     std::to_string(p.device.row_lanes) + " x " + std::to_string(p.device.row_items);
  for (const auto& [position, value] : p.bad) {
    text += ", bad [" + std::to_string(position) + "] = " + std::to_string(value);
  }
  return text;
}

std::optional<plan::Placement> placementOf(const plan::Shape& shape, DataType type, uint64_t offset) {
  const std::optional<uint64_t> count = plan::elementCount(shape);
  uint64_t bytes = 0;
  if (!count || __builtin_mul_overflow(*count, uint64_t(elementSize(type)), &bytes)) return std::nullopt;
  if (bytes >= kMaxTensorEnd || offset + bytes >= kMaxTensorEnd) return std::nullopt;
  return plan::Placement{offset, bytes};
}

}  // namespace vkindex::fuzz
