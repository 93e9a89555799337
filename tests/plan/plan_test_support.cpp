#include "plan_test_support.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "common/clear_words_params.h"
#include "common/copy_words_params.h"
#include "common/gather_block_quantized_params.h"
#include "common/scatter_buckets_params.h"
#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"
#include "common/tensor_scatter_params.h"
#include "plan/segments.hpp"

namespace vkindex::plan::test {

FakeDevice fakeDevice(uint64_t range, uint64_t alignment, uint32_t workgroup, uint32_t items) {
  FakeDevice device;
  device.max_storage_buffer_range = range;
  device.min_storage_buffer_offset_alignment = alignment;
  device.workgroup_size = workgroup;
  device.items_per_invocation = items;
  device.row_lanes = std::min(32u, workgroup);  // a GPU's (src/plan/tuning_table.cpp)
  device.row_items = items;
  device.max_workgroup_count = {65535, 65535, 65535};
  // One-group dispatches are fitted to their work down to this (plan::fitOneGroup): SwiftShader's.
  device.subgroup_size = 4;
  return device;
}

StatusOr<OpPlan> planFor(const Shape& data_shape, DataType data_type, const Shape& indices_shape, DataType index_type,
                         int64_t axis, const FakeDevice& device, uint64_t data_offset, uint64_t indices_offset,
                         uint64_t output_offset) {
  StatusOr<GatherShape> shape = inferGatherShape(data_shape, data_type, indices_shape, index_type, axis);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  if (!shape.ok()) return shape.status();
  const uint64_t size = elementSize(data_type);
  return planGather(*shape, index_type, placed(data_offset, *elementCount(data_shape) * size),
                    placed(indices_offset, shape->index_count * (index_type == DataType::kInt64 ? 8 : 4)),
                    placed(output_offset, *elementCount(shape->output_shape) * size), device, device);
}

RowGather rowGather(uint64_t outer, uint64_t count, uint64_t row_bytes, const std::vector<uint64_t>& extents,
                    DataType index_type, bool batched) {
  RowGather gather;
  gather.op = "GatherND";
  gather.row_name = "one slice after the indexed dims";
  gather.outer = outer;
  gather.index_count = count;
  gather.row_bytes = row_bytes;
  gather.index_outer_stride = batched ? count : 0;
  gather.check = {index_type, batched ? outer * count : count, extents};
  return gather;
}

RowGather rowGatherOf(const GatherShape& shape, DataType index_type) {
  RowGather gather = rowGather(shape.outer, shape.index_count, shape.row_bytes, {shape.axis_size}, index_type, false);
  gather.op = "Gather";
  gather.row_name = "one slice after the axis";
  return gather;
}

uint64_t axisRows(const RowGather& gather) {
  uint64_t rows = 1;
  for (uint64_t extent : gather.check.extents) rows *= extent;
  return rows;
}
uint64_t dataBytes(const RowGather& gather) { return gather.outer * axisRows(gather) * gather.row_bytes; }
uint64_t indicesBytes(const RowGather& gather) { return gather.check.tuple_count * tupleBytes(gather.check); }
uint64_t outputBytes(const RowGather& gather) { return gather.outer * gather.index_count * gather.row_bytes; }

void forEachSweepPoint(const std::vector<uint64_t>& ranges, const std::vector<uint64_t>& alignments,
                       const std::vector<uint64_t>& offsets, const std::function<bool(const SweepPoint&)>& visit) {
  for (uint64_t range : ranges) {
    for (uint64_t alignment : alignments) {
      for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
        for (uint64_t data_offset : offsets) {
          for (uint64_t indices_offset : offsets) {
            for (uint64_t output_offset : offsets) {
              if (!visit({range, alignment, index_type, data_offset, indices_offset, output_offset})) return;
            }
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reading plans back

uint32_t pushBytesOf(Kernel kernel) {
  switch (kernel) {
#define VKINDEX_KERNEL(id, module, source, defines, push_block) \
  case Kernel::id:                                              \
    return sizeof(push_block);
#include "kernel_list.h"
#undef VKINDEX_KERNEL
    case Kernel::kCount: break;
  }
  ADD_FAILURE() << "no push block known for kernel " << static_cast<uint32_t>(kernel);
  return 0;
}

const char* kernelName(Kernel kernel) {
  switch (kernel) {
#define VKINDEX_KERNEL(id, module, source, defines, push_block) \
  case Kernel::id:                                              \
    return #module;
#include "kernel_list.h"
#undef VKINDEX_KERNEL
    case Kernel::kCount: break;
  }
  return "unknown kernel";
}

Window boundWindow(const Step& step, Role role) {
  const Window* window = windowOf(step, role);
  if (window == nullptr) {
    ADD_FAILURE() << kernelName(step.kernel) << " step binds no role " << static_cast<uint32_t>(role);
    return {};
  }
  return *window;
}

namespace {

template <typename Params, typename Predicate>
std::vector<Decoded<Params>> stepsWhere(const OpPlan& plan, Predicate wanted) {
  std::vector<Decoded<Params>> steps;
  for (const Step& step : plan.steps) {
    if (wanted(step.kernel)) steps.push_back({step, pushOf<Params>(step)});
  }
  return steps;
}

template <typename Params>
std::vector<Decoded<Params>> stepsOf(const OpPlan& plan, Kernel kernel) {
  return stepsWhere<Params>(plan, [kernel](Kernel k) { return k == kernel; });
}

}  // namespace

std::vector<CheckStep> checkSteps(const OpPlan& plan) { return stepsWhere<abi::CheckParams>(plan, isCheckKernel); }
std::vector<CheckStep> reportSteps(const OpPlan& plan) { return stepsOf<abi::CheckParams>(plan, Kernel::kReportIndex); }
std::vector<RowsStep> rowSteps(const OpPlan& plan) {
  return stepsWhere<abi::GatherRowsParams>(plan, isRowGatherKernel);
}
std::vector<ElementsStep> elementSteps(const OpPlan& plan) {
  return stepsWhere<abi::GatherElementsParams>(plan, isElementGatherKernel);
}

size_t distinctWindows(const OpPlan& plan, Kernel kernel, Role role) {
  return distinctWindows(
      plan, [kernel](Kernel k) { return k == kernel; }, role);
}

size_t distinctWindows(const OpPlan& plan, const std::function<bool(Kernel)>& kernels, Role role) {
  std::set<uint64_t> offsets;
  for (const Step& step : plan.steps) {
    const Window* window = kernels(step.kernel) ? windowOf(step, role) : nullptr;
    if (window != nullptr) offsets.insert(window->offset);
  }
  return offsets.size();
}

CopyShape copyShapeOf(const Step& step) {
  return {step.spec[kSpecWorkgroupSize], step.spec[kSpecIndexWords], step.spec[kSpecUnitBytes], step.spec[kSpecItems],
          step.spec[kSpecRowLanes]};
}

CopyShape copyShape(const OpPlan& plan) {
  const std::vector<RowsStep> passes = rowSteps(plan);
  if (passes.empty()) {
    ADD_FAILURE() << "the plan has no gather_rows steps";
    return {};
  }
  const auto unfitted = [](const Step& step) {
    SpecValues spec = step.spec;
    spec[kSpecWorkgroupSize] = 0;
    return spec;
  };
  CopyShape shape = copyShapeOf(passes.front().step);
  for (const RowsStep& pass : passes) {
    EXPECT_EQ(unfitted(pass.step), unfitted(passes.front().step)) << "gather_rows steps differ in their specialization";
    shape.workgroup_size = std::max(shape.workgroup_size, pass.step.spec[kSpecWorkgroupSize]);
  }
  return shape;
}

uint32_t expectedWorkgroup(const FakeDevice& device, uint64_t groups, uint64_t invocations, uint32_t lanes) {
  return groups == 1 ? workgroupForWork(invocations, lanes, device.workgroup_size, device.subgroup_size)
                     : device.workgroup_size;
}

// ---------------------------------------------------------------------------------------------
// Printing

namespace {

std::string s(uint64_t value) { return std::to_string(value); }

const char* roleName(Role role) {
  switch (role) {
    case Role::kData: return "data";
    case Role::kIndices: return "indices";
    case Role::kUpdates: return "updates";
    case Role::kOutput: return "output";
    case Role::kStatus: return "status";
    case Role::kScratch: return "scratch";
    case Role::kScales: return "scales";
    case Role::kZeroPoints: return "zero_points";
  }
  return "(no role)";
}

// "(3, 5)": the first `k` extents, with their high words where the block has them (CheckParams).
std::string tupleString(const uint32_t* extents, uint32_t k, const uint32_t* high_words = nullptr) {
  std::string text = "(";
  for (uint32_t c = 0; c < k && c < VKINDEX_MAX_TUPLE_LENGTH; ++c) {
    const uint64_t high = high_words != nullptr ? high_words[c] : 0;
    text += (c > 0 ? ", " : "") + s(high << 32 | extents[c]);
  }
  return text + ")";
}

}  // namespace

std::string str(const Window& w) { return "{" + s(w.offset) + ", " + s(w.size) + "}"; }

std::string str(const std::vector<Binding>& bindings) {
  if (bindings.empty()) return "none";
  std::string text;
  for (const Binding& binding : bindings) {
    if (!text.empty()) text += ", ";
    text += roleName(binding.role);
    // A status binding names no window (the runner binds the op's slot): print one only if set.
    if (binding.role != Role::kStatus || binding.window.offset != 0 || binding.window.size != 0) {
      text += " " + str(binding.window);
    }
  }
  return text;
}

std::string kernels(const OpPlan& plan) {
  std::string text;
  for (size_t i = 0; i < plan.steps.size();) {
    size_t j = i;
    while (j < plan.steps.size() && plan.steps[j].kernel == plan.steps[i].kernel) ++j;
    if (!text.empty()) text += ", ";
    text += std::string(kernelName(plan.steps[i].kernel)) + " x" + s(j - i);
    i = j;
  }
  return text.empty() ? "none" : text;
}

// Components (or dims) in use: the leading non-zero extents (a planned pass never has an empty one; the
// count itself travels as the kSpecTupleLength or kSpecDimCount specialization constant).
uint32_t usedExtents(const uint32_t* extents, uint32_t capacity) {
  uint32_t count = 0;
  while (count < capacity && extents[count] != 0) ++count;
  return count;
}

std::string str(const abi::GatherRowsParams& p) {
  return "slot " + s(p.status_slot) + ", row_units " + s(p.row_units) + ", segments_per_row " + s(p.segments_per_row) +
         " (" + s(p.segments_per_row_multiplier) + ", " + s(p.segments_per_row_shift) + "), index_count " +
         s(p.index_count) + " (" + s(p.index_count_multiplier) + ", " + s(p.index_count_shift) + "), axis_size " +
         s(p.axis_size) + ", pass_rows " + s(p.pass_rows) + ", first " + s(p.first_outer) + "/" + s(p.first_index) +
         ", data rows [" + s(p.data_row_begin) + ", " + s(p.data_row_end) + ") at unit " + s(p.data_unit_offset) +
         ", output at unit " + s(p.out_unit_offset) + " words " + s(p.out_word_count) + ", indices at word " +
         s(p.indices_word_offset) + " from " + s(p.index_window_begin) + ", outer stride " + s(p.index_outer_stride) +
         ", tuple " + tupleString(p.extents, usedExtents(p.extents, VKINDEX_MAX_TUPLE_LENGTH));
}

std::string str(const abi::GatherElementsParams& p) {
  std::string dims;
  const uint32_t dim_count = usedExtents(p.extents, VKINDEX_MAX_ELEMENT_DIMS);
  for (uint32_t j = 0; j < VKINDEX_MAX_ELEMENT_DIMS; ++j) {
    if (j >= dim_count && p.extents[j] == 0 && p.data_strides[j] == 0) continue;  // unused (and zero)
    dims += (dims.empty() ? "" : ", ") + s(p.extents[j]) + (j == p.axis_dim ? "*" : "") + ": " + s(p.data_strides[j]);
  }
  return "slot " + s(p.status_slot) + ", units_per_element " + s(p.units_per_element) + ", pass_elements " +
         s(p.pass_elements) + ", first " + s(p.first_element) + ", axis_size " + s(p.axis_size) + ", data [" +
         s(p.data_element_begin) + ", " + s(p.data_element_end) + ") at unit " + s(p.data_unit_offset) +
         ", output at unit " + s(p.out_unit_offset) + " words " + s(p.out_word_count) + ", indices at word " +
         s(p.indices_word_offset) + ", dims " + s(dim_count) + " (" + dims + ")";
}

std::string str(const CheckStep& c) {
  const abi::CheckParams& p = c.params;
  return "slot " + s(p.status_slot) + ", index_count " + s(p.index_count) + ", position_base " + s(p.position_base) +
         ", indices at word " + s(p.indices_word_offset) + ", tuple " +
         tupleString(p.extents, p.tuple_length, p.extents_hi) + ", window " + str(c.window(Role::kIndices)) +
         ", groups " + s(c.step.groups);
}

std::string str(const Step& step) {
  // Ids 0 to 5; the index policy (id 6) only where it is not ONNX's, so kError plans read as before.
  std::string spec;
  for (uint32_t id = 0; id < kSpecIndexPolicy; ++id) spec += (spec.empty() ? "" : ", ") + s(step.spec[id]);
  if (step.spec[kSpecIndexPolicy] != VKINDEX_POLICY_ERROR) spec += ", policy " + s(step.spec[kSpecIndexPolicy]);
  return std::string(kernelName(step.kernel)) + " spec {" + spec + "}, bindings " + str(step.bindings) + ", push " +
         s(step.push_bytes) + ", groups " + s(step.groups) + ", waits " + str(step.wait_for);
}

std::string failuresOf(const std::function<void()>& check) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    check();
  }
  std::string text;
  for (int i = 0; i < results.size(); ++i) text += results.GetTestPartResult(i).message() + std::string("\n");
  return text;
}

void expectError(const Status& status, StatusCode code, const std::string& message) {
  EXPECT_EQ(status.code(), code) << status.toString();
  EXPECT_EQ(status.message(), message);
}

}  // namespace vkindex::plan::test
