// Times a recorded operator: device time from timestamp queries around the recorded commands, and
// host wall time of record + submit + wait. Inputs are already on the device.
#pragma once

#include <functional>

#include "vkindex/vkindex.hpp"

namespace vkindex::tools {

struct Timing {
  double device_ms_median = 0;
  double device_ms_min = 0;
  double wall_ms_median = 0;
  bool has_device_time = false;  // false when the queue has no timestamp support
};

// Records the operation (via `record`) `repeat` times, each in its own submission, and returns the
// timings. `record` must record one run into the command buffer and return its RecordedOp.
StatusOr<Timing> timeRecorded(Context& context, int repeat,
                              const std::function<StatusOr<RecordedOp>(VkCommandBuffer)>& record);

// Wall time only, for operations that cannot be recorded (string tensors): `run` submits and waits.
StatusOr<Timing> timeSubmitted(int repeat, const std::function<Status()>& run);

}  // namespace vkindex::tools
