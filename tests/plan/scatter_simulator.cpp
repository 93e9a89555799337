#include "scatter_simulator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/clear_words_params.h"
#include "common/copy_words_params.h"
#include "common/scatter_buckets_params.h"
#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"
#include "plan_checks.hpp"
#include "plan_test_support.hpp"
#include "scatter_machine.hpp"
#include "simulator_support.hpp"

namespace vkindex::plan::test {
namespace {

uint64_t product(const Shape& shape, size_t begin, size_t end) {
  uint64_t n = 1;
  for (size_t d = begin; d < end; ++d) n *= static_cast<uint64_t>(shape[d]);
  return n;
}

bool isWinnerKernel(Kernel kernel) {
  return kernel == Kernel::kScatterElementsClaim || kernel == Kernel::kScatterElementsClearClaims ||
         kernel == Kernel::kScatterElementsClaimStore || kernel == Kernel::kScatterElementsClaimFixup ||
         kernel == Kernel::kScatterElementsWrite || kernel == Kernel::kScatterElementsWriteByTarget ||
         kernel == Kernel::kScatterNDClaim || kernel == Kernel::kScatterNDClearClaims ||
         kernel == Kernel::kScatterNDClaimStore || kernel == Kernel::kScatterNDClaimFixup ||
         kernel == Kernel::kScatterNDWrite || kernel == Kernel::kScatterNDWriteByTarget ||
         scatterNDRowsUnitBytes(kernel) != 0;
}

bool isFoldKernel(Kernel kernel) {
  return kernel == Kernel::kScatterFold || kernel == Kernel::kScatterFoldFloat32 ||
         kernel == Kernel::kScatterFoldFloat64 || kernel == Kernel::kScatterFoldFloat32Add ||
         kernel == Kernel::kScatterFoldFloat32AddNative || kernel == Kernel::kScatterFoldHalfAdd ||
         kernel == Kernel::kScatterFoldFloat64Add || kernel == Kernel::kScatterFoldOrder32 ||
         kernel == Kernel::kScatterFoldInt32 || kernel == Kernel::kScatterFoldIntegers;
}

// The write passes applying integer reductions with atomics: every update, in no order.
bool isAtomicKernel(Kernel kernel) {
  return kernel == Kernel::kScatterElementsAtomic || kernel == Kernel::kScatterNDAtomic;
}

bool isLocateKernel(Kernel kernel) {
  return kernel == Kernel::kScatterElementsLocate || kernel == Kernel::kScatterNDLocate;
}

// The fold by owner's passes after the locate pass, whose push block is BucketParams.
bool isBucketKernel(Kernel kernel) {
  return isFoldKernel(kernel) || kernel == Kernel::kBucketCount || kernel == Kernel::kBucketAlloc ||
         kernel == Kernel::kBucketFill || kernel == Kernel::kHeavyPlan || kernel == Kernel::kHeavyScan ||
         kernel == Kernel::kHeavySortCount || kernel == Kernel::kHeavySortScatter || kernel == Kernel::kBucketSort;
}

// The walk kernels (every arithmetic variant), told apart by their push blocks from the kernels
// that are not walks (some push blocks have the same size).
bool isWalkWithPush(Kernel kernel, size_t push_bytes) {
  return pushBytesOf(kernel) == push_bytes && !isCheckKernel(kernel) && kernel != Kernel::kReportIndex &&
         !isWinnerKernel(kernel) && !isLocateKernel(kernel) && !isBucketKernel(kernel) && !isAtomicKernel(kernel);
}
bool isElementsWalk(Kernel kernel) { return isWalkWithPush(kernel, sizeof(abi::ScatterElementsParams)); }
bool isTupleWalk(Kernel kernel) { return isWalkWithPush(kernel, sizeof(abi::ScatterNDParams)); }
bool isWalk(Kernel kernel) { return isElementsWalk(kernel) || isTupleWalk(kernel); }

bool writesOutput(Kernel kernel) {
  return isWalk(kernel) || isFoldKernel(kernel) || isAtomicKernel(kernel) || kernel == Kernel::kScatterElementsWrite ||
         kernel == Kernel::kScatterElementsWriteByTarget || kernel == Kernel::kScatterNDWrite ||
         kernel == Kernel::kScatterNDWriteByTarget || scatterNDRowsUnitBytes(kernel) != 0 ||
         copyWordsUnitBytes(kernel) != 0;
}

}  // namespace

void ScatterMachine::run(const OpPlan& plan) {
  // Scratch starts as garbage: nothing may read a word that no pass wrote.
  scratch_.resize(plan.scratch_bytes / 4);
  for (uint32_t& w : scratch_) w = static_cast<uint32_t>(rng_());
  // Every binding, read by its kernel or not, must be one the device can make.
  if (!checkScatterWindows(plan, {data_, indices_, updates_, output_}, c_.device))
    fail("a step binds a window it cannot");
  bool output_written = false;
  for (size_t i = 0; i < plan.steps.size() && ok_; ++i) {
    const Step& step = plan.steps[i];
    const bool copies = copyWordsUnitBytes(step.kernel) != 0;
    if (writesOutput(step.kernel) && !copies) {
      const Window* output = windowOf(step, Role::kOutput);
      const bool waits = std::any_of(step.wait_for.begin(), step.wait_for.end(), [&](const Binding& b) {
        return b.role == Role::kOutput && output && b.window.offset == output->offset && b.window.size == output->size;
      });
      if (output_written && !waits) fail("step " + std::to_string(i) + " writes the output without a barrier");
    }
    output_written = output_written || writesOutput(step.kernel);
    // The self-checking writers do the check and report passes' work first, then pass the same gate.
    if (isSelfCheckingScatterWalkKernel(step.kernel) || isSelfCheckingScatterNDRowsKernel(step.kernel)) {
      selfCheck(step, i);
    }
    if (isCheckKernel(step.kernel)) {
      index_sim_.checkIndices(step);
    } else if (step.kernel == Kernel::kReportIndex) {
      index_sim_.reportIndex(step, i);
    } else if (step.kernel == Kernel::kHeavyPlan) {
      planHeavyPasses(step, index_sim_.badIndexFound(step.push[0]));  // heavy_plan.comp runs whatever the status
    } else if (step.indirect_scratch_offset && indirectGroups(step) == 0) {
      continue;  // an indirect dispatch of no groups
    } else if (index_sim_.badIndexFound(step.push[0])) {
      continue;  // status_gate.glsl: every writing kernel returns at once
    } else if (copies) {
      copy(step);
    } else if (step.kernel == Kernel::kClearWords) {
      clear(step);
    } else if (step.kernel == Kernel::kScatterElementsLocate) {
      forEachElementUpdate(step, [&](const abi::ScatterElementsParams&, uint32_t position, uint32_t target) {
        locate(step, position, target);
      });
    } else if (step.kernel == Kernel::kScatterNDLocate) {
      locateTuples(step);
    } else if (step.kernel == Kernel::kBucketCount) {
      countBuckets(step);
    } else if (step.kernel == Kernel::kBucketAlloc) {
      allocateBuckets(step);
    } else if (step.kernel == Kernel::kHeavyScan) {
      scanHeavy(step);
    } else if (step.kernel == Kernel::kHeavySortCount) {
      countDigits(step);
    } else if (step.kernel == Kernel::kHeavySortScatter) {
      scatterDigits(step);
    } else if (step.kernel == Kernel::kBucketFill) {
      fillBuckets(step);
    } else if (step.kernel == Kernel::kBucketSort) {
      sortBuckets(step);
    } else if (isFoldKernel(step.kernel)) {
      fold(step);
    } else if (step.kernel == Kernel::kScatterElementsClaim || step.kernel == Kernel::kScatterElementsClaimFixup) {
      claimElements(step);
    } else if (step.kernel == Kernel::kScatterElementsClaimStore) {
      storeElementClaims(step);
    } else if (step.kernel == Kernel::kScatterElementsClearClaims) {
      clearElementClaims(step);
    } else if (step.kernel == Kernel::kScatterNDClearClaims) {
      clearClaims(step);
    } else if (step.kernel == Kernel::kScatterElementsWrite) {
      writeElementWinners(step);
    } else if (step.kernel == Kernel::kScatterElementsWriteByTarget) {
      writeElementWinnersByTarget(step);
    } else if (step.kernel == Kernel::kScatterNDClaim || step.kernel == Kernel::kScatterNDClaimFixup) {
      claim(step);
    } else if (step.kernel == Kernel::kScatterNDClaimStore) {
      storeClaims(step);
    } else if (step.kernel == Kernel::kScatterElementsAtomic) {
      applyElementsAtomically(step);
    } else if (step.kernel == Kernel::kScatterNDAtomic) {
      applyTuplesAtomically(step);
    } else if (step.kernel == Kernel::kScatterNDWrite) {
      writeWinners(step);
    } else if (step.kernel == Kernel::kScatterNDWriteByTarget) {
      writeWinnersByTarget(step);
    } else if (scatterNDRowsUnitBytes(step.kernel) != 0) {
      writeWinnerRows(step);
    } else if (isElementsWalk(step.kernel)) {
      walkElements(step);
    } else if (isTupleWalk(step.kernel)) {
      walkTuples(step);
    } else {
      fail("unexpected kernel " + std::to_string(static_cast<int>(step.kernel)));
    }
  }
  if (!ok_) return;
  // Random indices are valid unless a dim they index is empty: then nothing may be written.
  if (index_sim_.expectStatus(plan)) {
    EXPECT_TRUE(std::all_of(copied_.begin(), copied_.end(), [](uint32_t n) { return n == 0; }));
    EXPECT_TRUE(std::all_of(received_.begin(), received_.end(), [](const auto& r) { return r.empty(); }));
    return;
  }
  expectCopiedOnce();
  expectReceived();
}

// Byte `byte` of `window` (as the kernel forms it, modulo 2^32) must lie inside the window with
// `count` bytes after it, and be byte `expected` of the buffer.
void ScatterMachine::reach(const Window& window, uint32_t byte, uint32_t count, uint64_t expected, const char* what) {
  if (uint64_t(byte) + count > window.size) {
    fail(std::string(what) + " accessed at byte " + std::to_string(byte) + " of a " + std::to_string(window.size) +
         "-byte window");
  } else if (window.offset + byte != expected) {
    fail(std::string(what) + " byte " + std::to_string(window.offset + byte) + " reached instead of " +
         std::to_string(expected));
  }
}

// A step over tuples of no components (ScatterND, k = 0) binds no indices: an empty window, so that
// any index read it made would fail the simulation.
BufferBinding ScatterMachine::indexBinding(const Step& step) {
  const Window* window = windowOf(step, Role::kIndices);
  return BufferBinding(index_buffer_, window != nullptr ? *window : Window{}, "indices", ok_);
}

// index_tuples.glsl's tupleRow.
uint32_t ScatterMachine::tupleRow(BufferBinding& indices, const abi::ScatterNDParams& p, uint32_t k,
                                  uint32_t index_words, uint32_t tuple) {
  const uint32_t first_word = p.indices_word_offset + tuple * k * index_words;
  uint32_t row = 0;
  for (uint32_t component = 0; component < k; ++component) {
    row = row * p.extents[component] +
          normalizeIndex(loadIndex(indices, first_word, component, index_words), p.extents[component]);
  }
  return row;
}

// scatter_apply.glsl's applyElement, as addresses: update element `source` into data element `target`.
void ScatterMachine::apply(const Step& step, uint32_t updates_word, uint32_t out_word, uint32_t target,
                           uint32_t source) {
  const uint32_t bytes = static_cast<uint32_t>(shape_.element_bytes);
  reach(*windowOf(step, Role::kUpdates), updates_word * 4u + source * bytes, bytes,
        updates_.offset + uint64_t(source) * bytes, "updates");
  reach(*windowOf(step, Role::kOutput), out_word * 4u + target * bytes, bytes,
        output_.offset + uint64_t(target) * bytes, "output");
  if (target >= received_.size()) return fail("target " + std::to_string(target) + " is past the data");
  received_[target].push_back(source);
}

ScatterMachine::LineStart ScatterMachine::lineStart(const abi::ScatterElementsParams& p, uint32_t dims, uint32_t line) {
  LineStart start{p.data_element_base, p.update_element_base, 1};
  uint32_t rest = line, update_stride = 1;
  for (uint32_t j = dims; j-- > 0;) {
    const uint32_t extent = p.extents[j];
    if (j == p.axis_dim) {
      start.axis_update_stride = update_stride;
    } else {
      const uint32_t coordinate = rest % extent;
      rest /= extent;
      start.data_base += coordinate * p.data_strides[j];
      start.update_base += coordinate * update_stride;
    }
    update_stride *= extent;
  }
  return start;
}

// The data element update `position` addresses.
uint32_t ScatterMachine::elementTarget(BufferBinding& indices, const abi::ScatterElementsParams& p,
                                       uint32_t index_words, const LineStart& line, uint32_t position) {
  const uint32_t index = normalizeIndex(loadIndex(indices, p.indices_word_offset, position, index_words), p.axis_size);
  return line.data_base + index * p.data_strides[p.axis_dim];
}

// The self-checking walks' and row writes' VKINDEX_SELF_CHECK part (common/self_check.glsl):
// check_indices.comp and report_index.comp over every index of the pass from the first, a single pass
// over the whole call (every invocation does it; the result is the same as once).
void ScatterMachine::selfCheck(const Step& step, size_t step_index) {
  abi::CheckParams check{};
  if (pushBytesOf(step.kernel) == sizeof(abi::ScatterElementsParams)) {
    const abi::ScatterElementsParams p = pushOf<abi::ScatterElementsParams>(step);
    check.status_slot = p.status_slot;
    check.index_count = p.line_count * p.axis_extent;
    check.indices_word_offset = p.indices_word_offset;
    check.tuple_length = 1;
    check.extents[0] = p.axis_size;
  } else {
    const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
    const uint32_t tuple_length = step.spec[kSpecTupleLength];
    check.status_slot = p.status_slot;
    check.index_count = p.end_tuple * tuple_length;
    check.indices_word_offset = p.indices_word_offset;
    check.tuple_length = tuple_length;
    std::copy(std::begin(p.extents), std::end(p.extents), std::begin(check.extents));
  }
  index_sim_.selfCheck(step, check, step_index);
}

void ScatterMachine::walkElements(const Step& step) {
  const abi::ScatterElementsParams p = pushOf<abi::ScatterElementsParams>(step);
  BufferBinding indices = indexBinding(step);
  const uint32_t dims = step.spec[kSpecDimCount], index_words = step.spec[kSpecIndexWords];
  for (uint32_t line_step = 0; line_step < p.line_count && ok_; ++line_step) {
    const LineStart line = lineStart(p, dims, p.first_line + line_step);
    for (uint32_t i = p.axis_begin; i < p.axis_end; ++i) {
      const uint32_t position = line.update_base + i * line.axis_update_stride;
      const uint32_t target = elementTarget(indices, p, index_words, line, position);
      if (target >= p.target_begin && target < p.target_end) {
        apply(step, p.updates_word_offset, p.out_word_offset, target, position);
      }
    }
  }
}

void ScatterMachine::claimElements(const Step& step) {
  forEachElementUpdate(step, [&](const abi::ScatterElementsParams&, uint32_t position, uint32_t target) {
    uint32_t& entry = tableEntry(step, target, "claimed element");
    entry = std::max(entry, position + 1);
  });
}

// claim_word.glsl's store pass, as its worst race would leave the table: of one pass's (word, claim)
// pairs, a word that some claims exceed gets the lowest of them (all of them read the old word, then
// stored, the highest first). The fixup pass (modelled as the atomic claim: every claim still above
// the word raises it) must still end with the highest.
void ScatterMachine::storeLowestClaims(const Step& step, const std::vector<std::pair<uint32_t, uint32_t>>& claims,
                                       const char* what) {
  std::map<uint32_t, uint32_t> lowest_above;  // word -> the lowest claim above it
  for (const auto& [word, claim] : claims) {
    if (claim <= tableEntry(step, word, what)) continue;
    auto [it, inserted] = lowest_above.emplace(word, claim);
    if (!inserted) it->second = std::min(it->second, claim);
  }
  for (const auto& [word, stored] : lowest_above) tableEntry(step, word, what) = stored;
}

void ScatterMachine::storeElementClaims(const Step& step) {
  std::vector<std::pair<uint32_t, uint32_t>> claims;
  forEachElementUpdate(step, [&](const abi::ScatterElementsParams&, uint32_t position, uint32_t target) {
    claims.emplace_back(target, position + 1);
  });
  storeLowestClaims(step, claims, "stored element");
}

void ScatterMachine::clearElementClaims(const Step& step) {
  forEachElementUpdate(step, [&](const abi::ScatterElementsParams&, uint32_t, uint32_t target) {
    tableEntry(step, target, "cleared element") = 0;
  });
}

void ScatterMachine::writeElementWinners(const Step& step) {
  forEachElementUpdate(step, [&](const abi::ScatterElementsParams& p, uint32_t position, uint32_t target) {
    if (target >= p.target_begin && target < p.target_end && tableEntry(step, target, "element") == position + 1) {
      apply(step, p.updates_word_offset, p.out_word_offset, target, position);
    }
  });
}

// scatter_elements_write_by_target: every data element of [target_begin, target_end) copies the
// update its table entry names, if any. Entries the plan left unzeroed hold random words here.
void ScatterMachine::writeElementWinnersByTarget(const Step& step) {
  const abi::ScatterElementsParams p = pushOf<abi::ScatterElementsParams>(step);
  for (uint32_t target = p.target_begin; target < p.target_end && ok_; ++target) {
    const uint32_t winner = tableEntry(step, target, "element");
    if (winner != 0) apply(step, p.updates_word_offset, p.out_word_offset, target, winner - 1);
  }
}

// scatter_elements_write.comp's *_atomic module: every update of the pass whose target lies in its
// output window, in no order that the result depends on.
void ScatterMachine::applyElementsAtomically(const Step& step) {
  order_free_ = true;
  forEachElementUpdate(step, [&](const abi::ScatterElementsParams& p, uint32_t position, uint32_t target) {
    if (target >= p.target_begin && target < p.target_end) {
      apply(step, p.updates_word_offset, p.out_word_offset, target, position);
    }
  });
}

void ScatterMachine::walkTuples(const Step& step) {
  const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
  BufferBinding indices = indexBinding(step);
  const uint32_t k = step.spec[kSpecTupleLength], index_words = step.spec[kSpecIndexWords];
  for (uint32_t element = 0; element < p.slice_elements && ok_; ++element) {
    for (uint32_t n = p.first_tuple; n < p.end_tuple; ++n) {
      const uint32_t target = tupleRow(indices, p, k, index_words, n) * p.slice_elements + element;
      if (target >= p.target_begin && target < p.target_end) {
        apply(step, p.updates_word_offset, p.out_word_offset, target, n * p.slice_elements + element);
      }
    }
  }
}

void ScatterMachine::claim(const Step& step) {
  const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
  BufferBinding indices = indexBinding(step);
  for (uint32_t n = p.first_tuple; n < p.end_tuple && ok_; ++n) {
    const uint32_t row = tupleRow(indices, p, step.spec[kSpecTupleLength], step.spec[kSpecIndexWords], n);
    uint32_t& entry = tableEntry(step, row, "claimed row");
    entry = std::max(entry, n + 1);
  }
}

// The same store pass for ScatterND tuples.
void ScatterMachine::storeClaims(const Step& step) {
  const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
  BufferBinding indices = indexBinding(step);
  std::vector<std::pair<uint32_t, uint32_t>> claims;
  for (uint32_t n = p.first_tuple; n < p.end_tuple && ok_; ++n) {
    claims.emplace_back(tupleRow(indices, p, step.spec[kSpecTupleLength], step.spec[kSpecIndexWords], n), n + 1);
  }
  storeLowestClaims(step, claims, "stored row");
}

void ScatterMachine::clearClaims(const Step& step) {
  const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
  BufferBinding indices = indexBinding(step);
  for (uint32_t n = p.first_tuple; n < p.end_tuple && ok_; ++n) {
    tableEntry(step, tupleRow(indices, p, step.spec[kSpecTupleLength], step.spec[kSpecIndexWords], n), "cleared row") =
        0;
  }
}

void ScatterMachine::writeWinners(const Step& step) {
  forEachTupleElement(step, [&](const abi::ScatterNDParams& p, uint32_t n, uint32_t row, uint32_t element) {
    const uint32_t target = row * p.slice_elements + element;
    if (target >= p.target_begin && target < p.target_end && tableEntry(step, row, "row") == n + 1) {
      apply(step, p.updates_word_offset, p.out_word_offset, target, n * p.slice_elements + element);
    }
  });
}

// scatter_nd_write_by_target: every data element of [target_begin, target_end) copies its element of
// the slice of the tuple its row's table entry names, if any.
void ScatterMachine::writeWinnersByTarget(const Step& step) {
  const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
  for (uint32_t target = p.target_begin; target < p.target_end && ok_; ++target) {
    const uint32_t row = target / p.slice_elements, winner = tableEntry(step, row, "row");
    if (winner != 0) {
      apply(step, p.updates_word_offset, p.out_word_offset, target,
            (winner - 1) * p.slice_elements + target % p.slice_elements);
    }
  }
}

// scatter_nd_write.comp's *_atomic module: the same for every element of every tuple of the pass.
void ScatterMachine::applyTuplesAtomically(const Step& step) {
  order_free_ = true;
  forEachTupleElement(step, [&](const abi::ScatterNDParams& p, uint32_t n, uint32_t row, uint32_t element) {
    const uint32_t target = row * p.slice_elements + element;
    if (target >= p.target_begin && target < p.target_end) {
      apply(step, p.updates_word_offset, p.out_word_offset, target, n * p.slice_elements + element);
    }
  });
}

// Word `word` of scratch `window` (the shader's array index), which must lie inside the window.
uint32_t& ScatterMachine::scratchWord(const Window& window, uint64_t word, const char* what) {
  if ((word + 1) * 4 > window.size || window.offset / 4 + word >= scratch_.size()) {
    fail(std::string(what) + " word " + std::to_string(word) + " is outside its " + std::to_string(window.size) +
         "-byte scratch window");
    return ignored_;
  }
  return scratch_[window.offset / 4 + word];
}

// Entry `entry` of a winner table: the step's scratch binding.
uint32_t& ScatterMachine::tableEntry(const Step& step, uint32_t entry, const char* what) {
  winners_only_ = true;
  return scratchWord(*windowOf(step, Role::kScratch), entry, what);
}

// clear_words.comp on its scratch window.
void ScatterMachine::clear(const Step& step) {
  const abi::ClearWordsParams p = pushOf<abi::ClearWordsParams>(step);
  for (uint32_t w = 0; w < p.word_count && ok_; ++w)
    scratchWord(step.bindings[0].window, p.word_offset + w, "clear") = 0;
}

// scatter_nd_rows.comp: whole slices in units, the unit offsets divided from in-window word sums.
void ScatterMachine::writeWinnerRows(const Step& step) {
  const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
  BufferBinding indices = indexBinding(step);
  const uint32_t unit = scatterNDRowsUnitBytes(step.kernel);
  const uint32_t bytes = static_cast<uint32_t>(shape_.element_bytes), words_per_unit = unit / 4;
  const uint32_t slice_units = p.slice_elements * bytes / unit;
  for (uint32_t n = p.first_tuple; n < p.end_tuple && ok_; ++n) {
    const uint32_t row = tupleRow(indices, p, step.spec[kSpecTupleLength], step.spec[kSpecIndexWords], n);
    const uint32_t first_target = row * p.slice_elements;
    if (first_target < p.target_begin || first_target >= p.target_end) continue;
    if (isSelfCheckingScatterNDRowsKernel(step.kernel)) {
      // No table: the slice is written unless a later tuple of the pass addresses the same row.
      winners_only_ = true;
      bool later = false;
      for (uint32_t m = n + 1; m < p.end_tuple && !later; ++m) {
        later = tupleRow(indices, p, step.spec[kSpecTupleLength], step.spec[kSpecIndexWords], m) == row;
      }
      if (later) continue;
    } else if (tableEntry(step, row, "row") != n + 1) {
      continue;
    }
    const uint32_t source = (p.updates_word_offset + n * slice_units * words_per_unit) / words_per_unit;
    const uint32_t target = (p.out_word_offset + row * slice_units * words_per_unit) / words_per_unit;
    for (uint32_t u = 0; u < slice_units; ++u) {
      reach(*windowOf(step, Role::kUpdates), (source + u) * unit, unit,
            updates_.offset + uint64_t(n) * p.slice_elements * bytes + uint64_t(u) * unit, "updates");
      reach(*windowOf(step, Role::kOutput), (target + u) * unit, unit,
            output_.offset + uint64_t(first_target) * bytes + uint64_t(u) * unit, "output");
    }
    for (uint32_t e = 0; e < p.slice_elements; ++e) received_.at(first_target + e).push_back(n * p.slice_elements + e);
  }
}

// copy_words.comp, both modules: each byte of the copy lands at the same offset of the output as it
// had in data.
void ScatterMachine::copy(const Step& step) {
  const abi::CopyWordsParams p = pushOf<abi::CopyWordsParams>(step);
  const Window& source = *windowOf(step, Role::kData);
  const Window& target = *windowOf(step, Role::kOutput);
  const bool units = copyWordsUnitBytes(step.kernel) == 16;
  const uint32_t size = units ? 16 : 4, count = units ? p.byte_count / 16 : (p.byte_count + 3) / 4;
  const uint32_t source_first = units ? p.source_word_offset / 4 * 16 : p.source_word_offset * 4;
  const uint32_t target_first = units ? p.target_word_offset / 4 * 16 : p.target_word_offset * 4;
  for (uint32_t i = 0; i < count && ok_; ++i) {
    const uint32_t moved = units || i + 1 < count || p.byte_count % 4 == 0 ? size : p.byte_count % 4;
    const uint64_t from = source.offset + source_first + uint64_t(i) * size - data_.offset;
    reach(source, source_first + i * size, size, data_.offset + from, "copied data");
    reach(target, target_first + i * size, size, output_.offset + from, "copy output");
    for (uint64_t b = from; b < from + moved && ok_; ++b) {
      if (b >= copied_.size()) return fail("copy wrote past the output");
      ++copied_[b];
    }
  }
}

void ScatterMachine::expectCopiedOnce() {
  if (c_.in_place) return;
  for (size_t b = 0; b < copied_.size(); ++b) {
    if (copied_[b] != 1)
      return fail("output byte " + std::to_string(b) + " copied " + std::to_string(copied_[b]) + " times");
  }
}

// Every data element received exactly the updates that address it, in index order; where a winner
// table decided, only the last of them.
void ScatterMachine::expectReceived() {
  const std::vector<int64_t>& values = index_sim_.values();
  std::vector<std::vector<uint32_t>> expected(received_.size());
  const Shape& data = c_.data_shape;
  if (c_.nd) {
    const size_t k = static_cast<size_t>(c_.indices_shape.back());
    // Tuples from indices' shape, not from its values: with k = 0 the indices hold none. Empty slices
    // receive nothing, however many tuples there are.
    const Shape& tuple_dims = c_.indices_shape;
    const uint64_t slice = product(data, k, data.size());
    const uint64_t tuples = slice == 0 ? 0 : product(tuple_dims, 0, tuple_dims.size() - 1);
    for (uint64_t n = 0; n < tuples; ++n) {
      uint64_t row = 0;
      for (size_t component = 0; component < k; ++component) {
        const int64_t s = data[component], v = values[n * k + component];
        row = row * static_cast<uint64_t>(s) + static_cast<uint64_t>(v < 0 ? v + s : v);
      }
      for (uint64_t e = 0; e < slice; ++e) expected[row * slice + e].push_back(static_cast<uint32_t>(n * slice + e));
    }
  } else {
    const size_t rank = data.size();
    const size_t axis = static_cast<size_t>(c_.axis < 0 ? c_.axis + static_cast<int64_t>(rank) : c_.axis);
    for (uint64_t position = 0; position < values.size(); ++position) {
      uint64_t rest = position, target = 0, stride = 1;
      for (size_t d = rank; d-- > 0;) {
        const uint64_t extent = static_cast<uint64_t>(c_.indices_shape[d]);
        uint64_t coordinate = rest % extent;
        rest /= extent;
        if (d == axis) {
          const int64_t s = data[axis], v = values[position];
          coordinate = static_cast<uint64_t>(v < 0 ? v + s : v);
        }
        target += coordinate * stride;
        stride *= static_cast<uint64_t>(data[d]);
      }
      expected[target].push_back(static_cast<uint32_t>(position));
    }
  }
  for (size_t t = 0; t < expected.size(); ++t) {
    if (winners_only_ && expected[t].size() > 1) expected[t].erase(expected[t].begin(), expected[t].end() - 1);
    // Atomics apply every update once, in any order: only integer reductions whose bits do not depend on it.
    if (order_free_) std::sort(received_[t].begin(), received_[t].end());
    if (received_[t] != expected[t]) {
      return fail("data element " + std::to_string(t) + " received " + std::to_string(received_[t].size()) +
                  " updates (first " + (received_[t].empty() ? "-" : std::to_string(received_[t][0])) + "), expected " +
                  std::to_string(expected[t].size()) + " (first " +
                  (expected[t].empty() ? "-" : std::to_string(expected[t][0])) + ")");
    }
  }
}

uint64_t scatterWork(const OpPlan& plan) {
  uint64_t work = 0;
  for (const Step& step : plan.steps) {
    if (isElementsWalk(step.kernel) || step.kernel == Kernel::kScatterElementsClaim ||
        step.kernel == Kernel::kScatterElementsClearClaims || step.kernel == Kernel::kScatterElementsClaimStore ||
        step.kernel == Kernel::kScatterElementsClaimFixup || step.kernel == Kernel::kScatterElementsWrite ||
        step.kernel == Kernel::kScatterElementsWriteByTarget || step.kernel == Kernel::kScatterElementsLocate ||
        step.kernel == Kernel::kScatterElementsAtomic) {
      const abi::ScatterElementsParams p = pushOf<abi::ScatterElementsParams>(step);
      work += uint64_t(p.line_count) * (p.axis_end - p.axis_begin);
    } else if (isTupleWalk(step.kernel) || isWinnerKernel(step.kernel) || step.kernel == Kernel::kScatterNDLocate ||
               step.kernel == Kernel::kScatterNDAtomic) {
      const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
      work += uint64_t(p.slice_elements) * (p.end_tuple - p.first_tuple);
    }
  }
  return work;
}

std::string describe(const ScatterCase& c) {
  return std::string(c.nd ? "ScatterND" : "ScatterElements") + " data " + shapeString(c.data_shape) + " " +
         dataTypeName(c.data_type) + ", indices " + shapeString(c.indices_shape) + " " + dataTypeName(c.index_type) +
         (c.nd ? "" : ", axis " + std::to_string(c.axis)) + ", reduction " + reductionName(c.reduction) +
         (c.in_place ? ", in place" : "") + ", offsets " + std::to_string(c.data_offset) + "/" +
         std::to_string(c.indices_offset) + "/" + std::to_string(c.updates_offset) + "/" +
         std::to_string(c.output_offset) + ", " + deviceString(c.device);
}

Status simulateScatter(const ScatterCase& c, uint32_t seed) {
  Shape updates_shape = c.indices_shape;
  if (c.nd) {
    updates_shape.pop_back();
    const size_t k = static_cast<size_t>(c.indices_shape.back());
    updates_shape.insert(updates_shape.end(), c.data_shape.begin() + static_cast<std::ptrdiff_t>(k),
                         c.data_shape.end());
  }
  StatusOr<ScatterShape> shape =
      c.nd ? inferScatterNDShape(c.data_shape, c.data_type, c.indices_shape, c.index_type, updates_shape, c.data_type,
                                 c.reduction)
           : inferScatterElementsShape(c.data_shape, c.data_type, c.indices_shape, c.index_type, updates_shape,
                                       c.data_type, c.axis, c.reduction);
  if (!shape.ok()) return shape.status();
  const uint64_t element_bytes = shape->element_bytes;
  const uint64_t index_bytes = c.index_type == DataType::kInt64 ? 8 : 4;
  const Placement data{c.data_offset, product(c.data_shape, 0, c.data_shape.size()) * element_bytes};
  const Placement indices{c.indices_offset, product(c.indices_shape, 0, c.indices_shape.size()) * index_bytes};
  const Placement updates{c.updates_offset, product(updates_shape, 0, updates_shape.size()) * element_bytes};
  const Placement output = c.in_place ? data : Placement{c.output_offset, data.bytes};
  StatusOr<OpPlan> plan = planScatter(*shape, data, indices, updates, output, c.in_place, c.device, c.device);
  if (!plan.ok()) return plan.status();
  std::mt19937 rng(seed);
  ScatterMachine simulation(c, *shape, data, indices, updates, output, rng);
  simulation.run(*plan);
  return Status::Ok();
}

}  // namespace vkindex::plan::test
