// What an index outside its range means: ONNX's rule (an error) or "no element" (vkindex's extension
// for paged KV caches and padding tokens). No Vulkan: the planner uses it too.
#pragma once

#include <cstdint>

namespace vkindex {

enum class IndexPolicy : uint8_t {
  // ONNX: negative indices count from the back, anything else out of range is a kOutOfRange error
  // (checked on the device before anything is written).
  kError,
  // A negative or out-of-range index addresses nothing, and no index wraps: a scatter skips it (slot
  // -1 of a paged KV cache is padding), a gather gives a zero slice, TensorScatter skips the batch
  // entry. Never an error.
  kSkip,
};

}  // namespace vkindex
