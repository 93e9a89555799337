#version 450
#extension GL_GOOGLE_include_directive : require
// Fold by owner, before the light fold (common/scatter_buckets_params.h): every light target's owner
// sorts its bucket of update positions ascending, in place, in registers, so that scatter_fold.comp
// applies them in index order. A kernel of its own rather than the fold's first step: the sorting
// network is most of the code, and the fold is specialized per element type and reduction while this
// is not. With the network inside, SwiftShader took 1.8 s to compile each fold variant (7.7 s for
// float64) and lavapipe 0.4 s (1 s); now the network is compiled once per device.
#include "common/scatter_buckets_params.h"

layout(local_size_x_id = 0) in;
#include "common/grid.glsl"

layout(binding = 0, std430) buffer Scratch { uint scratch[]; };
layout(binding = 1, std430) buffer Status { uint status_words[]; };

#include "common/bucket_network.glsl"
#include "common/heavy_sort.glsl"
#include "common/status_gate.glsl"

// Sorts the bucket scratch[begin, begin + count) ascending: keys past `count` hold 0xFFFFFFFF, above
// every position, and are never stored.
void sortBucket(uint begin, uint count) {
  uint keys[kBucketSlots];
#define VKINDEX_LOAD_KEY(slot)   \
  keys[slot] = 0xFFFFFFFFu;      \
  if ((slot) < count) keys[slot] = scratch[begin + (slot)];
  VKINDEX_EACH_SLOT(VKINDEX_LOAD_KEY)
  VKINDEX_SORT_BUCKET(count)
#define VKINDEX_STORE_KEY(slot) \
  if ((slot) < count) scratch[begin + (slot)] = keys[slot];
  VKINDEX_EACH_SLOT(VKINDEX_STORE_KEY)
}

void main() {
  if (badIndexFound()) return;
  uint stride = invocationStride();
  uint owners = bucketControl(VKINDEX_OWNER_COUNT);
  for (uint owner = firstInvocationItem(); owner < owners; owner += stride) {
    uint first, end;
    lightBucket(owner, first, end);
    sortBucket(first, end - first);
  }
}
