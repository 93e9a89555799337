#version 450
// Plain buffer copy in uvec4s: the ceiling any compute shader can reach on a device, reported by the
// benchmark beside vkCmdCopyBuffer. Same segment structure as gather_rows.comp's copy units: ROW_LANES
// invocations share a segment of ROW_LANES x ITEMS_PER_INVOCATION quads, interleaved quad by quad. The
// benchmark times several layouts (coalesced 256-lane segments suit GPUs, one lane streaming a long
// segment suits CPU drivers) and reports the fastest.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS_PER_INVOCATION = 4;
layout(constant_id = 4) const uint ROW_LANES = 1;

layout(binding = 0, std430) readonly buffer Source { uvec4 source_quads[]; };
layout(binding = 1, std430) writeonly buffer Target { uvec4 target_quads[]; };

layout(push_constant) uniform CopyParams { uint quad_count; } pc;

void main() {
  const uint segment_quads = ROW_LANES * ITEMS_PER_INVOCATION;
  uint segment_count = (pc.quad_count + segment_quads - 1u) / segment_quads;
  uint segments_per_group = gl_WorkGroupSize.x / ROW_LANES;
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * segments_per_group;
  uint lane = gl_LocalInvocationID.x % ROW_LANES;
  for (uint segment = group * segments_per_group + gl_LocalInvocationID.x / ROW_LANES; segment < segment_count;
       segment += stride) {
    uint first = segment * segment_quads + lane;
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint quad = first + i * ROW_LANES;
      if (quad >= pc.quad_count) break;
      target_quads[quad] = source_quads[quad];
    }
  }
}
