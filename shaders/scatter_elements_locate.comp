#version 450
#extension GL_GOOGLE_include_directive : require
// ScatterElements with a reduction, first pass of the fold by owner (common/scatter_buckets_params.h):
// every update records the data element its index addresses and zeroes that element's count. Only
// the targets of updates are zeroed, so no pass of the fold costs more than the updates do, however
// large the data.
#include "common/spec_ids.h"
#include "common/bucket_marks.h"
#include "common/scatter_elements_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"

layout(binding = 0, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 1, std430) writeonly buffer Targets { uint targets[]; };
layout(binding = 2, std430) buffer Counts { uint counts[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/element_lines.glsl"
#include "common/status_gate.glsl"

void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint count = passUpdateCount();
  for (uint item = firstInvocationItem(); item < count; item += stride) {
    uint position, target;
    locateUpdate(item, position, target);
    if (target == kSkippedIndex) {
      targets[position] = VKINDEX_TARGET_SKIPPED;  // the skip policy: in no bucket, counted nowhere
      continue;
    }
    targets[position] = target;
    // Stored only where not zero yet: duplicates then read a shared line instead of all writing it
    // (docs/reductions.md).
    if (counts[target] != 0u) counts[target] = 0u;
  }
}
