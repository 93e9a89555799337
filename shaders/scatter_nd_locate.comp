#version 450
#extension GL_GOOGLE_include_directive : require
// ScatterND with a reduction, first pass of the fold by owner (common/scatter_buckets_params.h): every
// update element records the data element its tuple addresses and zeroes that element's count (as
// scatter_elements_locate.comp does).
#include "common/spec_ids.h"
#include "common/bucket_marks.h"
#include "common/scatter_nd_params.h"

layout(local_size_x_id = VKINDEX_SPEC_WORKGROUP_SIZE) in;
#include "common/grid.glsl"
layout(constant_id = VKINDEX_SPEC_TUPLE_LENGTH) const uint TUPLE_LENGTH = 1;

layout(binding = 0, std430) readonly buffer Indices { uint indices_words[]; };
layout(binding = 1, std430) writeonly buffer Targets { uint targets[]; };
layout(binding = 2, std430) buffer Counts { uint counts[]; };
layout(binding = 3, std430) buffer Status { uint status_words[]; };

#include "common/indices.glsl"
#include "common/index_tuples.glsl"
#include "common/status_gate.glsl"

void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint count = (pc.end_tuple - pc.first_tuple) * pc.slice_elements;
  for (uint i = firstInvocationItem(); i < count; i += stride) {
    uint n = pc.first_tuple + i / pc.slice_elements;
    uint element = i - (n - pc.first_tuple) * pc.slice_elements;
    uint row = tupleRow(n);
    if (row == kSkippedIndex) {
      targets[n * pc.slice_elements + element] = VKINDEX_TARGET_SKIPPED;  // the skip policy: in no bucket
      continue;
    }
    uint target = row * pc.slice_elements + element;
    targets[n * pc.slice_elements + element] = target;
    // Stored only where not zero yet: duplicates then read a shared line instead of all writing it
    // (docs/reductions.md).
    if (counts[target] != 0u) counts[target] = 0u;
  }
}
