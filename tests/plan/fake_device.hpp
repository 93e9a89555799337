// FakeDevice: a device for the planner tests (no GPU), holding both arguments a planner takes: the
// device's limits (DeviceInfo) and the tuning a Context would choose for it (plan::Tuning). A test sets
// either kind of field on one value and passes it twice: planScatter(..., device, device).
#pragma once

#include "plan/tuning.hpp"
#include "vkindex/device_info.hpp"

namespace vkindex::plan::test {

struct FakeDevice : DeviceInfo, Tuning {};

}  // namespace vkindex::plan::test
