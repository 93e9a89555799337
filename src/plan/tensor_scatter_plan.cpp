#include "plan/tensor_scatter_plan.hpp"

#include <algorithm>
#include <string>

#include "common/tensor_scatter_params.h"
#include "plan/segments.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan {
namespace {

constexpr const char* kOp = "TensorScatter";
constexpr uint64_t kWordLimit = uint64_t(1) << 32;  // the kernel counts elements and slots in 32 bits

Status checkAttributes(const Shape& past_shape, const TensorScatterOptions& options) {
  if (options.mode != TensorScatterMode::kLinear && options.mode != TensorScatterMode::kCircular) {
    return invalidArgument(std::string(kOp) + ": unknown mode " + std::to_string(static_cast<int>(options.mode)) +
                           " (allowed 'linear', 'circular')");
  }
  if (options.index_policy != IndexPolicy::kError && options.index_policy != IndexPolicy::kSkip) {
    return invalidArgument(std::string(kOp) + ": unknown index policy " +
                           std::to_string(static_cast<int>(options.index_policy)) + " (allowed kError, kSkip)");
  }
  const int64_t rank = static_cast<int64_t>(past_shape.size());
  if (rank < 2) {
    return invalidArgument(std::string(kOp) + ": input 'past_cache' must have rank >= 2 (a batch axis and a " +
                           "sequence axis), got shape " + shapeString(past_shape));
  }
  const std::string allowed = " (allowed [1, " + str(rank - 1) + "] or [" + str(1 - rank) + ", -1])";
  if (options.axis < -rank || options.axis >= rank) {
    return invalidArgument(std::string(kOp) + ": attribute 'axis' = " + str(options.axis) +
                           " is out of range for input 'past_cache' of rank " + str(rank) + allowed);
  }
  if (options.axis == 0 || options.axis == -rank) {
    return invalidArgument(std::string(kOp) + ": attribute 'axis' = " + str(options.axis) +
                           " names the batch axis 0; the sequence axis must be another" + allowed);
  }
  return Status::Ok();
}

Status checkUpdate(const Shape& past_shape, DataType past_type, const Shape& update_shape, DataType update_type,
                   size_t axis) {
  if (update_type != past_type) {
    return invalidArgument(std::string(kOp) + ": input 'update' has type " + dataTypeName(update_type) +
                           " but input 'past_cache' has type " + dataTypeName(past_type));
  }
  bool agree = update_shape.size() == past_shape.size();
  for (size_t d = 0; agree && d < past_shape.size(); ++d) agree = d == axis || update_shape[d] == past_shape[d];
  if (!agree) {
    return invalidArgument(std::string(kOp) + ": input 'update' has shape " + shapeString(update_shape) +
                           " but input 'past_cache' has shape " + shapeString(past_shape) +
                           "; they must have the same rank and agree in every dim but axis " + str(int64_t(axis)));
  }
  if (update_shape[axis] > past_shape[axis]) {
    return invalidArgument(std::string(kOp) + ": input 'update' has seq_len " + str(update_shape[axis]) +
                           " along axis " + str(int64_t(axis)) + ", more than past_cache's max_seq " +
                           str(past_shape[axis]));
  }
  return Status::Ok();
}

Status checkWriteIndices(const WriteIndicesInput& input, int64_t batch) {
  if (input.type != DataType::kInt64) {
    return invalidArgument(std::string(kOp) + ": input 'write_indices' has type " + dataTypeName(input.type) +
                           "; the allowed type is int64");
  }
  if (input.shape != Shape{batch}) {
    return invalidArgument(std::string(kOp) + ": input 'write_indices' has shape " + shapeString(input.shape) +
                           " but must be [batch] = " + shapeString({batch}) + ", one write index per batch entry");
  }
  return Status::Ok();
}

// How the kernel sees the elements: 4, 8, 16 or 32 bits wide, wider ones as several 32-bit words.
struct Units {
  uint32_t bits = 32;
  uint64_t per_element = 1;
  uint32_t perWord() const { return 32 / bits; }
};

Units unitsOf(DataType type) {
  const uint64_t bits = elementBits(type);
  if (bits <= 32) return {static_cast<uint32_t>(bits), 1};
  return {32, bits / 32};
}

// Output words one row of `length` units can touch, wherever it starts in a word.
uint64_t rowSlots(uint64_t length, uint32_t per_word, uint64_t row_count) {
  if (length == 0 || row_count == 0) return 0;
  if (length % per_word == 0) return length / per_word;  // every row starts and ends on a word boundary
  return (length + 2 * per_word - 2) / per_word;
}

// The binding of `placement`'s bytes, with its lead in words; an empty tensor binds the status slot
// instead (nothing reads it then: a binding cannot be empty).
Binding bindingOf(Role role, const Placement& placement, const DeviceInfo& device, uint32_t* word_offset) {
  *word_offset = 0;
  if (placement.bytes == 0) return {Role::kStatus, {}};
  uint64_t lead = 0;
  const Window window = windowFor(placement.offset, placement.offset + placement.bytes, device, &lead);
  *word_offset = static_cast<uint32_t>(lead / 4);
  return {role, window};
}

Status checkFits(const char* input, uint64_t bytes, uint64_t units, const DeviceInfo& device) {
  if (bytes > windowCapacity(device)) {
    return unsupported(std::string(kOp) + ": input '" + input + "' has " + str(int64_t(bytes)) +
                       " bytes, more than one storage binding of this device holds (" +
                       str(int64_t(windowCapacity(device))) + " bytes); TensorScatter binds each tensor whole");
  }
  if (units >= kWordLimit) {
    return unsupported(std::string(kOp) + ": input '" + input + "' has 2^32 or more 32-bit units, more than the " +
                       "kernel counts");
  }
  return Status::Ok();
}

}  // namespace

StatusOr<TensorScatterShape> inferTensorScatterShape(const Shape& past_shape, DataType past_type,
                                                     const Shape& update_shape, DataType update_type,
                                                     const std::optional<WriteIndicesInput>& write_indices,
                                                     const TensorScatterOptions& options) {
  VKINDEX_RETURN_IF_ERROR(checkAttributes(past_shape, options));
  const int64_t rank = static_cast<int64_t>(past_shape.size());
  const size_t axis = static_cast<size_t>(options.axis < 0 ? options.axis + rank : options.axis);
  VKINDEX_RETURN_IF_ERROR(checkUpdate(past_shape, past_type, update_shape, update_type, axis));
  if (write_indices) VKINDEX_RETURN_IF_ERROR(checkWriteIndices(*write_indices, past_shape[0]));
  const std::optional<uint64_t> count = elementCount(past_shape);
  if (!count || *count > uint64_t(INT64_MAX) / 16) {
    return invalidArgument(std::string(kOp) + ": input 'past_cache' has shape " + shapeString(past_shape) +
                           ", too large to count its elements");
  }
  TensorScatterShape shape;
  shape.type = past_type;
  shape.cache_shape = past_shape;
  shape.axis = static_cast<int64_t>(axis);
  shape.batch = static_cast<uint64_t>(past_shape[0]);
  shape.rows_per_batch = *productOf(past_shape, 1, axis);
  shape.seq_len = static_cast<uint64_t>(update_shape[axis]);
  shape.max_seq = static_cast<uint64_t>(past_shape[axis]);
  shape.row_elements = *productOf(past_shape, axis + 1, past_shape.size());
  shape.has_indices = write_indices.has_value();
  shape.options = options;
  shape.options.axis = shape.axis;
  return shape;
}

StatusOr<OpPlan> planTensorScatter(const TensorScatterShape& shape, const Placement& past,
                                   const std::optional<Placement>& indices, const Placement& update,
                                   const Placement& output, bool in_place, const DeviceInfo& device,
                                   const Tuning& tuning) {
  const Units units = unitsOf(shape.type);
  const uint64_t cache_elements = *elementCount(shape.cache_shape);
  const uint64_t row_count = shape.batch * shape.rows_per_batch * shape.seq_len;
  const uint64_t row_units = shape.row_elements * units.per_element;
  const uint64_t row_slots = rowSlots(row_units, units.perWord(), row_count);
  VKINDEX_RETURN_IF_ERROR(checkFits("past_cache", output.bytes, cache_elements * units.per_element, device));
  VKINDEX_RETURN_IF_ERROR(checkFits("update", update.bytes, row_count * row_units, device));
  if (row_slots != 0 && row_count > (kWordLimit - 1) / row_slots) {
    return unsupported(std::string(kOp) + ": the update's " + str(int64_t(row_count)) + " rows of " +
                       str(int64_t(row_units)) + " units need 2^32 or more invocations");
  }

  OpPlan plan;
  plan.report.op = kOp;
  plan.report.input = "write_indices";
  plan.report.indices_shape = {static_cast<int64_t>(shape.batch)};
  plan.report.write_rule =
      WriteIndexRule{shape.axis, shape.seq_len, shape.max_seq, shape.options.mode == TensorScatterMode::kCircular};

  const bool checks = shape.has_indices && shape.options.index_policy == IndexPolicy::kError && shape.batch > 0;
  const uint32_t gate = !checks                                                 ? VKINDEX_TS_GATE_NONE
                        : shape.batch <= tuning.most_self_checked_write_indices ? VKINDEX_TS_GATE_SELF_CHECK
                                                                                : VKINDEX_TS_GATE_STATUS;
  abi::TensorScatterParams params{};
  params.gate = gate;
  params.flags = (shape.options.mode == TensorScatterMode::kCircular ? VKINDEX_TS_CIRCULAR : 0u) |
                 (shape.options.index_policy == IndexPolicy::kSkip ? VKINDEX_TS_SKIP : 0u) |
                 (shape.has_indices ? VKINDEX_TS_HAS_INDICES : 0u);
  params.batch = static_cast<uint32_t>(shape.batch);
  params.rows_per_batch = static_cast<uint32_t>(shape.rows_per_batch);
  params.seq_len = static_cast<uint32_t>(shape.seq_len);
  params.max_seq = static_cast<uint32_t>(shape.max_seq);
  params.row_elements = static_cast<uint32_t>(row_units);
  params.row_slots = static_cast<uint32_t>(row_slots);
  params.row_count = static_cast<uint32_t>(row_count);
  params.cache_bytes = static_cast<uint32_t>(output.bytes);

  const Placement no_indices{};
  const Binding out_binding = bindingOf(Role::kOutput, output, device, &params.out_word_offset);
  const Binding past_binding = in_place ? out_binding : bindingOf(Role::kData, past, device, &params.past_word_offset);
  if (in_place) params.past_word_offset = params.out_word_offset;
  const std::vector<Binding> bindings = {
      {Role::kStatus, {}},
      bindingOf(Role::kIndices, indices ? *indices : no_indices, device, &params.indices_word_offset),
      bindingOf(Role::kUpdates, update, device, &params.update_word_offset),
      past_binding,
      out_binding,
  };
  const uint32_t workgroup = std::max<uint32_t>(tuning.workgroup_size, 1);
  // A pass over `runs` runs of `run_slots` slots, in the device's row segments (the check pass: one
  // write index per invocation, as runs of one slot: one lane, one segment each).
  auto addPass = [&](uint32_t pass, uint64_t runs, uint64_t run_slots, std::vector<Binding> wait_for) {
    const SegmentLayout layout = segmentLayout(tuning, workgroup, run_slots);
    Step step;
    step.kernel = Kernel::kTensorScatter;
    step.spec[kSpecWorkgroupSize] = workgroup;
    step.spec[kSpecElementBits] = units.bits;
    step.spec[kSpecItems] = layout.items;
    step.spec[kSpecRowLanes] = layout.lanes;
    step.bindings = bindings;
    params.pass = pass;
    setPush(step, params);
    const uint64_t segments = runs * layout.segmentsOf(run_slots);
    step.groups = std::max<uint64_t>(layout.groupsFor(segments, workgroup), 1);
    fitOneGroup(step, segments * layout.lanes, layout.lanes, device);
    step.wait_for = std::move(wait_for);
    plan.steps.push_back(std::move(step));
  };
  // Every pass binds the status slot and the output writable: a later pass waits for both (what an
  // earlier one wrote, or what synchronization validation takes a writable binding to have written).
  const std::vector<Binding> after_earlier_pass = {{Role::kStatus, {}}, out_binding};
  if (gate == VKINDEX_TS_GATE_STATUS) addPass(VKINDEX_TS_PASS_CHECK, shape.batch, 1, {});
  const bool copies = !in_place && output.bytes > 0;
  if (copies) {
    addPass(VKINDEX_TS_PASS_COPY, 1, (output.bytes + 3) / 4,
            plan.steps.empty() ? std::vector<Binding>{} : after_earlier_pass);
  }
  // The write pass also reports a bad write index, so it runs even with no row to write.
  if (row_slots > 0 || gate != VKINDEX_TS_GATE_NONE) {
    addPass(VKINDEX_TS_PASS_WRITE, row_count, row_slots,
            plan.steps.empty() ? std::vector<Binding>{} : after_earlier_pass);
    // Its invocation 0 writes the slot, unless a check pass's atomicMin needs the slot reset first.
    plan.writes_own_status = gate != VKINDEX_TS_GATE_STATUS;
  }
  return plan;
}

}  // namespace vkindex::plan
