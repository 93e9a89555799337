#version 450
#extension GL_GOOGLE_include_directive : require
// Plain buffer copy in 16-byte units: the ceiling any compute shader can reach on a device, reported
// by the benchmark beside vkCmdCopyBuffer. Same segment structure as gather_rows.comp's copy units:
// ROW_LANES invocations share a segment of ROW_LANES x ITEMS_PER_INVOCATION quads, interleaved quad by
// quad. The benchmark times several layouts (coalesced 256-lane segments suit GPUs, one lane
// streaming a long segment suits CPU drivers) and reports the fastest.
#include "common/spec_ids.h"
layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
layout(constant_id = VKINDEX_SPEC_ITEMS) const uint ITEMS_PER_INVOCATION = 4;
layout(constant_id = VKINDEX_SPEC_ROW_LANES) const uint ROW_LANES = 1;
// 1: whole segments move four quads at a time (common/batched_copy.glsl), as gather_rows.comp moves
// whole segments. Not the default: lavapipe's 2-lane segments ran slower that way
// (docs/gather-kernels.md), so the benchmark times both forms of the row gathers' layout.
layout(constant_id = VKINDEX_SPEC_BATCHED_LOADS) const uint BATCHED_LOADS = 0;

// 16-byte units: uvec4, or u64vec2 in the copy_int64 module (common/unit_type.glsl).
#define VKINDEX_UNIT_BYTES 16
#include "common/unit_type.glsl"
#include "common/batched_copy.glsl"
layout(binding = 0, std430) readonly buffer Source { UNIT source_quads[]; };
layout(binding = 1, std430) writeonly buffer Target { UNIT target_quads[]; };

layout(push_constant) uniform CopyParams { uint quad_count; } pc;

void main() {
  const uint segment_quads = ROW_LANES * ITEMS_PER_INVOCATION;
  uint segment_count = divideRoundingUp(pc.quad_count, segment_quads);
  uint lane = segmentLane(ROW_LANES);
  for (uint segment = firstSegment(ROW_LANES); segment < segment_count; segment += segmentStride(ROW_LANES)) {
    uint first = segment * segment_quads + lane;
    if (BATCHED_LOADS != 0u && ITEMS_PER_INVOCATION % 4u == 0u && pc.quad_count - segment * segment_quads >= segment_quads) {
      for (uint i = 0u; i < ITEMS_PER_INVOCATION; i += 4u) {
        VKINDEX_COPY_FOUR_UNITS(target_quads, 0u, source_quads, 0u, first + i * ROW_LANES, ROW_LANES)
      }
      continue;
    }
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint quad = first + i * ROW_LANES;
      if (quad >= pc.quad_count) break;
      target_quads[quad] = source_quads[quad];
    }
  }
}
