#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, after the buckets' allocation (common/scatter_buckets_params.h): writes the
// VkDispatchIndirectCommand of every heavy pass, from the heavy targets bucket_alloc.comp counted.
// Nothing where no target is heavy; where some are, the digit passes their heavy ids need and the
// fold passes their heaviest run needs. It runs whatever the status, zeroes after a bad index, so
// that no indirect dispatch reads a command nobody wrote. One workgroup of the fold's size.
#include "common/spec_ids.h"
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/heavy_sort.glsl"
#include "common/status_gate.glsl"

// Command `command`'s group count, for `heavy` heavy targets whose heaviest has `most` updates.
uint groupsOf(uint command, uint heavy, uint most) {
  if (heavy == 0u) return 0u;
  if (command == VKINDEX_RUNS_SCAN_COMMAND) return 1u;
  if (command < VKINDEX_FOLD_COMMAND(pc.digit_passes, 0u)) {
    uint pass = (command - VKINDEX_SORT_COMMAND(0u)) / 2u;
    if (pass >= digitPassesNeeded(heavy)) return 0u;
    return command == VKINDEX_SORT_COMMAND(pass) ? pc.tile_count : 1u;  // the count and scatter, or the scan
  }
  uint fold_pass = command - VKINDEX_FOLD_COMMAND(pc.digit_passes, 0u);
  if (most <= fold_pass * pc.walk_items) return 0u;
  // One workgroup per heavy target where they are few (scatter_fold.comp; at most the 65535 groups an
  // indirect dispatch may ask for: the fold strides over the rest), or one invocation per heavy target,
  // in workgroups of the fold's size.
  return heavy <= pc.most_group_runs ? min(heavy, 65535u) : divideRoundingUp(heavy, gl_WorkGroupSize.x);
}

void main() {
  bool bad = badIndexFound();
  uint heavy = bad ? 0u : bucketControl(VKINDEX_HEAVY_COUNT);
  uint most = bad ? 0u : bucketControl(VKINDEX_HEAVY_MOST);
  for (uint command = gl_LocalInvocationID.x; command < pc.command_count; command += gl_WorkGroupSize.x) {
    uint at = pc.commands_at + command * 3u;
    scratch[at] = groupsOf(command, heavy, most);
    scratch[at + 1u] = 1u;
    scratch[at + 2u] = 1u;
  }
}
