#include "support/tensor_scatter_reference.hpp"

#include <cstring>

namespace vkindex::test {
namespace {

// Element `from` of `source` into element `to` of `target` (same type).
void copyElement(const HostTensor& source, uint64_t from, HostTensor& target, uint64_t to) {
  if (source.dtype == DataType::kString) {
    target.strings[to] = source.strings[from];
    return;
  }
  if (elementBits(source.dtype) == 4) {
    const uint8_t nibble = (source.bytes[from / 2] >> (from % 2 * 4)) & 0xF;
    uint8_t& byte = target.bytes[to / 2];
    byte = static_cast<uint8_t>((byte & ~(0xF << (to % 2 * 4))) | (nibble << (to % 2 * 4)));
    return;
  }
  const size_t width = elementSize(source.dtype);
  std::memcpy(&target.bytes[to * width], &source.bytes[from * width], width);
}

// Whether write index w is allowed: linear [0, max_seq - seq_len], circular any w >= 0.
bool allowed(int64_t w, uint64_t seq_len, uint64_t max_seq, bool circular) {
  if (w < 0) return false;
  return circular || static_cast<uint64_t>(w) <= max_seq - seq_len;
}

}  // namespace

ReferenceResult referenceTensorScatter(const HostTensor& past, const HostTensor& update,
                                       const HostTensor* write_indices, const TensorScatterOptions& options) {
  const int64_t rank = static_cast<int64_t>(past.shape.size());
  const size_t axis = static_cast<size_t>(options.axis < 0 ? options.axis + rank : options.axis);
  const uint64_t batch = static_cast<uint64_t>(past.shape[0]);
  const uint64_t max_seq = static_cast<uint64_t>(past.shape[axis]);
  const uint64_t seq_len = static_cast<uint64_t>(update.shape[axis]);
  const bool circular = options.mode == TensorScatterMode::kCircular;

  ReferenceResult result;
  result.output = past;
  std::vector<int64_t> writes(batch, 0);
  std::vector<bool> skipped(batch, false);
  for (uint64_t b = 0; b < batch; ++b) {
    if (write_indices != nullptr) writes[b] = indexAt(*write_indices, b);
    if (allowed(writes[b], seq_len, max_seq, circular)) continue;
    if (options.index_policy == IndexPolicy::kError) {
      result.bad_index_position = b;
      return result;
    }
    skipped[b] = true;
  }
  // Every element of the update, by its coordinates: coordinate `axis` s becomes the cache position.
  std::vector<uint64_t> coordinates(past.shape.size(), 0);
  for (uint64_t u = 0; u < update.elementCount(); ++u) {
    uint64_t rest = u;
    for (size_t d = coordinates.size(); d-- > 0;) {
      coordinates[d] = rest % static_cast<uint64_t>(update.shape[d]);
      rest /= static_cast<uint64_t>(update.shape[d]);
    }
    const uint64_t b = coordinates[0];
    if (skipped[b]) continue;
    const uint64_t s = coordinates[axis], w = static_cast<uint64_t>(writes[b]);
    coordinates[axis] = circular ? (w % max_seq + s) % max_seq : w + s;
    uint64_t target = 0;
    for (size_t d = 0; d < coordinates.size(); ++d)
      target = target * static_cast<uint64_t>(past.shape[d]) + coordinates[d];
    copyElement(update, u, result.output, target);
  }
  return result;
}

}  // namespace vkindex::test
