// Uploads and downloads through a staging buffer smaller than the tensor: byte-exact over several chunks,
// for sizes and chunk sizes that are not multiples of the chunk, of 4 or of 16, whole tensors and views
// at offsets (which show every chunk lands at its own place, not just that a round trip agrees).
#include <algorithm>

#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"

namespace vkindex::test {
namespace {

class ChunkedTransferTest : public GpuTest {
 protected:
  // A context whose staging chunks hold `bytes`.
  static std::unique_ptr<Context> chunkedContext(uint64_t bytes) {
    ContextOptions options;
    options.overrides.max_staging_bytes = bytes;
    StatusOr<std::unique_ptr<Context>> ctx = makeContext(options);
    EXPECT_TRUE(ctx.ok()) << ctx.status().toString();
    return ctx.ok() ? std::move(ctx).value() : nullptr;
  }

  static std::vector<uint8_t> randomBytes(Rng& rng, size_t count) {
    std::vector<uint8_t> bytes(count);
    for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(rng());
    return bytes;
  }

  // A uint8 view of `count` bytes at `offset` of `tensor`'s buffer.
  static StatusOr<Tensor> byteView(Context& ctx, const Tensor& tensor, uint64_t offset, uint64_t count) {
    // The tensor's buffer holds at least its bytes rounded up to whole words.
    return Tensor::view(ctx, DataType::kUInt8, {static_cast<int64_t>(count)}, tensor.buffer(), offset,
                        (tensor.byteSize() + 3) / 4 * 4);
  }
};

// Chunks of 1000 bytes (not a multiple of 4 or 16) and 4096; sizes below, at and across chunk edges.
constexpr uint64_t kChunks[] = {1000, 4096};
constexpr size_t kSizes[] = {1, 3, 999, 1000, 1001, 2000, 4095, 4096, 4097, 10007, 3 * 4096 + 5};

TEST_F(ChunkedTransferTest, WholeTensorsRoundTripByteExact) {
  Rng rng(41);
  for (uint64_t chunk : kChunks) {
    std::unique_ptr<Context> ctx = chunkedContext(chunk);
    ASSERT_TRUE(ctx);
    for (size_t size : kSizes) {
      SCOPED_TRACE("chunk " + std::to_string(chunk) + ", " + std::to_string(size) + " bytes");
      std::vector<uint8_t> bytes = randomBytes(rng, size);
      VKINDEX_ASSERT_OK_AND_ASSIGN(
          Tensor tensor, Tensor::fromHost(*ctx, DataType::kUInt8, {static_cast<int64_t>(size)}, bytes.data(), size));
      VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> back, tensor.toHost());
      ASSERT_TRUE(back == bytes);
    }
    EXPECT_EQ(ctx->validationMessageCount(), 0u) << ctx->firstValidationMessage();
  }
}

TEST_F(ChunkedTransferTest, ViewsAtOffsetsReadAndWriteTheirOwnBytes) {
  Rng rng(43);
  for (uint64_t chunk : kChunks) {
    std::unique_ptr<Context> ctx = chunkedContext(chunk);
    ASSERT_TRUE(ctx);
    const size_t size = 3 * 4096 + 5;
    std::vector<uint8_t> expected = randomBytes(rng, size);
    VKINDEX_ASSERT_OK_AND_ASSIGN(
        Tensor tensor, Tensor::fromHost(*ctx, DataType::kUInt8, {static_cast<int64_t>(size)}, expected.data(), size));
    // (offset, length) pairs: offsets are multiples of 4 (Tensor::view's rule), lengths anything.
    const std::pair<uint64_t, uint64_t> slices[] = {{0, 1}, {4, 999}, {996, 1010}, {4092, 4101}, {8, size - 8}};
    for (auto [offset, length] : slices) {
      SCOPED_TRACE("chunk " + std::to_string(chunk) + ", view of " + std::to_string(length) + " bytes at " +
                   std::to_string(offset));
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor view, byteView(*ctx, tensor, offset, length));
      VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> read, view.toHost());
      ASSERT_TRUE(std::equal(read.begin(), read.end(), expected.begin() + offset, expected.begin() + offset + length));

      std::vector<uint8_t> written = randomBytes(rng, length);
      VKINDEX_ASSERT_OK(view.upload(written.data(), written.size()));
      std::copy(written.begin(), written.end(), expected.begin() + offset);
      VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> whole, tensor.toHost());
      ASSERT_TRUE(whole == expected) << "bytes outside the view changed, or the view's bytes are wrong";
    }
    EXPECT_EQ(ctx->validationMessageCount(), 0u) << ctx->firstValidationMessage();
  }
}

}  // namespace
}  // namespace vkindex::test
