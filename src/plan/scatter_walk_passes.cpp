// The walk in index order, whole or a peeled block at a time (scatter_passes.hpp).
#include <algorithm>

#include "plan/scatter_passes.hpp"
#include "plan/segments.hpp"

namespace vkindex::plan {

void appendWalkPasses(OpPlan& plan, const PassLayout& layout, const DeviceInfo& device, const Tuning& tuning,
                      bool wait_for_checks, bool output_written) {
  const ScatterShape& shape = layout.shape;
  const uint64_t max_walk = device.max_walk_steps;
  const bool elements = shape.kind == ScatterKind::kElements;
  for (const SourceRun& run : layout.runs) {
    for (uint64_t begin = run.walk_begin; begin < run.walk_end; begin += max_walk) {
      const uint64_t end = std::min(run.walk_end, begin + max_walk);
      for (const TargetRange& target : layout.targets) {
        Step pass;
        // Bindings are built and moved in, here and below: GCC 12 at -O3 (the arm64 cross build) takes
        // an initializer-list assignment's copy for a memmove from null (-Werror=nonnull).
        pass.bindings = std::vector<Binding>{{Role::kUpdates, run.updates.window},
                                             indicesBinding(shape, run),
                                             {Role::kOutput, target.output.window},
                                             {Role::kStatus, {}}};
        pass.groups = groupsForItems(run.line_end - run.line_begin, layout.workgroup);
        if (elements) {
          pass.kernel = walkKernel(shape, kElementsWalk, tuning.native_float32_add);
          pass.spec = scatterSpec(shape, layout.workgroup, static_cast<uint32_t>(layout.view.dims->size()));
          setPush(pass, elementsParams(layout, run, target, begin, end));
        } else {
          pass.kernel = walkKernel(shape, kNDWalk, tuning.native_float32_add);
          pass.spec = scatterSpec(shape, layout.workgroup, static_cast<uint32_t>(shape.check.extents.size()));
          setPush(pass, ndParams(shape, run, target, begin, end));
        }
        fitOneGroup(pass, run.line_end - run.line_begin, 1, device);
        orderPass(pass, target.output.window, wait_for_checks, output_written);
        plan.steps.push_back(pass);
      }
    }
  }
}

StatusOr<ElementBlocks> peeledBlocks(const ScatterShape& shape, const Placement& updates, const Placement& indices,
                                     const Placement& output, const DeviceInfo& device) {
  const uint64_t update_bytes = std::max<uint64_t>(shape.element_bytes, tupleBytes(shape.check));
  const bool windowed = !fitsOneBinding(updates, device) || !fitsOneBinding(indices, device);
  for (size_t peel = 0;; ++peel) {
    StatusOr<ElementBlocks> blocks =
        elementBlocks(scatterName(shape.kind), shape.dims, shape.axis_dim, shape.check.extents[0],
                      shape.check.tuple_count, output.bytes / shape.element_bytes, peel);
    if (!blocks.ok() && peel > 0) break;  // more blocks than kMaxPeeledBlocks to fit the windows
    VKINDEX_RETURN_IF_ERROR(blocks.status());
    if (!windowed || blocks->elements * update_bytes <= windowCapacity(device)) return blocks;
  }
  return unsupported(scatterName(shape.kind) + ": the tensors coalesce to " + std::to_string(shape.dims.size()) +
                     " dims, more than " + std::to_string(VKINDEX_MAX_ELEMENT_DIMS) +
                     ", and run a block at a time; blocks whose updates each fit one storage-buffer binding of this "
                     "device (maxStorageBufferRange " +
                     std::to_string(device.max_storage_buffer_range) + ") would be more than " +
                     std::to_string(kMaxPeeledBlocks));
}

void appendPeeledWalkPasses(OpPlan& plan, const ScatterShape& shape, const ElementBlocks& blocks,
                            const Placement& updates, const Placement& indices, const Placement& output,
                            const DeviceInfo& device, const Tuning& tuning, bool wait_for_checks, bool output_written) {
  const uint64_t E = shape.element_bytes, index_bytes = tupleBytes(shape.check);
  const uint64_t axis_extent = blocks.kernel_dims[blocks.kernel_axis_dim].extent;
  const bool one_window = blocks.reach * E <= windowCapacity(device);
  const uint64_t targets_per_range = one_window ? blocks.reach : windowCapacity(device) / E;
  for (uint64_t block = 0; block < blocks.count; ++block) {
    const uint64_t first_update = block * blocks.elements, first_target = blockBase(blocks, block);
    PassLayout layout{shape,
                      {},
                      {},
                      tuning.workgroup_size,
                      {&blocks.kernel_dims, blocks.kernel_axis_dim, first_target, first_update}};
    const uint64_t update_end = first_update + blocks.elements;
    layout.runs.push_back({0, blocks.elements / axis_extent, 0, axis_extent,
                           bindBytes(updates, first_update * E, update_end * E, device),
                           bindBytes(indices, first_update * index_bytes, update_end * index_bytes, device)});
    for (uint64_t t0 = first_target; t0 < first_target + blocks.reach; t0 += targets_per_range) {
      const uint64_t t1 = std::min(first_target + blocks.reach, t0 + targets_per_range);
      const Bound window = bindBytes(output, t0 * E, t1 * E, device);
      layout.targets.push_back(one_window ? TargetRange{0, kMax32, window} : TargetRange{t0, t1, window});
    }
    appendWalkPasses(plan, layout, device, tuning, wait_for_checks, output_written);
    wait_for_checks = false;
    output_written = true;
  }
}

}  // namespace vkindex::plan
