#include "op_timer.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "command_timer.hpp"
#include "timing_math.hpp"

namespace vkindex::tools {

StatusOr<Timing> timeRecorded(Context& context, int repeat,
                              const std::function<StatusOr<RecordedOp>(VkCommandBuffer)>& record) {
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<CommandTimer> timer, CommandTimer::create(context));
  std::vector<double> device_ms, wall_ms;
  for (int run = 0; run < repeat; ++run) {
    std::optional<RecordedOp> op;
    // Wall time covers one whole run as a caller sees it: record, submit, wait.
    const auto start = std::chrono::steady_clock::now();
    VKINDEX_ASSIGN_OR_RETURN(Sample sample, timer->run([&](VkCommandBuffer cmd) -> Status {
      StatusOr<RecordedOp> recorded = record(cmd);
      if (!recorded.ok()) return recorded.status();
      op = std::move(recorded).value();
      return Status::Ok();
    }));
    wall_ms.push_back(millisecondsSince(start));
    VKINDEX_RETURN_IF_ERROR(op->finish());
    device_ms.push_back(sample.device_ms);
  }
  Timing timing;
  timing.has_device_time = timer->usesTimestamps();
  timing.wall_ms_median = medianOf(wall_ms);
  if (timing.has_device_time) {
    timing.device_ms_median = medianOf(device_ms);
    timing.device_ms_min = *std::min_element(device_ms.begin(), device_ms.end());
  }
  return timing;
}

StatusOr<Timing> timeSubmitted(int repeat, const std::function<Status()>& run) {
  std::vector<double> wall_ms;
  for (int i = 0; i < repeat; ++i) {
    const auto start = std::chrono::steady_clock::now();
    VKINDEX_RETURN_IF_ERROR(run());
    wall_ms.push_back(millisecondsSince(start));
  }
  Timing timing;
  timing.wall_ms_median = medianOf(wall_ms);
  return timing;
}

}  // namespace vkindex::tools
