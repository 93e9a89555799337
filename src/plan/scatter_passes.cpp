#include "plan/scatter_passes.hpp"

#include <algorithm>

#include "common/spec_ids.h"
#include "plan/segments.hpp"

namespace vkindex::plan {

abi::ScatterNDParams ndParams(const ScatterShape& shape, const SourceRun& run, const TargetRange& target,
                              uint64_t first_tuple, uint64_t end_tuple) {
  abi::ScatterNDParams p{};
  p.slice_elements = static_cast<uint32_t>(shape.slice_elements);
  p.first_tuple = static_cast<uint32_t>(first_tuple);
  p.end_tuple = static_cast<uint32_t>(end_tuple);
  p.updates_word_offset = run.updates.word;
  p.out_word_offset = target.output.word;
  p.indices_word_offset = run.indices.word;
  p.target_begin = static_cast<uint32_t>(target.begin);
  p.target_end = static_cast<uint32_t>(target.end);
  std::copy(shape.check.extents.begin(), shape.check.extents.end(), p.extents);
  return p;
}

abi::ScatterElementsParams elementsParams(const PassLayout& layout, const SourceRun& run, const TargetRange& target,
                                          uint64_t axis_begin, uint64_t axis_end) {
  const ElementView& view = layout.view;
  abi::ScatterElementsParams p{};
  p.first_line = static_cast<uint32_t>(run.line_begin);
  p.line_count = static_cast<uint32_t>(run.line_end - run.line_begin);
  p.axis_extent = static_cast<uint32_t>((*view.dims)[view.axis_dim].extent);
  p.axis_begin = static_cast<uint32_t>(axis_begin);
  p.axis_end = static_cast<uint32_t>(axis_end);
  p.axis_size = static_cast<uint32_t>(layout.shape.check.extents[0]);
  p.updates_word_offset = run.updates.word;
  p.out_word_offset = target.output.word;
  p.indices_word_offset = run.indices.word;
  p.axis_dim = view.axis_dim;
  p.target_begin = static_cast<uint32_t>(target.begin);
  p.target_end = static_cast<uint32_t>(target.end);
  p.data_element_base = static_cast<uint32_t>(view.data_base);
  p.update_element_base = static_cast<uint32_t>(view.update_base);
  for (size_t d = 0; d < view.dims->size(); ++d) {
    p.extents[d] = static_cast<uint32_t>((*view.dims)[d].extent);
    p.data_strides[d] = static_cast<uint32_t>((*view.dims)[d].data_stride);
  }
  return p;
}

SpecValues scatterSpec(const ScatterShape& shape, uint32_t workgroup, uint32_t dims) {
  return {workgroup,
          shape.check.index_type == DataType::kInt64 ? 2u : 1u,
          static_cast<uint32_t>(shape.element_bytes),
          static_cast<uint32_t>(shape.reduction),
          shape.element_kind,
          dims};
}

bool isSelfCheckingScatterWalkKernel(Kernel kernel) {
  return kernel == Kernel::kScatterElementsMoveChecked || kernel == Kernel::kScatterNDMoveChecked;
}

bool isScatterWalkKernel(Kernel kernel) {
  for (const WalkKernels& walks : {kElementsWalk, kNDWalk}) {
    for (Kernel walk :
         {walks.move, walks.plain, walks.float32, walks.float64, walks.float32_add, walks.float32_add_native,
          walks.half_add, walks.float64_add, walks.order32, walks.int32, walks.integers}) {
      if (kernel == walk) return true;
    }
  }
  return isSelfCheckingScatterWalkKernel(kernel);
}

Kernel walkKernel(const ScatterShape& shape, const WalkKernels& kernels, bool native_add) {
  if (shape.reduction == Reduction::kNone) return kernels.move;
  const bool ordered = shape.reduction == Reduction::kMax || shape.reduction == Reduction::kMin;
  const bool add = shape.reduction == Reduction::kAdd;
  const Kernel float32_add = native_add ? kernels.float32_add_native : kernels.float32_add;
  switch (shape.element_kind) {
    case VKINDEX_KIND_INT32:
    case VKINDEX_KIND_UINT32: return ordered ? kernels.order32 : kernels.int32;
    case VKINDEX_KIND_FLOAT32: return ordered ? kernels.order32 : add ? float32_add : kernels.float32;
    case VKINDEX_KIND_COMPLEX64: return add ? float32_add : kernels.float32;
    case VKINDEX_KIND_FLOAT16:
    case VKINDEX_KIND_BFLOAT16: return ordered ? kernels.plain : add ? kernels.half_add : kernels.float32;
    case VKINDEX_KIND_FLOAT64: return ordered ? kernels.plain : add ? kernels.float64_add : kernels.float64;
    case VKINDEX_KIND_COMPLEX128: return add ? kernels.float64_add : kernels.float64;
    default: return kernels.integers;  // 8-, 16- and 64-bit integers
  }
}

Binding indicesBinding(const ScatterShape& shape, const SourceRun& run) {
  if (shape.check.extents.empty()) return {Role::kUpdates, run.updates.window};
  return {Role::kIndices, run.indices.window};
}

void orderPass(Step& pass, const Window& output, bool& wait_for_checks, bool& output_written) {
  if (wait_for_checks) waitForChecks(pass);
  wait_for_checks = false;
  if (output_written) pass.wait_for.push_back({Role::kOutput, output});
  output_written = true;
}

uint64_t runUpdates(const ScatterShape& shape, const SourceRun& run) {
  if (shape.kind == ScatterKind::kElements) return (run.line_end - run.line_begin) * (run.walk_end - run.walk_begin);
  return run.walk_end - run.walk_begin;
}

uint64_t runUpdateElements(const ScatterShape& shape, const SourceRun& run) {
  return shape.kind == ScatterKind::kElements ? runUpdates(shape, run) : runUpdates(shape, run) * shape.slice_elements;
}

uint64_t perUpdateGroups(uint64_t updates, uint32_t workgroup, const Tuning& tuning) {
  return groupsForItems(updates, workgroup, tuning.row_items);
}

void setWinnerPass(Step& pass, const PassLayout& layout, const SourceRun& run, const TargetRange& target) {
  const ScatterShape& shape = layout.shape;
  if (shape.kind == ScatterKind::kElements) {
    pass.spec = scatterSpec(shape, layout.workgroup, static_cast<uint32_t>(shape.dims.size()));
    setPush(pass, elementsParams(layout, run, target, run.walk_begin, run.walk_end));
  } else {
    pass.spec = scatterSpec(shape, layout.workgroup, static_cast<uint32_t>(shape.check.extents.size()));
    setPush(pass, ndParams(shape, run, target, run.walk_begin, run.walk_end));
  }
}

}  // namespace vkindex::plan
