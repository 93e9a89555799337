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

// One simulated scatter: its tensors' placements, the indices and status slot, and what every data
// element received.
class Simulation {
 public:
  Simulation(const ScatterCase& c, const ScatterShape& shape, Placement data, Placement indices, Placement updates,
             Placement output, std::mt19937& rng)
      : c_(c),
        shape_(shape),
        data_(data),
        indices_(indices),
        updates_(updates),
        output_(output),
        index_buffer_(randomBuffer(indices, rng)),
        index_sim_(shape.check, indices, index_buffer_, randomIndices(shape.check, {}, rng), ok_),
        received_(output.bytes / shape.element_bytes),
        copied_(output.bytes, 0),
        rng_(rng()) {}

  void run(const OpPlan& plan) {
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
          return b.role == Role::kOutput && output && b.window.offset == output->offset &&
                 b.window.size == output->size;
        });
        if (output_written && !waits) fail("step " + std::to_string(i) + " writes the output without a barrier");
      }
      output_written = output_written || writesOutput(step.kernel);
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

 private:
  void fail(const std::string& what) {
    if (ok_) ADD_FAILURE() << what;
    ok_ = false;
  }

  // Byte `byte` of `window` (as the kernel forms it, modulo 2^32) must lie inside the window with
  // `count` bytes after it, and be byte `expected` of the buffer.
  void reach(const Window& window, uint32_t byte, uint32_t count, uint64_t expected, const char* what) {
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
  BufferBinding indexBinding(const Step& step) {
    const Window* window = windowOf(step, Role::kIndices);
    return BufferBinding(index_buffer_, window != nullptr ? *window : Window{}, "indices", ok_);
  }

  // index_tuples.glsl's tupleRow.
  uint32_t tupleRow(BufferBinding& indices, const abi::ScatterNDParams& p, uint32_t k, uint32_t index_words,
                    uint32_t tuple) {
    const uint32_t first_word = p.indices_word_offset + tuple * k * index_words;
    uint32_t row = 0;
    for (uint32_t component = 0; component < k; ++component) {
      row = row * p.extents[component] +
            normalizeIndex(loadIndex(indices, first_word, component, index_words), p.extents[component]);
    }
    return row;
  }

  // scatter_apply.glsl's applyElement, as addresses: update element `source` into data element `target`.
  void apply(const Step& step, uint32_t updates_word, uint32_t out_word, uint32_t target, uint32_t source) {
    const uint32_t bytes = static_cast<uint32_t>(shape_.element_bytes);
    reach(*windowOf(step, Role::kUpdates), updates_word * 4u + source * bytes, bytes,
          updates_.offset + uint64_t(source) * bytes, "updates");
    reach(*windowOf(step, Role::kOutput), out_word * 4u + target * bytes, bytes,
          output_.offset + uint64_t(target) * bytes, "output");
    if (target >= received_.size()) return fail("target " + std::to_string(target) + " is past the data");
    received_[target].push_back(source);
  }

  // element_lines.glsl's lineStart: line `line`'s data element at axis coordinate 0, its update at
  // axis position 0, and the step between its updates.
  struct LineStart {
    uint32_t data_base = 0, update_base = 0, axis_update_stride = 1;
  };
  static LineStart lineStart(const abi::ScatterElementsParams& p, uint32_t dims, uint32_t line) {
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
  uint32_t elementTarget(BufferBinding& indices, const abi::ScatterElementsParams& p, uint32_t index_words,
                         const LineStart& line, uint32_t position) {
    const uint32_t index =
        normalizeIndex(loadIndex(indices, p.indices_word_offset, position, index_words), p.axis_size);
    return line.data_base + index * p.data_strides[p.axis_dim];
  }

  void walkElements(const Step& step) {
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

  // element_lines.glsl's locateUpdate, item by item: calls `visit(position, target)` for each update of
  // the pass, in the kernel's item order.
  template <typename Visit>
  void forEachElementUpdate(const Step& step, Visit visit) {
    const abi::ScatterElementsParams p = pushOf<abi::ScatterElementsParams>(step);
    BufferBinding indices = indexBinding(step);
    const uint32_t dims = step.spec[kSpecDimCount], index_words = step.spec[kSpecIndexWords];
    const uint32_t axis_count = p.axis_end - p.axis_begin, count = p.line_count * axis_count;
    for (uint32_t item = 0; item < count && ok_; ++item) {
      uint32_t line_step = 0, axis_step = 0;
      if (p.axis_dim == dims - 1) {
        line_step = item / axis_count;
        axis_step = item - line_step * axis_count;
      } else {
        axis_step = item / p.line_count;
        line_step = item - axis_step * p.line_count;
      }
      const LineStart line = lineStart(p, dims, p.first_line + line_step);
      const uint32_t position = line.update_base + (p.axis_begin + axis_step) * line.axis_update_stride;
      visit(p, position, elementTarget(indices, p, index_words, line, position));
    }
  }

  void claimElements(const Step& step) {
    forEachElementUpdate(step, [&](const abi::ScatterElementsParams&, uint32_t position, uint32_t target) {
      uint32_t& entry = tableEntry(step, target, "claimed element");
      entry = std::max(entry, position + 1);
    });
  }

  // claim_word.glsl's store pass, as its worst race would leave the table: of one pass's (word, claim)
  // pairs, a word that some claims exceed gets the lowest of them (all of them read the old word, then
  // stored, the highest first). The fixup pass (modelled as the atomic claim: every claim still above
  // the word raises it) must still end with the highest.
  void storeLowestClaims(const Step& step, const std::vector<std::pair<uint32_t, uint32_t>>& claims, const char* what) {
    std::map<uint32_t, uint32_t> lowest_above;  // word -> the lowest claim above it
    for (const auto& [word, claim] : claims) {
      if (claim <= tableEntry(step, word, what)) continue;
      auto [it, inserted] = lowest_above.emplace(word, claim);
      if (!inserted) it->second = std::min(it->second, claim);
    }
    for (const auto& [word, stored] : lowest_above) tableEntry(step, word, what) = stored;
  }

  void storeElementClaims(const Step& step) {
    std::vector<std::pair<uint32_t, uint32_t>> claims;
    forEachElementUpdate(step, [&](const abi::ScatterElementsParams&, uint32_t position, uint32_t target) {
      claims.emplace_back(target, position + 1);
    });
    storeLowestClaims(step, claims, "stored element");
  }

  void clearElementClaims(const Step& step) {
    forEachElementUpdate(step, [&](const abi::ScatterElementsParams&, uint32_t, uint32_t target) {
      tableEntry(step, target, "cleared element") = 0;
    });
  }

  void writeElementWinners(const Step& step) {
    forEachElementUpdate(step, [&](const abi::ScatterElementsParams& p, uint32_t position, uint32_t target) {
      if (target >= p.target_begin && target < p.target_end && tableEntry(step, target, "element") == position + 1) {
        apply(step, p.updates_word_offset, p.out_word_offset, target, position);
      }
    });
  }

  // scatter_elements_write_by_target: every data element of [target_begin, target_end) copies the
  // update its table entry names, if any. Entries the plan left unzeroed hold random words here.
  void writeElementWinnersByTarget(const Step& step) {
    const abi::ScatterElementsParams p = pushOf<abi::ScatterElementsParams>(step);
    for (uint32_t target = p.target_begin; target < p.target_end && ok_; ++target) {
      const uint32_t winner = tableEntry(step, target, "element");
      if (winner != 0) apply(step, p.updates_word_offset, p.out_word_offset, target, winner - 1);
    }
  }

  // scatter_elements_write.comp's *_atomic module: every update of the pass whose target lies in its
  // output window, in no order that the result depends on.
  void applyElementsAtomically(const Step& step) {
    order_free_ = true;
    forEachElementUpdate(step, [&](const abi::ScatterElementsParams& p, uint32_t position, uint32_t target) {
      if (target >= p.target_begin && target < p.target_end) {
        apply(step, p.updates_word_offset, p.out_word_offset, target, position);
      }
    });
  }

  void walkTuples(const Step& step) {
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

  void claim(const Step& step) {
    const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
    BufferBinding indices = indexBinding(step);
    for (uint32_t n = p.first_tuple; n < p.end_tuple && ok_; ++n) {
      const uint32_t row = tupleRow(indices, p, step.spec[kSpecTupleLength], step.spec[kSpecIndexWords], n);
      uint32_t& entry = tableEntry(step, row, "claimed row");
      entry = std::max(entry, n + 1);
    }
  }

  // The same store pass for ScatterND tuples.
  void storeClaims(const Step& step) {
    const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
    BufferBinding indices = indexBinding(step);
    std::vector<std::pair<uint32_t, uint32_t>> claims;
    for (uint32_t n = p.first_tuple; n < p.end_tuple && ok_; ++n) {
      claims.emplace_back(tupleRow(indices, p, step.spec[kSpecTupleLength], step.spec[kSpecIndexWords], n), n + 1);
    }
    storeLowestClaims(step, claims, "stored row");
  }

  void clearClaims(const Step& step) {
    const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
    BufferBinding indices = indexBinding(step);
    for (uint32_t n = p.first_tuple; n < p.end_tuple && ok_; ++n) {
      tableEntry(step, tupleRow(indices, p, step.spec[kSpecTupleLength], step.spec[kSpecIndexWords], n),
                 "cleared row") = 0;
    }
  }

  // scatter_nd_write.comp's and scatter_nd_locate.comp's item order: calls `visit(p, n, row, element)`
  // for every element of every tuple of the pass, one invocation's item at a time.
  template <typename Visit>
  void forEachTupleElement(const Step& step, Visit visit) {
    const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
    BufferBinding indices = indexBinding(step);
    const uint32_t count = (p.end_tuple - p.first_tuple) * p.slice_elements;
    for (uint32_t i = 0; i < count && ok_; ++i) {
      const uint32_t n = p.first_tuple + i / p.slice_elements;
      const uint32_t element = i - (n - p.first_tuple) * p.slice_elements;
      visit(p, n, tupleRow(indices, p, step.spec[kSpecTupleLength], step.spec[kSpecIndexWords], n), element);
    }
  }

  void writeWinners(const Step& step) {
    forEachTupleElement(step, [&](const abi::ScatterNDParams& p, uint32_t n, uint32_t row, uint32_t element) {
      const uint32_t target = row * p.slice_elements + element;
      if (target >= p.target_begin && target < p.target_end && tableEntry(step, row, "row") == n + 1) {
        apply(step, p.updates_word_offset, p.out_word_offset, target, n * p.slice_elements + element);
      }
    });
  }

  // scatter_nd_write_by_target: every data element of [target_begin, target_end) copies its element of
  // the slice of the tuple its row's table entry names, if any.
  void writeWinnersByTarget(const Step& step) {
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
  void applyTuplesAtomically(const Step& step) {
    order_free_ = true;
    forEachTupleElement(step, [&](const abi::ScatterNDParams& p, uint32_t n, uint32_t row, uint32_t element) {
      const uint32_t target = row * p.slice_elements + element;
      if (target >= p.target_begin && target < p.target_end) {
        apply(step, p.updates_word_offset, p.out_word_offset, target, n * p.slice_elements + element);
      }
    });
  }

  // Word `word` of scratch `window` (the shader's array index), which must lie inside the window.
  uint32_t& scratchWord(const Window& window, uint64_t word, const char* what) {
    if ((word + 1) * 4 > window.size || window.offset / 4 + word >= scratch_.size()) {
      fail(std::string(what) + " word " + std::to_string(word) + " is outside its " + std::to_string(window.size) +
           "-byte scratch window");
      return ignored_;
    }
    return scratch_[window.offset / 4 + word];
  }

  // Entry `entry` of a winner table: the step's scratch binding.
  uint32_t& tableEntry(const Step& step, uint32_t entry, const char* what) {
    winner_table_ = true;
    return scratchWord(*windowOf(step, Role::kScratch), entry, what);
  }

  // clear_words.comp on its scratch window.
  void clear(const Step& step) {
    const abi::ClearWordsParams p = pushOf<abi::ClearWordsParams>(step);
    for (uint32_t w = 0; w < p.word_count && ok_; ++w)
      scratchWord(step.bindings[0].window, p.word_offset + w, "clear") = 0;
  }

  // The locate passes' body: update `position` records its target and zeroes the target's count.
  // Bindings 1 and 2 are the targets and counts windows.
  void locate(const Step& step, uint32_t position, uint32_t target) {
    if (target >= received_.size()) return fail("located target " + std::to_string(target) + " is past the data");
    if (target & VKINDEX_TARGET_LEADER) return fail("target " + std::to_string(target) + " has the leader bit");
    scratchWord(step.bindings[1].window, position, "targets") = target;
    scratchWord(step.bindings[2].window, target, "counts") = 0;
  }

  void locateTuples(const Step& step) {
    forEachTupleElement(step, [&](const abi::ScatterNDParams& p, uint32_t n, uint32_t row, uint32_t element) {
      locate(step, n * p.slice_elements + element, row * p.slice_elements + element);
    });
  }

  // Word `word` of the bucket kernels' whole-scratch binding (binding 0 for alloc and fill, 2 for the fold).
  uint32_t& bucketWord(const Step& step, uint64_t word) {
    return scratchWord(*windowOf(step, Role::kScratch), word, "bucket scratch");
  }

  // Update positions in a random order: the kernels' invocations run in any order, and the fold must
  // not care.
  std::vector<uint32_t> shuffled(uint32_t count) {
    std::vector<uint32_t> order(count);
    for (uint32_t i = 0; i < count; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng_);
    return order;
  }

  bool heavy(const abi::BucketParams& p, const Step& step, uint32_t target) {
    return bucketWord(step, p.counts_at + target) > VKINDEX_MAX_BUCKET;
  }

  // Update `position`'s target, without the leader mark.
  uint32_t targetOf(const abi::BucketParams& p, const Step& step, uint32_t position) {
    return bucketWord(step, p.targets_at + position) & ~VKINDEX_TARGET_LEADER;
  }

  // Update `position`'s target if it leads it, else nothing.
  std::optional<uint32_t> ledTarget(const abi::BucketParams& p, const Step& step, uint32_t position) {
    const uint32_t marked = bucketWord(step, p.targets_at + position);
    if ((marked & VKINDEX_TARGET_LEADER) == 0) return std::nullopt;
    return marked & ~VKINDEX_TARGET_LEADER;
  }

  // A control word after the counts (VKINDEX_BUCKET_CURSOR, VKINDEX_OWNER_COUNT, VKINDEX_HEAVY_*).
  uint32_t& control(const abi::BucketParams& p, const Step& step, uint32_t word) {
    return bucketWord(step, uint64_t(p.counts_at) + p.target_count + word);
  }

  // The groups an indirect step dispatches: its VkDispatchIndirectCommand in scratch, which must be
  // written (whatever the status) and within the step's groups.
  uint64_t indirectGroups(const Step& step) {
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
  void countBuckets(const Step& step) {
    const abi::BucketParams p = pushOf<abi::BucketParams>(step);
    for (uint32_t word = 0; word < VKINDEX_BUCKET_CONTROL_WORDS; ++word) control(p, step, word) = 0;
    for (uint32_t position : shuffled(p.update_count)) {
      uint32_t& marked = bucketWord(step, p.targets_at + position);
      if (!ok_) return;
      if (bucketWord(step, p.counts_at + marked)++ == 0) marked |= VKINDEX_TARGET_LEADER;
    }
  }

  void allocateBuckets(const Step& step) {
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
  static uint32_t digitPassesNeeded(const abi::BucketParams& p, uint32_t heavy) {
    uint32_t passes = 1;
    while (passes < p.digit_passes && ((heavy - 1) >> (passes * VKINDEX_SORT_DIGIT_BITS)) != 0) ++passes;
    return passes;
  }

  // heavy_plan.comp: every heavy pass's indirect command, zeroed after a bad index.
  void planHeavyPasses(const Step& step, bool bad) {
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
  void scanHeavy(const Step& step) {
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
  uint32_t sortedAt(const abi::BucketParams& p, const Step& step, uint32_t pass) {
    return pass % 2 == 0 ? p.buckets_at + control(p, step, VKINDEX_BUCKET_CURSOR) : p.sorted_at;
  }

  // Where digit pass `pass` leaves its items' heavy ids (common/heavy_sort.glsl): `keys`, or `targets`.
  static uint32_t keysAt(const abi::BucketParams& p, uint32_t pass) { return pass % 2 == 0 ? p.keys_at : p.targets_at; }

  // Heavy update `position`'s heavy id, which bucket_fill.comp left in targets[] in place of its target
  // (the first digit pass reads it there; later ones may have overwritten it).
  std::optional<uint32_t> heavyIdOf(const abi::BucketParams& p, const Step& step, uint32_t position) {
    const uint32_t marked = bucketWord(step, p.targets_at + position);
    if ((marked & VKINDEX_TARGET_HEAVY) == 0) return std::nullopt;
    return marked & ~VKINDEX_TARGET_HEAVY;
  }

  // The heavy id bucket_fill.comp gave heavy update `position`, or nothing for a light one.
  std::optional<uint32_t> givenHeavyId(uint32_t position) const {
    const auto given = given_heavy_ids_.find(position);
    if (given == given_heavy_ids_.end()) return std::nullopt;
    return given->second;
  }

  struct SortItem {
    uint32_t position, heavy_id, digit;
  };

  // Digit pass `pass`'s item `item`: its update position and heavy id (nothing for a light one), and
  // its digit. The first pass reads the id in targets[]; later ones read the id the pass before left
  // beside the position, which must be the one bucket_fill.comp gave that position.
  std::optional<SortItem> sortItem(const abi::BucketParams& p, const Step& step, uint32_t item) {
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

  // Calls `visit(tile, item)` for digit pass p.pass's items in order, tile by tile, over the tiles
  // the indirect command dispatches.
  template <typename Visit>
  void forEachSortItem(const Step& step, Visit visit) {
    const abi::BucketParams p = pushOf<abi::BucketParams>(step);
    const uint32_t tile_items = step.spec[kSpecWorkgroupSize] * VKINDEX_SORT_RUN;
    const uint32_t items = p.pass == 0 ? p.update_count : control(p, step, VKINDEX_HEAVY_UPDATES);
    const uint64_t tiles = indirectGroups(step);
    if (uint64_t(items) > tiles * tile_items) return fail("digit pass over " + std::to_string(tiles) + " tiles");
    for (uint32_t item = 0; item < items && ok_; ++item) {
      if (const std::optional<SortItem> sorted = sortItem(p, step, item)) visit(item / tile_items, *sorted);
    }
  }

  // heavy_sort_count.comp: each tile's digit counts (zero for a tile without heavy items).
  void countDigits(const Step& step) {
    const abi::BucketParams p = pushOf<abi::BucketParams>(step);
    for (uint64_t tile = 0; tile < indirectGroups(step); ++tile) {
      for (uint32_t d = 0; d < VKINDEX_SORT_DIGITS; ++d) bucketWord(step, p.tiles_at + d * p.tile_count + tile) = 0;
    }
    forEachSortItem(step, [&](uint32_t tile, const SortItem& item) {
      ++bucketWord(step, p.tiles_at + item.digit * p.tile_count + tile);
    });
  }

  // heavy_sort_scatter.comp: each item to its (digit, tile)'s next place, in order.
  void scatterDigits(const Step& step) {
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

  void fillBuckets(const Step& step) {
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

  // Calls visit(target, first, end) for every light target's bucket, words [first, end) of scratch, in
  // no particular order, as bucket_sort.comp and scatter_fold.comp's light pass visit their owners;
  // `long_ones`: only the long buckets', through long_owners, as bucket_sort.comp's LONG_BUCKETS pass.
  template <typename Visit>
  void forEachLightBucket(const Step& step, Visit visit, bool long_ones = false) {
    const abi::BucketParams p = pushOf<abi::BucketParams>(step);
    const uint32_t owners = control(p, step, long_ones ? VKINDEX_LONG_OWNER_COUNT : VKINDEX_OWNER_COUNT);
    // llvmpipe ends a shader's loops after 65535 iterations: an invocation takes at most 64 targets.
    if (owners > step.groups * step.spec[kSpecWorkgroupSize] * 64) {
      return fail(std::to_string(owners) + " owners for " + std::to_string(step.groups) + " groups");
    }
    for (uint32_t owner : shuffled(owners)) {
      const uint32_t t = bucketWord(step, (long_ones ? p.long_owners_at : p.owners_at) + owner);
      const uint32_t n = bucketWord(step, p.counts_at + t);
      if (!ok_) return;
      const uint32_t end = p.buckets_at + bucketWord(step, p.cursors_at + t);
      visit(t, end - n, end);
      if (!ok_) return;
    }
  }

  // bucket_sort.comp: light buckets sorted ascending, in place: up to VKINDEX_REGISTER_BUCKET positions
  // among all owners, or (LONG_BUCKETS, spec[kSpecLongBuckets]) the longer ones, among the long owners.
  void sortBuckets(const Step& step) {
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
  void fold(const Step& step) {
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

  // scatter_nd_rows.comp: whole slices in units, the unit offsets divided from in-window word sums.
  void writeWinnerRows(const Step& step) {
    const abi::ScatterNDParams p = pushOf<abi::ScatterNDParams>(step);
    BufferBinding indices = indexBinding(step);
    const uint32_t unit = scatterNDRowsUnitBytes(step.kernel);
    const uint32_t bytes = static_cast<uint32_t>(shape_.element_bytes), words_per_unit = unit / 4;
    const uint32_t slice_units = p.slice_elements * bytes / unit;
    for (uint32_t n = p.first_tuple; n < p.end_tuple && ok_; ++n) {
      const uint32_t row = tupleRow(indices, p, step.spec[kSpecTupleLength], step.spec[kSpecIndexWords], n);
      const uint32_t first_target = row * p.slice_elements;
      if (first_target < p.target_begin || first_target >= p.target_end || tableEntry(step, row, "row") != n + 1) {
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
      for (uint32_t e = 0; e < p.slice_elements; ++e)
        received_.at(first_target + e).push_back(n * p.slice_elements + e);
    }
  }

  // copy_words.comp, both modules: each byte of the copy lands at the same offset of the output as it
  // had in data.
  void copy(const Step& step) {
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

  void expectCopiedOnce() {
    if (c_.in_place) return;
    for (size_t b = 0; b < copied_.size(); ++b) {
      if (copied_[b] != 1)
        return fail("output byte " + std::to_string(b) + " copied " + std::to_string(copied_[b]) + " times");
    }
  }

  // Every data element received exactly the updates that address it, in index order; where a winner
  // table decided, only the last of them.
  void expectReceived() {
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
      if (winner_table_ && expected[t].size() > 1) expected[t].erase(expected[t].begin(), expected[t].end() - 1);
      // Atomics apply every update once, in any order: only integer reductions whose bits do not depend on it.
      if (order_free_) std::sort(received_[t].begin(), received_[t].end());
      if (received_[t] != expected[t]) {
        return fail("data element " + std::to_string(t) + " received " + std::to_string(received_[t].size()) +
                    " updates (first " + (received_[t].empty() ? "-" : std::to_string(received_[t][0])) +
                    "), expected " + std::to_string(expected[t].size()) + " (first " +
                    (expected[t].empty() ? "-" : std::to_string(expected[t][0])) + ")");
      }
    }
  }

  const ScatterCase& c_;
  const ScatterShape& shape_;
  Placement data_, indices_, updates_, output_;
  bool ok_ = true;
  std::vector<uint8_t> index_buffer_;
  IndexSimulator index_sim_;
  std::vector<std::vector<uint32_t>> received_;
  std::vector<uint32_t> copied_;
  std::vector<uint32_t> scratch_;  // the plan's scratch memory, in words
  // The heavy id bucket_fill.comp gave each heavy update position, against which the sort's items
  // and the heavy fold's runs are checked.
  std::unordered_map<uint32_t, uint32_t> given_heavy_ids_;
  uint32_t ignored_ = 0;  // what an access outside scratch reads and writes, after fail()
  bool winner_table_ = false;
  bool order_free_ = false;
  std::mt19937 rng_;
};

}  // namespace

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
  Simulation simulation(c, *shape, data, indices, updates, output, rng);
  simulation.run(*plan);
  return Status::Ok();
}

}  // namespace vkindex::plan::test
