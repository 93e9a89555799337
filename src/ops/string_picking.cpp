#include "ops/string_picking.hpp"

#include <cstring>

#include "base/host_memory.hpp"

namespace vkindex {
namespace {

// The string with concatenated index `id` across `sources`; ids come from the operator, which only
// moves ids it was given, so every id is in range.
const std::string& stringAt(const std::vector<const std::vector<std::string>*>& sources, uint32_t id) {
  for (const std::vector<std::string>* source : sources) {
    if (id < source->size()) return (*source)[id];
    id -= static_cast<uint32_t>(source->size());
  }
  return sources.back()->back();  // unreachable for ids the operator produced
}

// Heap bytes a copy of `text` takes besides its std::string object: none for a string that fits the
// object's own buffer (an empty string's capacity), else its characters and terminator.
uint64_t heapBytes(const std::string& text) {
  static const size_t kInlineCapacity = std::string().capacity();
  return text.size() <= kInlineCapacity ? 0 : text.size() + 1;
}

}  // namespace

StatusOr<std::vector<std::string>> pickStrings(const Tensor& ids,
                                               const std::vector<const std::vector<std::string>*>& sources,
                                               const std::string& purpose) {
  VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> id_bytes, ids.toHost());
  const uint64_t count = ids.elementCount();
  uint64_t total = count * sizeof(std::string);
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t id;
    std::memcpy(&id, id_bytes.data() + i * sizeof(id), sizeof(id));
    total += heapBytes(stringAt(sources, id));
  }
  // The whole output at once: copies of one string are separate allocations, but if their sum cannot
  // be had now, the copying would run out part way through.
  VKINDEX_RETURN_IF_ERROR(checkHostAllocation(total, purpose + " (" + std::to_string(count) + " strings)"));
  std::vector<std::string> strings(count);
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t id;
    std::memcpy(&id, id_bytes.data() + i * sizeof(id), sizeof(id));
    strings[i] = stringAt(sources, id);
  }
  return strings;
}

}  // namespace vkindex
