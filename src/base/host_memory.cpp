#include "base/host_memory.hpp"

#include <cstdint>
#include <new>

namespace vkindex {

Status checkHostAllocation(uint64_t bytes, const std::string& what) {
  // PTRDIFF_MAX: the most any one object may span, and so any allocation.
  void* probe = bytes <= uint64_t(PTRDIFF_MAX) ? ::operator new(static_cast<size_t>(bytes), std::nothrow) : nullptr;
  if (probe == nullptr) {
    return resourceExhausted(what + ": cannot allocate " + std::to_string(bytes) + " bytes of host memory");
  }
  ::operator delete(probe);
  return Status::Ok();
}

}  // namespace vkindex
