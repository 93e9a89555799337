#include "host_floor.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>

#include "measure.hpp"
#include "timing_math.hpp"

namespace vkindex::bench {
namespace {

void copyRegions(const std::vector<uint8_t>& data, const std::vector<plan::CopyRegion>& regions,
                 std::vector<uint8_t>& output) {
  for (const plan::CopyRegion& region : regions) {
    std::memcpy(output.data() + region.target, data.data() + region.source, region.bytes);
  }
}

// Host milliseconds that `work` takes.
template <typename Work>
double timed(Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return tools::millisecondsSince(start);
}

}  // namespace

StatusOr<HostFloor> measureHostFloor(const std::vector<uint8_t>& data, const std::vector<plan::CopyRegion>& regions,
                                     const std::vector<uint8_t>& expected, int repeats) {
  for (const plan::CopyRegion& region : regions) {
    if (region.source > data.size() || region.bytes > data.size() - region.source || region.target > expected.size() ||
        region.bytes > expected.size() - region.target) {
      return internalError("host floor: a copy region lies outside the data or the output");
    }
  }
  // The first run of each touches their pages, untimed; the regions' result must be the operator's.
  std::vector<uint8_t> output(expected.size()), target(expected.size());
  copyRegions(data, regions, output);
  if (output != expected) return internalError("host floor: the copy regions do not give the operator's output");
  std::memcpy(target.data(), expected.data(), expected.size());

  std::vector<double> region_ms, one_copy_ms;
  for (int run = 0; run < repeats; ++run) {
    region_ms.push_back(timed([&] { copyRegions(data, regions, output); }));
    one_copy_ms.push_back(timed([&] { std::memcpy(target.data(), expected.data(), expected.size()); }));
  }
  // Read back, so that no copy above is a dead store to the compiler.
  if (output != expected || target != expected) return internalError("host floor: a timed copy went wrong");
  HostFloor floor;
  floor.regions = regions.size();
  floor.region_copies = summarize(region_ms);
  floor.one_copy = summarize(one_copy_ms);
  return floor;
}

}  // namespace vkindex::bench
