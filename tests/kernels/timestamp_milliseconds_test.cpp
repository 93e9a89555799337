// timestampMilliseconds: the one conversion of timestamp ticks that the bench, --steps and engines use.
#include <gtest/gtest.h>

#include <cstdint>

#include "vkindex/device_info.hpp"

namespace vkindex {
namespace {

DeviceInfo deviceWith(uint32_t valid_bits, float period_ns) {
  DeviceInfo info;
  info.timestamps = true;
  info.timestamp_valid_bits = valid_bits;
  info.timestamp_period_ns = period_ns;
  return info;
}

TEST(TimestampMillisecondsTest, ScalesTicksByThePeriod) {
  EXPECT_DOUBLE_EQ(timestampMilliseconds(deviceWith(64, 1.0f), 1000, 3'001'000), 3.0);
  EXPECT_DOUBLE_EQ(timestampMilliseconds(deviceWith(64, 2.5f), 0, 400'000), 1.0);
}

TEST(TimestampMillisecondsTest, CountsOnlyTheValidBitsAcrossOneWrap) {
  // A 36-bit counter that wrapped between the stamps: 10 ticks before the wrap, 5 after.
  const uint64_t top = uint64_t(1) << 36;
  EXPECT_DOUBLE_EQ(timestampMilliseconds(deviceWith(36, 1e6f), top - 10, 5), 15.0);
  // Bits above the valid ones are garbage the driver may set: they do not count.
  EXPECT_DOUBLE_EQ(timestampMilliseconds(deviceWith(36, 1e6f), (uint64_t(7) << 40) | 100, (uint64_t(3) << 50) | 130),
                   30.0);
  // All 64 bits valid: the difference wraps modulo 2^64.
  EXPECT_DOUBLE_EQ(timestampMilliseconds(deviceWith(64, 1e6f), ~uint64_t(0) - 1, 2), 4.0);
}

}  // namespace
}  // namespace vkindex
