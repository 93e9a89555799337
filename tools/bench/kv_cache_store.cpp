#include "kv_cache_store.hpp"

#include <cstring>
#include <utility>

namespace vkindex::bench {

uint32_t kvPatternWord(uint64_t seed, uint64_t index) {
  // splitmix64's finalizer over (seed, index): random access to any word, no generator state to carry.
  uint64_t z = (seed << 32) + index + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<uint32_t>(z ^ (z >> 31));
}

namespace {

// `words` words of stream `seed` from word `first` on.
void fillPattern(std::vector<uint32_t>& words, uint64_t seed, uint64_t first) {
  for (uint64_t w = 0; w < words.size(); ++w) words[w] = kvPatternWord(seed, first + w);
}

// Caches draw their patterns from seeds far from any update source's.
uint64_t kvCacheSeed(uint64_t set_seed, int cache) { return (set_seed << 12) + static_cast<uint64_t>(cache); }

}  // namespace

StatusOr<KvUpdateSource> KvUpdateSource::create(Context& context, uint64_t slots, uint64_t slot_bytes, uint64_t seed) {
  if (slot_bytes % 4 != 0) return invalidArgument("kv-cache: update slots must be whole words");
  KvUpdateSource source;
  source.slot_bytes_ = slot_bytes;
  source.seed_ = seed;
  std::vector<uint32_t> words(slots * slot_bytes / 4);
  fillPattern(words, seed, 0);
  VKINDEX_ASSIGN_OR_RETURN(
      source.storage_, Tensor::fromHost(context, DataType::kUInt32, {static_cast<int64_t>(words.size())}, words.data(),
                                        words.size() * 4));
  return source;
}

StatusOr<Tensor> KvUpdateSource::view(Context& context, uint64_t slot, DataType type, const Shape& shape) const {
  return Tensor::view(context, type, shape, storage_.buffer(), storage_.offset() + slot * slot_bytes_,
                      storage_.offset() + storage_.byteSize());
}

StatusOr<KvCacheSet> KvCacheSet::create(Context& context, int count, const KvCacheLayout& layout, DataType type,
                                        const Shape& shape, uint64_t seed) {
  if (layout.row_bytes % 4 != 0) return invalidArgument("kv-cache: cache rows must be whole words");
  KvCacheSet set;
  set.layout_ = layout;
  set.seed_ = seed;
  for (int i = 0; i < count; ++i) {
    VKINDEX_ASSIGN_OR_RETURN(Tensor cache, Tensor::create(context, type, shape));
    if (cache.byteSize() != layout.bytes()) return internalError("kv-cache: a cache's shape does not match its layout");
    set.caches_.push_back(std::move(cache));
  }
  VKINDEX_RETURN_IF_ERROR(set.reset());
  return set;
}

Status KvCacheSet::reset() {
  std::vector<uint32_t> words(layout_.bytes() / 4);
  for (int i = 0; i < count(); ++i) {
    fillPattern(words, kvCacheSeed(seed_, i), 0);
    VKINDEX_RETURN_IF_ERROR(caches_[static_cast<size_t>(i)].upload(words.data(), words.size() * 4));
  }
  writers_.assign(layout_.positions, Writer{});
  return Status::Ok();
}

void KvCacheSet::wrote(const KvUpdateSource& source, const std::vector<int64_t>& positions) {
  for (size_t t = 0; t < positions.size(); ++t) {
    if (positions[t] < 0) continue;  // a padding token writes nothing
    writers_[static_cast<size_t>(positions[t])] = Writer{&source, t, positions.size()};
  }
}

Status KvCacheSet::check(const std::string& what, const std::vector<int>& which) const {
  const uint64_t row_words = layout_.row_bytes / 4;
  std::vector<uint32_t> actual(layout_.bytes() / 4);
  std::vector<int> checked = which;
  for (int i = 0; checked.empty() && i < count(); ++i) checked.push_back(i);
  for (int i : checked) {
    VKINDEX_RETURN_IF_ERROR(caches_[static_cast<size_t>(i)].download(actual.data(), actual.size() * 4));
    for (uint64_t h = 0; h < layout_.heads; ++h) {
      for (uint64_t p = 0; p < layout_.positions; ++p) {
        const Writer& writer = writers_[p];
        // Where the row's words come from: the cache's own stream at the row, or the update's token
        // in cache i's slot of its source ([heads, tokens, row_bytes]).
        const uint64_t row = (h * layout_.positions + p) * row_words;
        uint64_t seed = kvCacheSeed(seed_, i);
        uint64_t first = row;
        if (writer.source != nullptr) {
          seed = writer.source->seed();
          first = (static_cast<uint64_t>(i) * writer.source->slotBytes() +
                   (h * writer.tokens + writer.token) * layout_.row_bytes) /
                  4;
        }
        for (uint64_t k = 0; k < row_words; ++k) {
          const uint32_t expected = kvPatternWord(seed, first + k);
          if (actual[row + k] == expected) continue;
          return internalError(what + ": cache " + std::to_string(i) + ", head " + std::to_string(h) + ", position " +
                               std::to_string(p) + ", byte " + std::to_string(4 * k) +
                               " differs from the CPU reference (" +
                               (writer.source != nullptr ? "an update row" : "an untouched row") + ")");
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace vkindex::bench
