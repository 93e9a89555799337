#include "plan_test_support.hpp"

#include <gtest/gtest.h>

namespace vkindex::plan::test {

DeviceInfo fakeDevice(uint64_t range, uint64_t alignment, uint32_t workgroup, uint32_t items) {
  DeviceInfo device;
  device.max_storage_buffer_range = range;
  device.min_storage_buffer_offset_alignment = alignment;
  device.workgroup_size = workgroup;
  device.items_per_invocation = items;
  device.max_workgroup_count = {65535, 65535, 65535};
  return device;
}

StatusOr<GatherPlan> planFor(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                             DataType index_type, int64_t axis, const DeviceInfo& device, uint64_t data_offset,
                             uint64_t indices_offset, uint64_t output_offset) {
  StatusOr<GatherShape> shape = inferGatherShape(data_shape, data_type, indices_shape, index_type, axis);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  if (!shape.ok()) return shape.status();
  const uint64_t size = elementSize(data_type);
  return planGather(*shape, index_type, placed(data_offset, *elementCount(data_shape) * size),
                    placed(indices_offset, shape->index_count * (index_type == DataType::kInt64 ? 8 : 4)),
                    placed(output_offset, *elementCount(shape->output_shape) * size), device);
}

std::string str(const Window& w) { return "{" + std::to_string(w.offset) + ", " + std::to_string(w.size) + "}"; }

// Every GatherParams field, in header order, with the fast-division constants in parentheses.
std::string str(const abi::GatherParams& p) {
  const auto s = [](uint32_t value) { return std::to_string(value); };
  return "row_units " + s(p.row_units) + " (" + s(p.row_units_multiplier) + ", " + s(p.row_units_shift) +
         "), index_count " + s(p.index_count) + " (" + s(p.index_count_multiplier) + ", " + s(p.index_count_shift) +
         "), axis_size " + s(p.axis_size) + ", pass_rows " + s(p.pass_rows) + ", first " + s(p.first_outer) + "/" +
         s(p.first_index) + ", data rows [" + s(p.data_row_begin) + ", " + s(p.data_row_end) + ") at unit " +
         s(p.data_unit_offset) + ", output at unit " + s(p.out_unit_offset) + " words " + s(p.out_word_count) +
         ", indices at word " + s(p.indices_word_offset) + " from " + s(p.index_window_begin) + ", report " +
         s(p.report_bad_index) + ", slot " + s(p.status_slot);
}

std::string str(const CheckPass& c) {
  const auto s = [](uint64_t value) { return std::to_string(value); };
  return "index_count " + s(c.params.index_count) + ", position_base " + s(c.params.position_base) + ", axis_size " +
         s(c.params.axis_size) + ", slot " + s(c.params.status_slot) + ", indices at word " +
         s(c.params.indices_word_offset) + ", report_only " + s(c.params.report_only) + ", window " + str(c.indices) +
         ", groups " + s(c.groups);
}

void expectError(const Status& status, StatusCode code, const std::string& message) {
  EXPECT_EQ(status.code(), code) << status.toString();
  EXPECT_EQ(status.message(), message);
}

}  // namespace vkindex::plan::test
