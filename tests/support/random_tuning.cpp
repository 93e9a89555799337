#include "support/random_tuning.hpp"

#include <algorithm>
#include <cmath>

#include "support/random_tensors.hpp"

namespace vkindex::test {
namespace {

using plan::TuningRange;
using plan::TuningValue;

constexpr uint64_t kNever = UINT64_MAX;
// The largest "ordinary" threshold drawn: beyond the element and update counts of any suite's call, so
// that a threshold of this order takes the same course as kNever would, by a different comparison.
constexpr uint64_t kLargestOrdinaryThreshold = uint64_t(1) << 20;
// Below this many invocations a workgroup leaves most of a CPU driver's SIMD lanes idle (lavapipe runs
// 8 lanes per instruction, SwiftShader 4) and multiplies the workgroups: a large call slows down several
// times over. Such sizes are legal and drawn, but rarely.
constexpr uint64_t kSmallWorkgroup = 32;

// A percentage draw: the chance of a course is the width of its interval of [0, 100).
uint64_t percent(Rng& rng) { return rng() % 100; }

// A value in [least, most], log-uniform: each doubling as likely as the next, so small values come up
// as often as large ones. `most` stays below 2^63 (the callers' ranges do).
uint64_t logUniform(Rng& rng, uint64_t least, uint64_t most) {
  least = std::max<uint64_t>(least, 1);
  if (most <= least) return least;
  const double low = std::log2(static_cast<double>(least));
  const double high = std::log2(static_cast<double>(most) + 1.0);
  const double exponent = std::uniform_real_distribution<double>(low, high)(rng);
  return std::clamp(static_cast<uint64_t>(std::exp2(exponent)), least, most);
}

uint64_t uniform(Rng& rng, uint64_t least, uint64_t most) {
  if (most <= least) return least;
  return std::uniform_int_distribution<uint64_t>(least, most)(rng);
}

// The power-of-two exponents whose powers lie in [least, most]: [first, last], empty when first > last.
struct PowersOfTwo {
  int first = 0;
  int last = -1;
};
PowersOfTwo powersOfTwoWithin(uint64_t least, uint64_t most) {
  PowersOfTwo powers;
  while (powers.first < 63 && (uint64_t(1) << powers.first) < least) ++powers.first;
  while (powers.last + 1 < 63 && (uint64_t(1) << (powers.last + 1)) <= most) ++powers.last;
  return powers;
}

// Mostly a power of two from 32 invocations up (what the table holds on every class), sometimes a size
// that is not one (48, 96, ... or any from 32: segments that do not divide the workgroup, grid steps of
// odd strides), and rarely one below 32 (see kSmallWorkgroup).
uint64_t drawWorkgroupSize(Rng& rng, const TuningRange& range) {
  const uint64_t roomy = std::max(range.least, kSmallWorkgroup);
  const PowersOfTwo powers = powersOfTwoWithin(roomy, range.most);
  const uint64_t course = percent(rng);
  if (course < 70 && powers.first <= powers.last) {
    return uint64_t(1) << std::uniform_int_distribution<int>(powers.first, powers.last)(rng);
  }
  if (course < 80 && powers.first <= powers.last && (uint64_t(3) << (powers.first - 1)) <= range.most) {
    // 3 * 2^k: 48, 96, 192, ...
    int k = powers.first - 1;
    const int top = std::uniform_int_distribution<int>(k, powers.last)(rng);
    while (k < top && (uint64_t(3) << (k + 1)) <= range.most) ++k;
    return uint64_t(3) << k;
  }
  if (course < 92 && roomy <= range.most) return uniform(rng, roomy, range.most);
  return uniform(rng, range.least, std::min(range.most, kSmallWorkgroup - 1));
}

// A threshold that a planner compares with a count: the edges where its course flips (0, 1, 2, never)
// as often as an ordinary count.
uint64_t drawThreshold(Rng& rng, const TuningRange& range) {
  switch (rng() % 5) {
    case 0: return 0;
    case 1: return 1;
    case 2: return 2;
    case 3: return logUniform(rng, 3, std::min(range.most, kLargestOrdinaryThreshold));
    default: return kNever;
  }
}

// most_workgroup_runs: never, a few heavy targets, the GPUs' 1024, or more than any call has.
uint64_t drawWorkgroupRuns(Rng& rng, const TuningRange& range) {
  switch (rng() % 4) {
    case 0: return 0;
    case 1: return logUniform(rng, 1, 16);
    case 2: return 1024;
    default: return rng() % 2 == 0 ? range.most : logUniform(rng, 1025, kLargestOrdinaryThreshold);
  }
}

// most_self_checked_write_indices: never, up to the range's end, or a count within it.
uint64_t drawSelfCheckedWriteIndices(Rng& rng, const TuningRange& range) {
  const uint64_t course = percent(rng);
  if (course < 20) return 0;
  if (course < 40) return range.most;
  return logUniform(rng, 1, range.most);
}

uint64_t drawBoolean(Rng& rng) { return rng() % 2; }

uint64_t drawValue(Rng& rng, TuningValue value, const TuningRange& range, const plan::Tuning& drawn_so_far) {
  switch (value) {
    case TuningValue::k_workgroup_size: return drawWorkgroupSize(rng, range);
    case TuningValue::k_row_lanes:
      // Beyond the workgroup fitTuning would cut it back: draw within it, so every lane count is as likely.
      return logUniform(rng, range.least, std::min<uint64_t>(range.most, drawn_so_far.workgroup_size));
    case TuningValue::k_items_per_invocation:
    case TuningValue::k_row_items: return logUniform(rng, range.least, range.most);
    case TuningValue::k_int64_units:
    case TuningValue::k_native_float32_add:
    case TuningValue::k_group_reserved_cursors:
    case TuningValue::k_claim_by_store: return drawBoolean(rng);
    case TuningValue::k_most_workgroup_runs: return drawWorkgroupRuns(rng, range);
    case TuningValue::k_most_self_checked_write_indices: return drawSelfCheckedWriteIndices(rng, range);
    case TuningValue::k_min_copy_region_bytes:
    case TuningValue::k_few_copy_regions:
    case TuningValue::k_min_walk_lines:
    case TuningValue::k_max_single_line_walk_updates:
    case TuningValue::k_min_soft_float_walk_lines:
    case TuningValue::k_min_atomic_walk_lines:
    case TuningValue::k_min_float32_add_fold_duplicates: return drawThreshold(rng, range);
    case TuningValue::kCount: break;
  }
  return range.least;
}

}  // namespace

plan::Tuning randomTuning(const DeviceInfo& device, uint64_t seed) {
  plan::Tuning tuning;
  for (size_t i = 0; i < plan::kTuningValueCount; ++i) {
    const auto value = static_cast<TuningValue>(i);
    // A generator per value: a draw changed or added for one value leaves the others' draws as they were.
    Rng rng(seed ^ (0x9E3779B97F4A7C15ull * (i + 1)));
    const TuningRange range = plan::tuningRange(value, device);
    // The range has the last word: a booleans' [0, 0] stays 0, a narrowed range cuts the draw.
    plan::setTuningValue(tuning, value, std::clamp(drawValue(rng, value, range, tuning), range.least, range.most));
  }
  plan::fitTuning(tuning);
  return tuning;
}

std::string describeTuning(const plan::Tuning& tuning) {
  std::string text;
  for (size_t i = 0; i < plan::kTuningValueCount; ++i) {
    const auto value = static_cast<TuningValue>(i);
    const uint64_t setting = plan::tuningValue(tuning, value);
    if (!text.empty()) text += ' ';
    text += std::string(plan::tuningValueName(value)) + "=" + (setting == kNever ? "max" : std::to_string(setting));
  }
  return text;
}

}  // namespace vkindex::test
