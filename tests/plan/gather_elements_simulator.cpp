#include "gather_elements_simulator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "plan/element_blocks.hpp"
#include "plan/index_checks.hpp"
#include "plan_checks.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

uint64_t indexBytes(DataType index_type) { return index_type == DataType::kInt64 ? 8 : 4; }

// The data element coalesced output position `position` reads with axis coordinate `a`, in 64 bits.
uint64_t sourceOf(const GatherElementsShape& shape, uint64_t position, uint64_t a) {
  uint64_t source = 0;
  for (size_t j = shape.dims.size(); j-- > 0;) {
    const uint64_t extent = shape.dims[j].extent;
    const uint64_t coordinate = j == shape.axis_dim ? a : position % extent;
    position /= extent;
    source += coordinate * shape.dims[j].data_stride;
  }
  return source;
}

// The data elements output elements [q0, q1) can read whatever their indices: [lowest, highest + 1).
// Walks the elements of short ranges; a long one gets the whole reachable span of data.
std::pair<uint64_t, uint64_t> reachable(const GatherElementsShape& shape, uint64_t q0, uint64_t q1) {
  const uint64_t axis_top = (shape.axis_size - 1) * shape.dims[shape.axis_dim].data_stride;
  if (q1 - q0 > (uint64_t(1) << 16)) return {0, sourceOf(shape, shape.output_elements - 1, 0) + axis_top + 1};
  uint64_t low = ~uint64_t(0), high = 0;
  for (uint64_t q = q0; q < q1; ++q) {
    const uint64_t base = sourceOf(shape, q, 0);
    low = std::min(low, base);
    high = std::max(high, base + axis_top);
  }
  return {low, high + 1};
}

// The planner's view of its blocks (src/plan/gather_elements_plan.cpp), derived again: beyond
// VKINDEX_MAX_ELEMENT_DIMS coalesced dims the outermost are peeled, one block of contiguous output
// elements per coordinate tuple of them, and a peeled axis stays in the kernel as a dim of extent 1.
// `kernel` is one block as the kernel sees it: its dims, axis and output elements.
struct BlockView {
  GatherElementsShape kernel;
  std::vector<ElementDim> peeled;
  size_t peeled_axis = SIZE_MAX;
  uint64_t blocks = 1;
};

BlockView blockView(const GatherElementsShape& shape) {
  BlockView view;
  view.kernel = shape;
  const size_t count = shape.dims.size();
  if (count <= VKINDEX_MAX_ELEMENT_DIMS) return view;
  const size_t peel = count - VKINDEX_MAX_ELEMENT_DIMS + (shape.axis_dim < count - VKINDEX_MAX_ELEMENT_DIMS ? 1 : 0);
  view.peeled.assign(shape.dims.begin(), shape.dims.begin() + static_cast<std::ptrdiff_t>(peel));
  view.kernel.dims.clear();
  if (shape.axis_dim < peel) {
    view.peeled_axis = shape.axis_dim;
    view.kernel.axis_dim = 0;
    view.kernel.dims.push_back({1, shape.dims[shape.axis_dim].data_extent, shape.dims[shape.axis_dim].data_stride});
  } else {
    view.kernel.axis_dim = static_cast<uint32_t>(shape.axis_dim - peel);
  }
  view.kernel.dims.insert(view.kernel.dims.end(), shape.dims.begin() + static_cast<std::ptrdiff_t>(peel),
                          shape.dims.end());
  for (const ElementDim& dim : view.peeled) view.blocks *= dim.extent;
  view.kernel.output_elements = shape.output_elements / view.blocks;
  return view;
}

// The data element block `block` counts its sources from: the peeled coordinates but the axis'.
uint64_t blockBase(const BlockView& view, uint64_t block) {
  uint64_t base = 0;
  for (size_t j = view.peeled.size(); j-- > 0;) {
    if (j != view.peeled_axis) base += (block % view.peeled[j].extent) * view.peeled[j].data_stride;
    block /= view.peeled[j].extent;
  }
  return base;
}

// The tensors, the status slot and the record of what the steps did to them.
class ElementsMachine {
 public:
  ElementsMachine(const ElementsCase& c, const GatherElementsShape& shape, const ElementsPlacements& at, uint32_t seed)
      : case_(c),
        shape_(shape),
        at_(at),
        check_{c.index_type, shape.output_elements, {shape.axis_size}},
        rng_(seed),
        data_buf_(randomBuffer(at.data, rng_)),
        idx_buf_(randomBuffer(at.indices, rng_)),
        out_(randomBuffer(at.output, rng_)),
        index_(check_, at.indices, idx_buf_, randomIndices(check_, c.bad, rng_), ok_) {}

  // Runs every step of `plan` in order. Returns false once a kernel went out of bounds.
  bool run(const OpPlan& plan, ElementsRun& run) {
    for (size_t i = 0; i < plan.steps.size() && ok_; ++i) {
      const Step& step = plan.steps[i];
      SCOPED_TRACE("step " + std::to_string(i) + ": " + str(step));
      switch (step.kernel) {
        case Kernel::kCheckIndices:
        case Kernel::kCheckIndicesInt64:
        case Kernel::kCheckIndicesWide: index_.checkIndices(step); break;
        case Kernel::kReportIndex: index_.reportIndex(step, i); break;
        case Kernel::kGatherElements:
        case Kernel::kGatherElements8:
        case Kernel::kGatherElements4:
        case Kernel::kGatherElementBytes: gatherElements(step, run); break;
        default:
          if (isSelfCheckingElementGatherKernel(step.kernel)) {
            selfCheck(step, i);
            gatherElements(step, run);
            break;
          }
          ADD_FAILURE() << "the simulator has no " << kernelName(step.kernel);
          ok_ = false;
      }
    }
    return ok_;
  }

  // Compares the status slot and the output buffer with what the indices call for. Returns whether a
  // bad index was found.
  bool expectResult(const OpPlan& plan) {
    if (index_.expectStatus(plan)) {
      out_.expectUntouched();
      return true;
    }
    // The reference, from the ONNX definition over the uncoalesced shapes: output[i_0, ..., i_{r-1}] =
    // data[i_0, ..., indices[i_0, ..., i_{r-1}], ..., i_{r-1}], the index taken modulo the axis size
    // when negative.
    const Shape& ds = case_.data_shape;
    const Shape& is = case_.indices_shape;
    const size_t rank = ds.size(), axis = static_cast<size_t>(shape_.axis);
    const uint64_t E = shape_.element_bytes;
    const int64_t s = static_cast<int64_t>(shape_.axis_size);
    std::vector<uint8_t> expected = out_.before();
    for (uint64_t p = 0; p < shape_.output_elements; ++p) {
      uint64_t rest = p, source = 0, stride = 1;
      for (size_t d = rank; d-- > 0;) {
        const uint64_t coordinate = rest % static_cast<uint64_t>(is[d]);
        rest /= static_cast<uint64_t>(is[d]);
        const int64_t value = index_.values()[p];
        source += (d == axis ? static_cast<uint64_t>(value < 0 ? value + s : value) : coordinate) * stride;
        stride *= static_cast<uint64_t>(ds[d]);
      }
      std::memcpy(&expected[at_.output.offset + p * E], &data_buf_[at_.data.offset + source * E], E);
    }
    out_.expectWrittenOnce(expected, at_.output);
    return false;
  }

 private:
  // gather_elements.comp's VKINDEX_SELF_CHECK part: check_indices.comp and report_index.comp over
  // every index of the pass, from its first (every invocation does it; the result is the same as once).
  void selfCheck(const Step& step, size_t step_index) {
    const abi::GatherElementsParams p = pushOf<abi::GatherElementsParams>(step);
    abi::CheckParams check{};
    check.status_slot = p.status_slot;
    check.index_count = p.pass_elements;
    check.indices_word_offset = p.indices_word_offset;
    check.tuple_length = 1;
    check.extents[0] = p.axis_size;
    index_.selfCheck(step, check, step_index);
  }

  // gather_elements.comp, counting the writes to every output byte.
  void gatherElements(const Step& step, ElementsRun& run) {
    const abi::GatherElementsParams p = pushOf<abi::GatherElementsParams>(step);
    const CopyShape shape = copyShapeOf(step);
    const uint32_t U = shape.unit_bytes, W = shape.index_words;
    if (index_.badIndexFound(p.status_slot)) return;
    bool& ok = ok_;
    BufferBinding in(data_buf_, boundWindow(step, Role::kData), "data", ok);
    BufferBinding ix(idx_buf_, boundWindow(step, Role::kIndices), "indices", ok);
    BufferBinding out(out_.buffer(), boundWindow(step, Role::kOutput), "output", ok);
    const uint32_t dim_count = step.spec[kSpecDimCount];  // DIM_COUNT
    if (dim_count > VKINDEX_MAX_ELEMENT_DIMS) {
      ADD_FAILURE() << "dim count " << dim_count << " overruns the push block";
      ok = false;
      return;
    }
    // The kernel's cursor (cursorAt, moveTo, boundSource): where pass element `element` stands, its
    // innermost coordinate, and the data element of its coordinates with the axis coordinate 0.
    struct Cursor {
      uint32_t element = kNotBound, inner = 0, base = 0;
    };
    const uint32_t innermost = dim_count - 1u;
    const auto cursorAt = [&](uint32_t element) {
      uint32_t rest = p.first_element + element;
      Cursor cursor{element, 0u, 0u};
      for (uint32_t j = dim_count; j-- > 0u;) {
        const uint32_t extent = p.extents[j];
        if (extent == 0u) {
          if (ok) ADD_FAILURE() << "division by extent 0 of dim " << j;
          ok = false;
          return cursor;
        }
        // The kernel takes what is left as the outermost coordinate without dividing.
        uint32_t coordinate = rest;
        if (j > 0u) {
          coordinate = rest % extent;
          rest /= extent;
        } else if (rest >= extent) {
          if (ok) ADD_FAILURE() << "outermost coordinate " << rest << " exceeds its extent " << extent;
          ok = false;
          return cursor;
        }
        if (j == innermost) cursor.inner = coordinate;
        if (j != p.axis_dim) cursor.base += coordinate * p.data_strides[j];
      }
      return cursor;
    };
    const auto moveTo = [&](Cursor& cursor, uint32_t element) {
      const uint32_t forward = element - cursor.element;
      if (cursor.element != kNotBound && element >= cursor.element && forward < p.extents[innermost] - cursor.inner) {
        cursor.element = element;
        cursor.inner += forward;
        if (innermost != p.axis_dim) cursor.base += forward * p.data_strides[innermost];
      } else {
        cursor = cursorAt(element);
      }
    };
    const auto boundSource = [&](const Cursor& cursor) {
      const uint32_t index = normalizeIndex(loadIndex(ix, p.indices_word_offset, cursor.element, W), p.axis_size);
      const uint32_t source = cursor.base + index * p.data_strides[p.axis_dim];
      if (source < p.data_element_begin || source >= p.data_element_end) return kNotBound;
      return source - p.data_element_begin;
    };
    const auto wrote = [&](uint64_t byte) { out_.wrote(out.absolute(byte)); };
    // processItem for whole-unit elements: every unit of output element `element`.
    const auto copyElement = [&](uint32_t element, Cursor& cursor) {
      moveTo(cursor, element);
      uint32_t source = boundSource(cursor);
      if (source == kNotBound || !ok) return;
      const uint32_t target = p.out_unit_offset + element * p.units_per_element;
      source = p.data_unit_offset + source * p.units_per_element;
      for (uint32_t part = 0; part < p.units_per_element; ++part) {
        const uint64_t to = uint64_t(target + part) * U, from = uint64_t(source + part) * U;
        if (!in.inside(from, U) || !out.inside(to, U)) return;
        std::memcpy(out.at(to), in.at(from), U);
        for (uint32_t b = 0; b < U; ++b) wrote(to + b);
        ++run.whole_stores;
      }
    };
    // processItem for sub-word elements: word `word` of the binding from the elements this pass owns in it.
    const uint32_t units_per_word = U < 4 ? 4u / U : 1u, unit_mask = U == 1 ? 0xFFu : 0xFFFFu;
    const auto loadSubUnit = [&](uint32_t source) {
      const uint32_t shift = (source % units_per_word) * 8u * U;
      return (in.word(source / units_per_word) >> shift) & unit_mask;
    };
    const auto assembleWord = [&](uint32_t word, Cursor& cursor) {
      uint32_t value = 0u, owned = 0u;
      for (uint32_t k = 0u; k < units_per_word && ok; ++k) {
        const uint32_t unit_in_binding = word * units_per_word + k;
        if (unit_in_binding < p.out_unit_offset) continue;
        const uint32_t element = unit_in_binding - p.out_unit_offset;
        if (element >= p.pass_elements) break;
        moveTo(cursor, element);
        const uint32_t source = boundSource(cursor);
        if (source == kNotBound) continue;
        const uint32_t shift = k * 8u * U;
        value |= loadSubUnit(p.data_unit_offset + source) << shift;
        owned |= unit_mask << shift;
      }
      // storeOwnedBits
      if (owned == 0xFFFFFFFFu) {
        out.setWord(word, value);
        ++run.whole_stores;
      } else if (owned != 0u) {
        out.setWord(word, out.word(word) & ~owned);           // atomicAnd
        out.setWord(word, out.word(word) | (value & owned));  // atomicOr
        ++run.masked_stores;
      }
      for (uint32_t b = 0; b < 4; ++b) {
        if (((owned >> (8 * b)) & 0xFFu) != 0) wrote(uint64_t(word) * 4 + b);
      }
    };
    // main: every invocation of the dispatch walks its segments (grid-stride) and its items in them
    // in increasing order, with one cursor.
    const uint32_t total = U < 4 ? p.out_word_count : p.pass_elements;
    const uint32_t lanes = shape.lanes, segment_items = lanes * shape.items;
    if (lanes == 0 || shape.items == 0 || shape.workgroup_size % lanes != 0) {
      ADD_FAILURE() << "segments of " << lanes << " x " << shape.items << " in workgroups of " << shape.workgroup_size;
      ok = false;
      return;
    }
    const uint64_t segments = ceilDiv(total, segment_items), segments_per_group = shape.workgroup_size / lanes;
    const uint64_t stride = step.groups * segments_per_group;
    for (uint64_t invocation = 0; invocation < step.groups * shape.workgroup_size && ok; ++invocation) {
      const uint64_t group = invocation / shape.workgroup_size, local = invocation % shape.workgroup_size;
      Cursor cursor;
      for (uint64_t segment = group * segments_per_group + local / lanes; segment < segments && ok; segment += stride) {
        for (uint32_t i = 0; i < shape.items; ++i) {
          const uint64_t item = segment * segment_items + local % lanes + uint64_t(i) * lanes;
          if (item >= total) break;
          if (U >= 4) {
            copyElement(uint32_t(item), cursor);
          } else {
            assembleWord(uint32_t(item), cursor);
          }
        }
      }
    }
  }

  const ElementsCase& case_;
  const GatherElementsShape& shape_;
  ElementsPlacements at_;
  IndexCheck check_;
  bool ok_ = true;  // declared before the members that bind it
  std::mt19937 rng_;
  std::vector<uint8_t> data_buf_, idx_buf_;
  OutputRecord out_;
  IndexSimulator index_;
};

}  // namespace

std::string dimsString(const GatherElementsShape& shape) {
  std::string text;
  for (size_t j = 0; j < shape.dims.size(); ++j) {
    const ElementDim& d = shape.dims[j];
    text += (text.empty() ? "" : ", ") + std::to_string(d.extent) + "/" + std::to_string(d.data_extent) +
            (j == shape.axis_dim ? "*" : "") + ": " + std::to_string(d.data_stride);
  }
  return "(" + text + ")";
}

std::string describe(const ElementsCase& c) {
  const auto s = [](auto value) { return std::to_string(value); };
  return "GatherElements data " + shapeString(c.data_shape) + " " + dataTypeName(c.data_type) + " at " +
         s(c.data_offset) + ", indices " + shapeString(c.indices_shape) + " " + dataTypeName(c.index_type) + " at " +
         s(c.indices_offset) + ", output at " + s(c.output_offset) + ", axis " + s(c.axis) + ", " +
         deviceString(c.device) + badString(c.bad);
}

ElementsPlacements placementsOf(const GatherElementsShape& shape, DataType index_type, uint64_t data_offset,
                                uint64_t indices_offset, uint64_t output_offset) {
  return {placed(data_offset, shape.data_elements * shape.element_bytes),
          placed(indices_offset, shape.output_elements * indexBytes(index_type)),
          placed(output_offset, shape.output_elements * shape.element_bytes)};
}

bool checkElementsStructure(const OpPlan& plan, const GatherElementsShape& shape, DataType index_type,
                            const ElementsPlacements& at, const FakeDevice& device) {
  SCOPED_TRACE("coalesced dims " + dimsString(shape));
  const uint64_t E = shape.element_bytes, N = shape.output_elements, D = shape.data_elements, S = shape.axis_size;
  const uint64_t index_bytes = indexBytes(index_type);
  const bool has_checks = !checkSteps(plan).empty();
  const std::vector<ElementsStep> passes = elementSteps(plan);
  // A small operation (a check, a report and one pass over every index from the first, at most 16
  // indices, and 256 indices x workgroups) runs as one self-checking pass, and any other does not.
  const bool fused = passes.size() == 1 && isSelfCheckingElementGatherKernel(passes[0].step.kernel);
  const auto smallPass = [&](const ElementsStep& pass) {
    return pass.params.first_element == 0 && uint64_t(pass.params.pass_elements) == N &&
           N <= kMaxSelfCheckedComponents && N * pass.step.groups <= kMaxSelfCheckedWork;
  };
  bool ok = true;
  if (fused) {
    EXPECT_FALSE(has_checks) << kernels(plan);
    EXPECT_TRUE(reportSteps(plan).empty()) << kernels(plan);
    EXPECT_TRUE(smallPass(passes[0])) << str(passes[0].params);
    EXPECT_TRUE(plan.writes_own_status);  // nothing resets the slot first, and the pass waits for nothing
  } else {
    ok = checkIndexSteps(plan, IndexCheck{index_type, N, {S}}, at.indices, device);
    EXPECT_EQ(has_checks, N > 0);
    EXPECT_FALSE(plan.writes_own_status);
    EXPECT_FALSE(has_checks && passes.size() == 1 && checkSteps(plan).size() == 1 && smallPass(passes[0]))
        << "a small operation was not fused: " << kernels(plan);
  }
  EXPECT_EQ(passes.empty(), N == 0 || S == 0);
  if (passes.empty()) return ok && !::testing::Test::HasFailure();
  EXPECT_GE(shape.dims.size(), 1u);
  EXPECT_LT(shape.axis_dim, shape.dims.size());
  if (shape.dims.empty() || shape.axis_dim >= shape.dims.size()) return false;
  const BlockView view = blockView(shape);
  const GatherElementsShape& kernel = view.kernel;
  const uint64_t block_elements = kernel.output_elements;
  EXPECT_LE(kernel.dims.size(), size_t{VKINDEX_MAX_ELEMENT_DIMS});
  // The unit: the widest power of two up to 16 dividing the element size and both tensors' offsets;
  // sub-word units only for 1- and 2-byte elements, one unit each.
  uint32_t U = 16;
  while (U > 1 && (E % U != 0 || at.data.offset % U != 0 || at.output.offset % U != 0)) U /= 2;
  if (U < 4) {
    EXPECT_EQ(E, U);
  }
  const uint64_t units_per_element = U < 4 ? 1 : E / U;
  checkStepBasics(plan, {elementGatherKernel(U, fused)});
  std::vector<PassReads> reads(view.blocks);
  for (size_t i = 0; i < passes.size(); ++i) {
    const ElementsStep& pass = passes[i];
    const abi::GatherElementsParams& p = pass.params;
    SCOPED_TRACE("gather_elements step " + std::to_string(i) + ": " + str(p));
    EXPECT_EQ(pass.step.kernel, elementGatherKernel(U, fused));
    const Window data_window = pass.window(Role::kData), index_window = pass.window(Role::kIndices);
    const Window output_window = pass.window(Role::kOutput);
    EXPECT_EQ(str(pass.step.bindings), "data " + str(data_window) + ", indices " + str(index_window) + ", output " +
                                           str(output_window) + ", status");
    ok = validWindow(data_window, at.data, device, "data") && ok;
    ok = validWindow(index_window, at.indices, device, "indices") && ok;
    ok = validWindow(output_window, at.output, device, "output") && ok;
    // Barriers: the first pass waits for the checks; a later sub-word pass may share output words with
    // the previous one (atomics on disjoint bytes), so it waits for its output.
    if (i == 0) {
      EXPECT_EQ(str(pass.step.wait_for), has_checks ? "status" : "none");  // fused: none
    } else {
      EXPECT_EQ(str(pass.step.wait_for), U < 4 ? "output " + str(output_window) : "none");
    }
    EXPECT_EQ(p.status_slot, 0u);
    EXPECT_EQ(p.units_per_element, units_per_element);
    EXPECT_EQ(p.axis_size, S);
    EXPECT_EQ(p.axis_dim, kernel.axis_dim);
    for (size_t j = 0; j < VKINDEX_MAX_ELEMENT_DIMS; ++j) {
      const bool used = j < kernel.dims.size();
      EXPECT_EQ(p.extents[j], used ? kernel.dims[j].extent : 0u) << "dim " << j;
      EXPECT_EQ(p.data_strides[j], used ? kernel.dims[j].data_stride : 0u) << "dim " << j;
    }
    // Output elements [q0, q1) of a block (the whole output where nothing is peeled), whose sources
    // count from the block's base, from data elements [base + begin, base + end): the push constants
    // locate exactly those.
    // The block is the one the pass's output element falls in; the expectations below then pin every
    // offset to it exactly.
    const uint64_t output_at = output_window.offset + uint64_t(p.out_unit_offset) * U;
    const uint64_t output_element = output_at > at.output.offset ? (output_at - at.output.offset) / E : 0;
    const uint64_t block = std::min(output_element / block_elements, view.blocks - 1);
    const uint64_t first_output = block * block_elements, base = blockBase(view, block);
    const uint64_t q0 = p.first_element, q1 = q0 + p.pass_elements;
    EXPECT_GT(p.pass_elements, 0u);
    EXPECT_LE(q1, block_elements);
    EXPECT_LT(p.data_element_begin, p.data_element_end);
    EXPECT_LE(base + p.data_element_end, D);
    EXPECT_EQ(output_window.offset + uint64_t(p.out_unit_offset) * U, at.output.offset + (first_output + q0) * E);
    EXPECT_GE(output_window.offset + output_window.size, at.output.offset + (first_output + q1) * E);
    EXPECT_EQ(index_window.offset + 4 * uint64_t(p.indices_word_offset),
              at.indices.offset + (first_output + q0) * index_bytes);
    EXPECT_GE(index_window.offset + index_window.size, at.indices.offset + (first_output + q1) * index_bytes);
    EXPECT_EQ(data_window.offset + uint64_t(p.data_unit_offset) * U,
              at.data.offset + (base + p.data_element_begin) * E);
    EXPECT_GE(data_window.offset + data_window.size, at.data.offset + (base + p.data_element_end) * E);
    if (U < 4) {
      EXPECT_EQ(p.out_word_count, output_window.size / 4);
    }
    // Items (elements, or output words of sub-word elements) in segments of lanes x items: the row
    // gathers' layout, lanes up to the device's row lanes but no more than the pass has items.
    const uint64_t items = U < 4 ? p.out_word_count : p.pass_elements;
    EXPECT_LE(uint64_t(p.pass_elements) * p.units_per_element, kMaxPassItems);  // 32-bit counts with headroom
    uint32_t lanes = 1;
    while (lanes * 2 <= std::min<uint64_t>(device.row_lanes, items) && device.workgroup_size % (lanes * 2) == 0) {
      lanes *= 2;
    }
    const uint32_t per_lane = std::max<uint32_t>(device.row_items, 1);
    const uint64_t segments = ceilDiv(items, uint64_t(lanes) * per_lane);
    const SpecValues spec{expectedWorkgroup(device, pass.step.groups, segments * lanes, lanes),
                          uint32_t(index_bytes / 4),
                          U,
                          per_lane,
                          lanes,
                          uint32_t(kernel.dims.size())};
    EXPECT_EQ(pass.step.spec, spec);
    EXPECT_EQ(pass.step.groups, ceilDiv(segments, device.workgroup_size / lanes));
    reads[block][{q0, q1}].push_back({p.data_element_begin, p.data_element_end});
  }
  for (uint64_t block = 0; block < view.blocks; ++block) {
    SCOPED_TRACE("block " + std::to_string(block));
    expectTiledReads(
        std::move(reads[block]), block_elements, [&](uint64_t q0, uint64_t q1) { return reachable(kernel, q0, q1); },
        "elements");
  }
  return ok && !::testing::Test::HasFailure();
}

void expectElementsReport(const OpPlan& plan, const GatherElementsShape& shape) {
  expectAxisReport(plan, "GatherElements", shape.output_shape, shape.axis_size, shape.axis);
}

std::optional<ElementsRun> simulate(const ElementsCase& c, uint32_t seed) {
  SCOPED_TRACE(describe(c));
  StatusOr<GatherElementsShape> shape =
      inferGatherElementsShape(c.data_shape, c.data_type, c.indices_shape, c.index_type, c.axis);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  if (!shape.ok()) return std::nullopt;
  EXPECT_EQ(shape->output_elements, *elementCount(c.indices_shape));
  EXPECT_EQ(shape->data_elements, *elementCount(c.data_shape));
  EXPECT_EQ(shape->element_bytes, elementSize(c.data_type));
  const ElementsPlacements at = placementsOf(*shape, c.index_type, c.data_offset, c.indices_offset, c.output_offset);
  StatusOr<OpPlan> plan = planGatherElements(*shape, c.index_type, at.data, at.indices, at.output, c.device, c.device);
  if (!plan.ok()) {
    const BlockView view = blockView(*shape);
    EXPECT_GT(view.blocks, kMaxPeeledBlocks) << plan.status().toString();
    expectError(plan.status(), StatusCode::kUnsupported,
                "GatherElements: the tensors coalesce to " + std::to_string(shape->dims.size()) + " dims, whose " +
                    std::to_string(view.peeled.size()) + " outermost run one pass per coordinate (" +
                    std::to_string(view.blocks) + "); vkindex runs at most " + std::to_string(kMaxPeeledBlocks));
    return std::nullopt;
  }
  expectElementsReport(*plan, *shape);
  if (!checkElementsStructure(*plan, *shape, c.index_type, at, c.device)) return ElementsRun{std::move(*plan)};
  return runElementsPlan(std::move(*plan), c, seed);
}

ElementsRun runElementsPlan(OpPlan plan, const ElementsCase& c, uint32_t seed) {
  ElementsRun run{std::move(plan)};
  StatusOr<GatherElementsShape> shape =
      inferGatherElementsShape(c.data_shape, c.data_type, c.indices_shape, c.index_type, c.axis);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  if (!shape.ok()) return run;
  const ElementsPlacements at = placementsOf(*shape, c.index_type, c.data_offset, c.indices_offset, c.output_offset);
  ElementsMachine machine(c, *shape, at, seed);
  if (machine.run(run.plan, run)) run.bad_found = machine.expectResult(run.plan);
  return run;
}

}  // namespace vkindex::plan::test
