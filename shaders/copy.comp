#version 450
// Plain buffer copy in uvec4s: the ceiling any compute shader can reach on a device, reported by the
// benchmark beside vkCmdCopyBuffer. Same block/item structure as gather.comp.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint ITEMS_PER_INVOCATION = 4;

layout(binding = 0, std430) readonly buffer Source { uvec4 source_quads[]; };
layout(binding = 1, std430) writeonly buffer Target { uvec4 target_quads[]; };

layout(push_constant) uniform CopyParams { uint quad_count; } pc;

void main() {
  uint block = gl_WorkGroupSize.x * ITEMS_PER_INVOCATION;
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint grid = gl_NumWorkGroups.x * gl_NumWorkGroups.y * block;
  for (uint base = group * block; base < pc.quad_count; base += grid) {
    for (uint i = 0u; i < ITEMS_PER_INVOCATION; ++i) {
      uint item = base + i * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
      if (item >= pc.quad_count) break;
      target_quads[item] = source_quads[item];
    }
  }
}
