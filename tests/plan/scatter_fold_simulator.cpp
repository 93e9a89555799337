// The fold by owner's passes of the scatter simulator (scatter_machine.hpp): locate, bucket count,
// alloc, fill and sort, the heavy plan, scan and digit sort, and the fold.
#include <algorithm>
#include <optional>
#include <vector>

#include "common/scatter_buckets_params.h"
#include "plan_test_support.hpp"
#include "scatter_machine.hpp"

namespace vkindex::plan::test {

// The locate passes' body: update `position` records its target and zeroes the target's count.
// Bindings 1 and 2 are the targets and counts windows.
void ScatterMachine::locate(const Step& step, uint32_t position, uint32_t target) {
  if (target >= received_.size()) return fail("located target " + std::to_string(target) + " is past the data");
  if (target & VKINDEX_TARGET_LEADER) return fail("target " + std::to_string(target) + " has the leader bit");
  scratchWord(step.bindings[1].window, position, "targets") = target;
  scratchWord(step.bindings[2].window, target, "counts") = 0;
}

void ScatterMachine::locateTuples(const Step& step) {
  forEachTupleElement(step, [&](const abi::ScatterNDParams& p, uint32_t n, uint32_t row, uint32_t element) {
    locate(step, n * p.slice_elements + element, row * p.slice_elements + element);
  });
}

// Word `word` of the bucket kernels' whole-scratch binding (binding 0 for alloc and fill, 2 for the fold).
uint32_t& ScatterMachine::bucketWord(const Step& step, uint64_t word) {
  return scratchWord(*windowOf(step, Role::kScratch), word, "bucket scratch");
}

// Update positions in a random order: the kernels' invocations run in any order, and the fold must
// not care.
std::vector<uint32_t> ScatterMachine::shuffled(uint32_t count) {
  std::vector<uint32_t> order(count);
  for (uint32_t i = 0; i < count; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng_);
  return order;
}

bool ScatterMachine::heavy(const abi::BucketParams& p, const Step& step, uint32_t target) {
  return bucketWord(step, p.counts_at + target) > VKINDEX_MAX_BUCKET;
}

// Update `position`'s target, without the leader mark.
uint32_t ScatterMachine::targetOf(const abi::BucketParams& p, const Step& step, uint32_t position) {
  return bucketWord(step, p.targets_at + position) & ~VKINDEX_TARGET_LEADER;
}

// Update `position`'s target if it leads it, else nothing.
std::optional<uint32_t> ScatterMachine::ledTarget(const abi::BucketParams& p, const Step& step, uint32_t position) {
  const uint32_t marked = bucketWord(step, p.targets_at + position);
  if ((marked & VKINDEX_TARGET_LEADER) == 0) return std::nullopt;
  return marked & ~VKINDEX_TARGET_LEADER;
}

// A control word after the counts (VKINDEX_BUCKET_CURSOR, VKINDEX_OWNER_COUNT, VKINDEX_HEAVY_*).
uint32_t& ScatterMachine::control(const abi::BucketParams& p, const Step& step, uint32_t word) {
  return bucketWord(step, uint64_t(p.counts_at) + p.target_count + word);
}

// The groups an indirect step dispatches: its VkDispatchIndirectCommand in scratch, which must be
// written (whatever the status) and within the step's groups.
uint64_t ScatterMachine::indirectGroups(const Step& step) {
  const uint64_t at = *step.indirect_scratch_offset;
  const Window whole{0, scratch_.size() * 4};
  if (at % 4 != 0) {
    fail("indirect arguments at unaligned offset " + std::to_string(at));
    return 0;
  }
  const uint32_t x = scratchWord(whole, at / 4, "indirect x"), y = scratchWord(whole, at / 4 + 1, "indirect y"),
                 z = scratchWord(whole, at / 4 + 2, "indirect z");
  if (uint64_t(x) * y * z > step.groups || y > 1 || z > 1) {
    fail("indirect dispatch of " + std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z) +
         " groups, planned for " + std::to_string(step.groups));
    return 0;
  }
  return uint64_t(x) * y * z;
}

// bucket_count.comp: atomics in any order, so any one of a target's positions may lead it.
void ScatterMachine::countBuckets(const Step& step) {
  const abi::BucketParams p = pushOf<abi::BucketParams>(step);
  for (uint32_t word = 0; word < VKINDEX_BUCKET_CONTROL_WORDS; ++word) control(p, step, word) = 0;
  for (uint32_t position : shuffled(p.update_count)) {
    uint32_t& marked = bucketWord(step, p.targets_at + position);
    if (!ok_) return;
    if (bucketWord(step, p.counts_at + marked)++ == 0) marked |= VKINDEX_TARGET_LEADER;
  }
}

void ScatterMachine::allocateBuckets(const Step& step) {
  const abi::BucketParams p = pushOf<abi::BucketParams>(step);
  for (uint32_t position : shuffled(p.update_count)) {
    const std::optional<uint32_t> led = ledTarget(p, step, position);
    if (!ok_) return;
    if (!led) continue;
    const uint32_t t = *led;
    const uint32_t n = bucketWord(step, p.counts_at + t);
    if (n > VKINDEX_MAX_BUCKET) {
      const uint32_t heavy_id = control(p, step, VKINDEX_HEAVY_COUNT)++;
      bucketWord(step, p.cursors_at + t) = heavy_id;
      bucketWord(step, p.runs_at + heavy_id) = n;
      bucketWord(step, p.heavy_targets_at + heavy_id) = t;
      control(p, step, VKINDEX_HEAVY_UPDATES) += n;
      control(p, step, VKINDEX_HEAVY_MOST) = std::max(control(p, step, VKINDEX_HEAVY_MOST), n);
    } else {
      uint32_t& next = control(p, step, VKINDEX_BUCKET_CURSOR);
      bucketWord(step, p.cursors_at + t) = next;
      next += n;
      uint32_t& owners = control(p, step, VKINDEX_OWNER_COUNT);
      bucketWord(step, p.owners_at + owners) = t;
      ++owners;
      if (n > VKINDEX_REGISTER_BUCKET) {
        uint32_t& long_owners = control(p, step, VKINDEX_LONG_OWNER_COUNT);
        if (long_owners >= p.update_count / (VKINDEX_REGISTER_BUCKET + 1)) {
          return fail("more long buckets than long_owners holds");
        }
        bucketWord(step, p.long_owners_at + long_owners) = t;
        ++long_owners;
      }
    }
  }
  if (ok_ && control(p, step, VKINDEX_HEAVY_COUNT) > p.heavy_targets_at - p.runs_at) {
    fail("more heavy targets than the runs array holds");
  }
}

// The digit passes a call with `heavy` heavy targets runs (common/heavy_sort.glsl).
uint32_t ScatterMachine::digitPassesNeeded(const abi::BucketParams& p, uint32_t heavy) {
  uint32_t passes = 1;
  while (passes < p.digit_passes && ((heavy - 1) >> (passes * VKINDEX_SORT_DIGIT_BITS)) != 0) ++passes;
  return passes;
}

// heavy_plan.comp: every heavy pass's indirect command, zeroed after a bad index.
void ScatterMachine::planHeavyPasses(const Step& step, bool bad) {
  const abi::BucketParams p = pushOf<abi::BucketParams>(step);
  const uint32_t heavy = bad ? 0 : control(p, step, VKINDEX_HEAVY_COUNT);
  const uint32_t most = bad ? 0 : control(p, step, VKINDEX_HEAVY_MOST);
  const uint32_t workgroup = step.spec[kSpecWorkgroupSize];
  for (uint32_t command = 0; command < p.command_count && ok_; ++command) {
    uint32_t groups = 0;
    if (heavy == 0) {
      groups = 0;
    } else if (command == VKINDEX_RUNS_SCAN_COMMAND) {
      groups = 1;
    } else if (command < VKINDEX_FOLD_COMMAND(p.digit_passes, 0u)) {
      const uint32_t pass = (command - VKINDEX_SORT_COMMAND(0u)) / 2;
      groups = pass >= digitPassesNeeded(p, heavy) ? 0 : command == VKINDEX_SORT_COMMAND(pass) ? p.tile_count : 1;
    } else {
      const uint64_t fold = command - VKINDEX_FOLD_COMMAND(p.digit_passes, 0u);
      const uint32_t owners =
          heavy <= p.most_group_runs ? std::min(heavy, 65535u) : (heavy + workgroup - 1) / workgroup;
      groups = most > fold * p.walk_items ? owners : 0;
    }
    bucketWord(step, p.commands_at + command * 3) = groups;
    bucketWord(step, p.commands_at + command * 3 + 1) = 1;
    bucketWord(step, p.commands_at + command * 3 + 2) = 1;
  }
}

// heavy_scan.comp: an exclusive scan in place, of the runs or of a digit pass's tile counts.
void ScatterMachine::scanHeavy(const Step& step) {
  const abi::BucketParams p = pushOf<abi::BucketParams>(step);
  const bool runs = p.pass == VKINDEX_NO_PASS;
  const uint32_t at = runs ? p.runs_at : p.tiles_at;
  const uint32_t count = runs ? control(p, step, VKINDEX_HEAVY_COUNT) : VKINDEX_SORT_DIGITS * p.tile_count;
  uint32_t running = 0;
  for (uint32_t i = 0; i < count && ok_; ++i) {
    uint32_t& word = bucketWord(step, at + i);
    const uint32_t value = word;
    word = running;
    running += value;
  }
}

// Where digit pass `pass` writes (common/heavy_sort.glsl): past the light buckets, or `sorted`.
uint32_t ScatterMachine::sortedAt(const abi::BucketParams& p, const Step& step, uint32_t pass) {
  return pass % 2 == 0 ? p.buckets_at + control(p, step, VKINDEX_BUCKET_CURSOR) : p.sorted_at;
}

// Where digit pass `pass` leaves its items' heavy ids (common/heavy_sort.glsl): `keys`, or `targets`.
uint32_t ScatterMachine::keysAt(const abi::BucketParams& p, uint32_t pass) {
  return pass % 2 == 0 ? p.keys_at : p.targets_at;
}

// Heavy update `position`'s heavy id, which bucket_fill.comp left in targets[] in place of its target
// (the first digit pass reads it there; later ones may have overwritten it).
std::optional<uint32_t> ScatterMachine::heavyIdOf(const abi::BucketParams& p, const Step& step, uint32_t position) {
  const uint32_t marked = bucketWord(step, p.targets_at + position);
  if ((marked & VKINDEX_TARGET_HEAVY) == 0) return std::nullopt;
  return marked & ~VKINDEX_TARGET_HEAVY;
}

// The heavy id bucket_fill.comp gave heavy update `position`, or nothing for a light one.
std::optional<uint32_t> ScatterMachine::givenHeavyId(uint32_t position) const {
  const auto given = given_heavy_ids_.find(position);
  if (given == given_heavy_ids_.end()) return std::nullopt;
  return given->second;
}

// Digit pass `pass`'s item `item`: its update position and heavy id (nothing for a light one), and
// its digit. The first pass reads the id in targets[]; later ones read the id the pass before left
// beside the position, which must be the one bucket_fill.comp gave that position.
std::optional<ScatterMachine::SortItem> ScatterMachine::sortItem(const abi::BucketParams& p, const Step& step,
                                                                 uint32_t item) {
  uint32_t position = item;
  std::optional<uint32_t> id;
  if (p.pass > 0) {
    position = bucketWord(step, sortedAt(p, step, p.pass - 1) + item);
    id = bucketWord(step, keysAt(p, p.pass - 1) + item);
  } else {
    id = heavyIdOf(p, step, item);
    if (!id) return std::nullopt;
  }
  if (position >= p.update_count) {
    fail("sorted item " + std::to_string(item) + " holds position " + std::to_string(position));
    return std::nullopt;
  }
  const std::optional<uint32_t> given = givenHeavyId(position);
  if (!given) {
    fail("sorted item " + std::to_string(item) + " holds light position " + std::to_string(position));
    return std::nullopt;
  }
  if (*id != *given) {
    fail("sorted item " + std::to_string(item) + " carries heavy id " + std::to_string(*id) + " for position " +
         std::to_string(position) + ", whose heavy id is " + std::to_string(*given));
    return std::nullopt;
  }
  const uint32_t digit = (*id >> (p.pass * VKINDEX_SORT_DIGIT_BITS)) & (VKINDEX_SORT_DIGITS - 1);
  return SortItem{position, *id, digit};
}

// heavy_sort_count.comp: each tile's digit counts (zero for a tile without heavy items).
void ScatterMachine::countDigits(const Step& step) {
  const abi::BucketParams p = pushOf<abi::BucketParams>(step);
  for (uint64_t tile = 0; tile < indirectGroups(step); ++tile) {
    for (uint32_t d = 0; d < VKINDEX_SORT_DIGITS; ++d) bucketWord(step, p.tiles_at + d * p.tile_count + tile) = 0;
  }
  forEachSortItem(step, [&](uint32_t tile, const SortItem& item) {
    ++bucketWord(step, p.tiles_at + item.digit * p.tile_count + tile);
  });
}

// heavy_sort_scatter.comp: each item to its (digit, tile)'s next place, in order.
void ScatterMachine::scatterDigits(const Step& step) {
  const abi::BucketParams p = pushOf<abi::BucketParams>(step);
  // The last pass leaves no ids: nothing reads them (the scratch words keep what they held).
  const bool carry_ids = p.pass + 1 < digitPassesNeeded(p, control(p, step, VKINDEX_HEAVY_COUNT));
  forEachSortItem(step, [&](uint32_t tile, const SortItem& item) {
    const uint32_t place = bucketWord(step, p.tiles_at + item.digit * p.tile_count + tile)++;
    if (place >= control(p, step, VKINDEX_HEAVY_UPDATES)) {
      return fail("sorted place " + std::to_string(place) + " is past the heavy updates");
    }
    bucketWord(step, sortedAt(p, step, p.pass) + place) = item.position;
    if (carry_ids) bucketWord(step, keysAt(p, p.pass) + place) = item.heavy_id;
  });
}

void ScatterMachine::fillBuckets(const Step& step) {
  const abi::BucketParams p = pushOf<abi::BucketParams>(step);
  given_heavy_ids_.clear();  // this fold's own ids, not an earlier fold's in the same plan
  for (uint32_t position : shuffled(p.update_count)) {
    const uint32_t target = targetOf(p, step, position);
    if (!ok_) return;
    if (heavy(p, step, target)) {
      const uint32_t heavy_id = bucketWord(step, p.cursors_at + target);
      bucketWord(step, p.targets_at + position) = heavy_id | VKINDEX_TARGET_HEAVY;
      given_heavy_ids_[position] = heavy_id;
      continue;
    }
    const uint32_t slot = bucketWord(step, p.cursors_at + target)++;
    if (slot >= p.update_count) return fail("bucket slot " + std::to_string(slot) + " is past the buckets");
    bucketWord(step, p.buckets_at + slot) = position;
  }
}

// bucket_sort.comp: light buckets sorted ascending, in place: up to VKINDEX_REGISTER_BUCKET positions
// among all owners, or (LONG_BUCKETS, spec[kSpecLongBuckets]) the longer ones, among the long owners.
void ScatterMachine::sortBuckets(const Step& step) {
  const bool long_pass = step.spec[kSpecLongBuckets] != 0;
  forEachLightBucket(
      step,
      [&](uint32_t, uint32_t first, uint32_t end) {
        const bool long_bucket = end - first > VKINDEX_REGISTER_BUCKET;
        if (long_pass && (!long_bucket || end - first > VKINDEX_MAX_BUCKET)) {
          return fail("long owner of a bucket of " + std::to_string(end - first));
        }
        if (long_bucket != long_pass) return;
        std::vector<uint32_t> bucket;
        for (uint32_t i = first; i < end; ++i) bucket.push_back(bucketWord(step, i));
        std::sort(bucket.begin(), bucket.end());
        for (uint32_t i = first; i < end; ++i) bucketWord(step, i) = bucket[i - first];
      },
      long_pass);
}

// scatter_fold.comp: light buckets folded by their owners in the order they hold (bucket_sort.comp's),
// or a pass over the heavy runs.
void ScatterMachine::fold(const Step& step) {
  const abi::BucketParams p = pushOf<abi::BucketParams>(step);
  if (p.pass == VKINDEX_NO_PASS) {
    if (step.spec[kSpecStagedRuns] != 0) return fail("a light fold planned to stage heavy runs");
    forEachLightBucket(step, [&](uint32_t t, uint32_t first, uint32_t end) {
      for (uint32_t i = first; i < end && ok_; ++i) {
        apply(step, p.updates_word_offset, p.out_word_offset, t, bucketWord(step, i));
      }
    });
    return;
  }
  // One owner per heavy target, items [pass * walk_items, ...) of its run, in order. Where there
  // are at most most_group_runs, a workgroup takes each: max and min reduce them, whose result is
  // the same, and the other reductions fold them in order from shared memory.
  const uint32_t heavy = control(p, step, VKINDEX_HEAVY_COUNT);
  const bool ordered = shape_.reduction == Reduction::kMax || shape_.reduction == Reduction::kMin;
  // scatter_fold.comp's STAGED_RUNS: where workgroups may take runs, the order-sensitive reductions.
  if (step.spec[kSpecStagedRuns] != (p.most_group_runs != 0 && !ordered ? 1u : 0u)) {
    return fail("a heavy fold staged where it must not be, or not where it must");
  }
  if (heavy <= p.most_group_runs) {
    const bool reduces = step.kernel == Kernel::kScatterFoldOrder32 || step.kernel == Kernel::kScatterFold ||
                         step.kernel == Kernel::kScatterFoldIntegers;
    if (ordered && !reduces) return fail("a workgroup reduction of heavy runs in a kernel that has none");
    // Groups stride over the heavy targets, one at a time.
    if (indirectGroups(step) < std::min(heavy, 65535u)) return fail("a heavy fold without every owner");
  } else if (indirectGroups(step) * step.spec[kSpecWorkgroupSize] < heavy) {
    return fail("a heavy fold without every owner");
  }
  const uint32_t sorted = sortedAt(p, step, digitPassesNeeded(p, heavy) - 1);
  for (uint32_t heavy_id : shuffled(heavy)) {
    const uint32_t run_end =
        heavy_id + 1 < heavy ? bucketWord(step, p.runs_at + heavy_id + 1) : control(p, step, VKINDEX_HEAVY_UPDATES);
    const uint64_t begin = uint64_t(bucketWord(step, p.runs_at + heavy_id)) + uint64_t(p.pass) * p.walk_items;
    const uint64_t end = std::min<uint64_t>(run_end, begin + p.walk_items);
    for (uint64_t i = begin; i < end && ok_; ++i) {
      const uint32_t position = bucketWord(step, sorted + i);
      const uint32_t target = bucketWord(step, p.heavy_targets_at + heavy_id);
      if (!ok_) return;
      if (givenHeavyId(position) != heavy_id || bucketWord(step, p.cursors_at + target) != heavy_id) {
        return fail("heavy run " + std::to_string(heavy_id) + " holds position " + std::to_string(position) +
                    " of another target");
      }
      apply(step, p.updates_word_offset, p.out_word_offset, target, position);
    }
  }
}

}  // namespace vkindex::plan::test
