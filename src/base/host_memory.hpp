// Host allocations whose size comes from the caller's data. vkindex builds without exceptions, so a
// std::vector that cannot get its memory would end the process; these ask for the memory first,
// without throwing, and report kResourceExhausted naming what the memory was for and how much it was.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkindex/status.hpp"

namespace vkindex {

// Ok if `bytes` of host memory can be allocated right now: a non-throwing allocation of that size is
// made and released. The allocation that follows is of the same size, so it gets the same answer unless
// another thread takes the memory in between; callers that cannot allow that race pass their own memory
// (Tensor::download rather than toHost).
Status checkHostAllocation(uint64_t bytes, const std::string& what);

// A value-initialized vector of `count` elements, or kResourceExhausted.
template <typename T>
StatusOr<std::vector<T>> allocateHostVector(uint64_t count, const std::string& what) {
  if (count > std::vector<T>().max_size()) {
    return resourceExhausted(what + ": " + std::to_string(count) + " elements of " + std::to_string(sizeof(T)) +
                             " bytes exceed the host's address space");
  }
  VKINDEX_RETURN_IF_ERROR(checkHostAllocation(count * sizeof(T), what));
  return std::vector<T>(static_cast<size_t>(count));
}

}  // namespace vkindex
