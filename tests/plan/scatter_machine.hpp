// The scatter simulator's machine (scatter_simulator.hpp says what it checks): one simulated scatter,
// its tensors' placements, the indices and status slot, scratch memory and what every data element
// received. Its passes are defined in scatter_simulator.cpp (copies, walks, winner tables, atomics and
// the final checks) and scatter_fold_simulator.cpp (the fold by owner: locate, buckets, heavy sort and
// fold). Internal to the plan tests.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/scatter_buckets_params.h"
#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"
#include "scatter_simulator.hpp"
#include "simulator_support.hpp"

namespace vkindex::plan::test {

// One simulated scatter: its tensors' placements, the indices and status slot, and what every data
// element received.
class ScatterMachine {
 public:
  ScatterMachine(const ScatterCase& c, const ScatterShape& shape, Placement data, Placement indices, Placement updates,
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

  void run(const OpPlan& plan);

 private:
  void fail(const std::string& what) {
    if (ok_) ADD_FAILURE() << what;
    ok_ = false;
  }

  // Byte `byte` of `window` (as the kernel forms it, modulo 2^32) must lie inside the window with
  // `count` bytes after it, and be byte `expected` of the buffer.
  void reach(const Window& window, uint32_t byte, uint32_t count, uint64_t expected, const char* what);

  // A step over tuples of no components (ScatterND, k = 0) binds no indices: an empty window, so that
  // any index read it made would fail the simulation.
  BufferBinding indexBinding(const Step& step);

  // index_tuples.glsl's tupleRow.
  uint32_t tupleRow(BufferBinding& indices, const abi::ScatterNDParams& p, uint32_t k, uint32_t index_words,
                    uint32_t tuple);

  // scatter_apply.glsl's applyElement, as addresses: update element `source` into data element `target`.
  void apply(const Step& step, uint32_t updates_word, uint32_t out_word, uint32_t target, uint32_t source);

  // element_lines.glsl's lineStart: line `line`'s data element at axis coordinate 0, its update at
  // axis position 0, and the step between its updates.
  struct LineStart {
    uint32_t data_base = 0, update_base = 0, axis_update_stride = 1;
  };
  static LineStart lineStart(const abi::ScatterElementsParams& p, uint32_t dims, uint32_t line);

  // The data element update `position` addresses.
  uint32_t elementTarget(BufferBinding& indices, const abi::ScatterElementsParams& p, uint32_t index_words,
                         const LineStart& line, uint32_t position);

  void selfCheck(const Step& step, size_t step_index);
  void walkElements(const Step& step);

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

  void claimElements(const Step& step);

  // claim_word.glsl's store pass, as its worst race would leave the table: of one pass's (word, claim)
  // pairs, a word that some claims exceed gets the lowest of them (all of them read the old word, then
  // stored, the highest first). The fixup pass (modelled as the atomic claim: every claim still above
  // the word raises it) must still end with the highest.
  void storeLowestClaims(const Step& step, const std::vector<std::pair<uint32_t, uint32_t>>& claims, const char* what);

  void storeElementClaims(const Step& step);

  void clearElementClaims(const Step& step);

  void writeElementWinners(const Step& step);

  // scatter_elements_write_by_target: every data element of [target_begin, target_end) copies the
  // update its table entry names, if any. Entries the plan left unzeroed hold random words here.
  void writeElementWinnersByTarget(const Step& step);

  // scatter_elements_write.comp's *_atomic module: every update of the pass whose target lies in its
  // output window, in no order that the result depends on.
  void applyElementsAtomically(const Step& step);

  void walkTuples(const Step& step);

  void claim(const Step& step);

  // The same store pass for ScatterND tuples.
  void storeClaims(const Step& step);

  void clearClaims(const Step& step);

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

  void writeWinners(const Step& step);

  // scatter_nd_write_by_target: every data element of [target_begin, target_end) copies its element of
  // the slice of the tuple its row's table entry names, if any.
  void writeWinnersByTarget(const Step& step);

  // scatter_nd_write.comp's *_atomic module: the same for every element of every tuple of the pass.
  void applyTuplesAtomically(const Step& step);

  // Word `word` of scratch `window` (the shader's array index), which must lie inside the window.
  uint32_t& scratchWord(const Window& window, uint64_t word, const char* what);

  // Entry `entry` of a winner table: the step's scratch binding.
  uint32_t& tableEntry(const Step& step, uint32_t entry, const char* what);

  // clear_words.comp on its scratch window.
  void clear(const Step& step);

  // The locate passes' body: update `position` records its target and zeroes the target's count.
  // Bindings 1 and 2 are the targets and counts windows.
  void locate(const Step& step, uint32_t position, uint32_t target);

  void locateTuples(const Step& step);

  // Word `word` of the bucket kernels' whole-scratch binding (binding 0 for alloc and fill, 2 for the fold).
  uint32_t& bucketWord(const Step& step, uint64_t word);

  // Update positions in a random order: the kernels' invocations run in any order, and the fold must
  // not care.
  std::vector<uint32_t> shuffled(uint32_t count);

  bool heavy(const abi::BucketParams& p, const Step& step, uint32_t target);

  // Update `position`'s target, without the leader mark.
  uint32_t targetOf(const abi::BucketParams& p, const Step& step, uint32_t position);

  // Update `position`'s target if it leads it, else nothing.
  std::optional<uint32_t> ledTarget(const abi::BucketParams& p, const Step& step, uint32_t position);

  // A control word after the counts (VKINDEX_BUCKET_CURSOR, VKINDEX_OWNER_COUNT, VKINDEX_HEAVY_*).
  uint32_t& control(const abi::BucketParams& p, const Step& step, uint32_t word);

  // The groups an indirect step dispatches: its VkDispatchIndirectCommand in scratch, which must be
  // written (whatever the status) and within the step's groups.
  uint64_t indirectGroups(const Step& step);

  // bucket_count.comp: atomics in any order, so any one of a target's positions may lead it.
  void countBuckets(const Step& step);

  void allocateBuckets(const Step& step);

  // The digit passes a call with `heavy` heavy targets runs (common/heavy_sort.glsl).
  static uint32_t digitPassesNeeded(const abi::BucketParams& p, uint32_t heavy);

  // heavy_plan.comp: every heavy pass's indirect command, zeroed after a bad index.
  void planHeavyPasses(const Step& step, bool bad);

  // heavy_scan.comp: an exclusive scan in place, of the runs or of a digit pass's tile counts.
  void scanHeavy(const Step& step);

  // Where digit pass `pass` writes (common/heavy_sort.glsl): past the light buckets, or `sorted`.
  uint32_t sortedAt(const abi::BucketParams& p, const Step& step, uint32_t pass);

  // Where digit pass `pass` leaves its items' heavy ids (common/heavy_sort.glsl): `keys`, or `targets`.
  static uint32_t keysAt(const abi::BucketParams& p, uint32_t pass);

  // Heavy update `position`'s heavy id, which bucket_fill.comp left in targets[] in place of its target
  // (the first digit pass reads it there; later ones may have overwritten it).
  std::optional<uint32_t> heavyIdOf(const abi::BucketParams& p, const Step& step, uint32_t position);

  // The heavy id bucket_fill.comp gave heavy update `position`, or nothing for a light one.
  std::optional<uint32_t> givenHeavyId(uint32_t position) const;

  struct SortItem {
    uint32_t position, heavy_id, digit;
  };

  // Digit pass `pass`'s item `item`: its update position and heavy id (nothing for a light one), and
  // its digit. The first pass reads the id in targets[]; later ones read the id the pass before left
  // beside the position, which must be the one bucket_fill.comp gave that position.
  std::optional<SortItem> sortItem(const abi::BucketParams& p, const Step& step, uint32_t item);

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
  void countDigits(const Step& step);

  // heavy_sort_scatter.comp: each item to its (digit, tile)'s next place, in order.
  void scatterDigits(const Step& step);

  void fillBuckets(const Step& step);

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
  void sortBuckets(const Step& step);

  // scatter_fold.comp: light buckets folded by their owners in the order they hold (bucket_sort.comp's),
  // or a pass over the heavy runs.
  void fold(const Step& step);

  // scatter_nd_rows.comp: whole slices in units, the unit offsets divided from in-window word sums.
  void writeWinnerRows(const Step& step);

  // copy_words.comp, both modules: each byte of the copy lands at the same offset of the output as it
  // had in data.
  void copy(const Step& step);

  void expectCopiedOnce();

  // Every data element received exactly the updates that address it, in index order; where a winner
  // table decided, only the last of them.
  void expectReceived();

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
  // A winner table, or the self-checking row writes: only the last update to an element lands.
  bool winners_only_ = false;
  bool order_free_ = false;
  std::mt19937 rng_;
};

}  // namespace vkindex::plan::test
