// ContextOverrides: the knobs that change how vkindex computes, never what. Tests use them to reach paths
// that small tensors on a fast device would not (windows, chunks, grid strides, every strategy); a user
// may use them to try a tuning value. No Vulkan types here: the planner reads these too.
#pragma once

#include <cstdint>

namespace vkindex {

struct ContextOverrides {
  // Caps the bytes vkindex binds per storage buffer below the device's maxStorageBufferRange (0: no
  // cap). Tensors larger than the cap are processed a window at a time, exactly as tensors larger
  // than the device limit are.
  uint64_t max_binding_bytes = 0;
  // Caps the staging buffer that uploads and downloads copy through (0: vkindex's 64 MiB chunk).
  // Larger tensors are copied a chunk at a time.
  uint64_t max_staging_bytes = 0;
  // Caps the workgroups per grid dimension vkindex dispatches below the device's
  // maxComputeWorkGroupCount (0: no cap). Larger dispatches use the second grid dimension and then
  // grid strides, as on a device with the minimum limit of 65535.
  uint32_t max_workgroup_count = 0;

  // Tuning (docs/tuning.md; 0 keeps the tuning table's value). workgroup_size must not exceed the
  // device's maxComputeWorkGroupInvocations or maxComputeWorkGroupSize[0]; items_per_invocation (at
  // most 64) also sets the row segments' items. min_walk_lines sets every walk threshold (plain,
  // soft-float and atomic reductions) and lifts the single-line and duplicate-count exceptions, so that
  // it decides alone: UINT64_MAX sends every ScatterElements none through the winner table and folds
  // every reduction by owner or applies it with atomics (but where a line has one target and the fold
  // would not serve); 1 walks every one.
  uint32_t workgroup_size = 0;
  uint32_t items_per_invocation = 0;
  uint64_t min_walk_lines = 0;
  // Takes the tuning table's row for a GPU of no known vendor whatever the device is (the overrides
  // above still apply on top). Slower on a CPU driver, but it runs there the kernel layouts a GPU gets:
  // the test suite uses it so that CI covers them without a GPU. Also switched on by
  // VKINDEX_GPU_TUNING=1. The device's limits, max_walk_steps among them, stay its own.
  bool gpu_tuning = false;
};

}  // namespace vkindex
