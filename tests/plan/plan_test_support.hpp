// Shared by the planGather unit tests (src/plan/gather_plan), no GPU needed: fake devices, planning a
// problem with its tensors at given byte offsets, printing plans for exact comparison, and checking
// error statuses.
#pragma once

#include <cstdint>
#include <string>

#include "plan/gather_plan.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan::test {

// A device with the given binding limits (maxStorageBufferRange, minStorageBufferOffsetAlignment) and
// copy-pass workgroup shape.
DeviceInfo fakeDevice(uint64_t range, uint64_t alignment, uint32_t workgroup = 64, uint32_t items = 4);

inline Placement placed(uint64_t offset, uint64_t bytes) { return Placement{offset, bytes}; }
inline uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Infers the shape and plans it with each tensor at the given byte offset of its buffer.
StatusOr<GatherPlan> planFor(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                             DataType index_type, int64_t axis, const DeviceInfo& device, uint64_t data_offset = 0,
                             uint64_t indices_offset = 0, uint64_t output_offset = 0);

std::string str(const Window& w);
// Every GatherParams field, in header order, with the fast-division constants in parentheses.
std::string str(const abi::GatherParams& p);
std::string str(const CheckPass& c);

// Expects exactly this code and message.
void expectError(const Status& status, StatusCode code, const std::string& message);

}  // namespace vkindex::plan::test
