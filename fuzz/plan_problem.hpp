// A planner problem decoded from fuzz bytes: an operator, its shapes, element and index types, axis or
// batch_dims, reduction, where each tensor lives in its buffer, bad indices to plant, and the device's
// limits. Biased towards what planners must get right: small dims that often agree (so many problems
// are valid and reach planning), with occasional huge, zero and negative ones, tiny binding ranges
// and odd alignments and workgroup shapes.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fake_device.hpp"
#include "plan/shape.hpp"
#include "plan/windows.hpp"
#include "vkindex/data_type.hpp"
#include "vkindex/device_info.hpp"
#include "vkindex/reduction.hpp"

namespace vkindex::fuzz {

using plan::test::FakeDevice;

enum class PlannedOp { kGather, kGatherElements, kGatherND, kScatterElements, kScatterND };

struct PlanProblem {
  PlannedOp op = PlannedOp::kGather;
  plan::Shape data_shape, indices_shape, updates_shape;
  DataType data_type = DataType::kFloat32, index_type = DataType::kInt64, updates_type = DataType::kFloat32;
  int64_t attribute = 0;  // axis, or GatherND's batch_dims
  Reduction reduction = Reduction::kNone;
  bool in_place = false;  // scatters: the output is data itself
  uint64_t data_offset = 0, indices_offset = 0, updates_offset = 0, output_offset = 0;
  std::vector<std::pair<uint64_t, int64_t>> bad;  // (index element position, value) to plant
  FakeDevice device;
  uint32_t seed = 0;  // for the simulators' random tensors
};

// The pieces a problem is decoded from (the GatherBlockQuantized planner's fuzzer reads them too): a
// rank (mostly 0-4, sometimes up to 14), a shape whose dims often copy `like`'s (mostly small, rarely
// zero, huge or negative), a classic data type, an index type (rarely not int32/int64), a tensor's
// offset (a multiple of 4) and a device's limits and tuning.
size_t decodeRank(FuzzedDataProvider& input);
plan::Shape decodeShape(FuzzedDataProvider& input, size_t rank, const plan::Shape& like);
DataType decodeType(FuzzedDataProvider& input);
DataType decodeIndexType(FuzzedDataProvider& input);
uint64_t decodeOffset(FuzzedDataProvider& input);
FakeDevice decodeDevice(FuzzedDataProvider& input);

// Reads one problem; missing bytes read as zeros (FuzzedDataProvider), so every input is a problem.
PlanProblem decodeProblem(FuzzedDataProvider& input);

// The problem in one line, for failure messages.
std::string describe(const PlanProblem& problem);

// A tensor of `shape` and `type` at byte `offset`, or nullopt when no buffer could hold it (its byte
// size or end past 2^48: more memory than any device has, which the Tensor layer never gets).
std::optional<plan::Placement> placementOf(const plan::Shape& shape, DataType type, uint64_t offset);

}  // namespace vkindex::fuzz
