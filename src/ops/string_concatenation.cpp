#include "ops/string_concatenation.hpp"

#include "base/host_memory.hpp"
#include "plan/scatter_destinations.hpp"

namespace vkindex {

StatusOr<std::vector<std::string>> concatenateUpdates(const plan::ScatterShape& shape, const Tensor& indices,
                                                      const std::vector<std::string>& data,
                                                      const std::vector<std::string>& updates,
                                                      const std::string& purpose) {
  VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> index_bytes, indices.toHost());
  // Everything at once: the destinations (8 bytes per update), the output's string objects, and every
  // character of data and of the updates with a terminator each (an over-estimate where short strings
  // stay inside their objects, which is harmless).
  uint64_t total = updates.size() * sizeof(uint64_t) + data.size() * sizeof(std::string);
  for (const std::vector<std::string>* strings : {&data, &updates}) {
    for (const std::string& text : *strings) total += text.size() + 1;
  }
  VKINDEX_RETURN_IF_ERROR(checkHostAllocation(total, purpose + " (" + std::to_string(data.size()) + " strings, " +
                                                         std::to_string(updates.size()) + " updates appended)"));
  const std::vector<uint64_t> destinations = plan::scatterDestinations(shape, index_bytes);
  std::vector<std::string> output = data;
  for (size_t u = 0; u < destinations.size(); ++u) {
    if (destinations[u] != plan::kSkippedDestination) output[destinations[u]] += updates[u];
  }
  return output;
}

}  // namespace vkindex
