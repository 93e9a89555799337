// Where an invocation's work starts and how far it strides. Dispatches of more than
// maxComputeWorkGroupCount[0] groups spill into y, so a group's index is y * (groups in x) + x, and
// every kernel walks its work grid-stride, whatever the number of groups the planner chose.
// Include after the `layout(local_size_x_id ...)` declaration: these read gl_WorkGroupSize.
#ifndef VKINDEX_GRID_GLSL
#define VKINDEX_GRID_GLSL

uint groupIndex() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

uint groupCount() { return gl_NumWorkGroups.x * gl_NumWorkGroups.y; }

// One item per invocation at a time: this invocation's first item, and the step to its next.
uint firstInvocationItem() { return groupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }

uint invocationStride() { return groupCount() * gl_WorkGroupSize.x; }

// Segments shared by `lanes` invocations (a power of two dividing the workgroup) and interleaved item
// by item among them: this invocation's first segment, the step to its next, and its lane.
uint firstSegment(uint lanes) { return groupIndex() * (gl_WorkGroupSize.x / lanes) + gl_LocalInvocationID.x / lanes; }

uint segmentStride(uint lanes) { return groupCount() * (gl_WorkGroupSize.x / lanes); }

uint segmentLane(uint lanes) { return gl_LocalInvocationID.x % lanes; }

// ceil(n / d) without the overflow that (n + d - 1) / d has near 2^32.
uint divideRoundingUp(uint n, uint d) { return n / d + (n % d == 0u ? 0u : 1u); }

#endif
