// TensorScatter on cases written out by hand: ONNX's own node tests (onnx/backend/test/case/node/
// tensorscatter.py: linear, circular, rank 3), the paged-KV skip policy, absent write indices, seq_len 0
// at max_seq, many batch entries (the check pass), and 4-bit and 1-byte caches viewed inside a buffer
// whose neighbouring bytes must survive.
#include <string>

#include "support/gpu_test.hpp"
#include "support/typed_tensors.hpp"
#include "tensor_scatter_forms.hpp"

namespace vkindex::test {
namespace {

class TensorScatterDirectedTest : public GpuTest {};

// onnx tensorscatter.py's four-row cache: batch 2, one head, max_seq 4, rows of 5.
HostTensor onnxCache() {
  const std::vector<float> rows = {1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 4, 3, 2, 1, 0};
  std::vector<float> values(rows);
  values.insert(values.end(), rows.begin(), rows.end());
  return floats({2, 1, 4, 5}, values);
}

TEST_F(TensorScatterDirectedTest, OnnxLinear) {
  const HostTensor update = floats({2, 1, 1, 5}, {5, 5, 5, 5, 5, 1, 1, 1, 1, 1});
  const HostTensor expected = floats({2, 1, 4, 5}, {1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 8, 7, 6, 5, 4, 4, 3, 2, 1, 0,
                                                    1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 1, 1, 1, 1, 1, 4, 3, 2, 1, 0});
  const HostTensor past = onnxCache(), indices = writeIndices({1, 2});
  expectHandWrittenResult(context(), tensorScatterOperator(context(), {}), {past, indices, update}, expected);
}

TEST_F(TensorScatterDirectedTest, OnnxCircular) {
  const HostTensor update = floats({2, 1, 2, 5}, {5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2});
  const HostTensor expected = floats({2, 1, 4, 5}, {1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 4, 3, 2, 1, 0,
                                                    2, 2, 2, 2, 2, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 1, 1, 1, 1, 1});
  TensorScatterOptions options;
  options.mode = TensorScatterMode::kCircular;
  const HostTensor past = onnxCache(), indices = writeIndices({1, 3});
  expectHandWrittenResult(context(), tensorScatterOperator(context(), options), {past, indices, update}, expected);
}

TEST_F(TensorScatterDirectedTest, OnnxRank3) {
  const std::vector<float> rows = {1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 5, 4, 3, 2, 1};
  std::vector<float> cache;
  for (int b = 0; b < 3; ++b) cache.insert(cache.end(), rows.begin(), rows.end());
  const HostTensor past = floats({3, 4, 5}, cache);
  const HostTensor update =
      floats({3, 2, 5}, {4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3});
  const HostTensor expected =
      floats({3, 4, 5}, {1, 2, 3, 4, 5, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 5, 6, 7, 8, 9,
                         6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 8, 7, 6, 5, 4, 5, 4, 3, 2, 1});
  TensorScatterOptions options;
  options.axis = 1;  // the default -2 names the same axis; both spellings
  const HostTensor indices = writeIndices({1, 2, 0});
  expectHandWrittenResult(context(), tensorScatterOperator(context(), {}), {past, indices, update}, expected);
  expectHandWrittenResult(context(), tensorScatterOperator(context(), options), {past, indices, update}, expected);
}

TEST_F(TensorScatterDirectedTest, AbsentWriteIndicesWriteFromZero) {
  const HostTensor past = integers(DataType::kInt16, {2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  const HostTensor update = integers(DataType::kInt16, {2, 2, 2}, {21, 22, 23, 24, 25, 26, 27, 28});
  const HostTensor expected = integers(DataType::kInt16, {2, 3, 2}, {21, 22, 23, 24, 5, 6, 25, 26, 27, 28, 11, 12});
  const HostTensor unused = writeIndices({});
  expectHandWrittenResult(context(), tensorScatterOperator(context(), {}, false), {past, unused, update}, expected);
}

TEST_F(TensorScatterDirectedTest, EmptyUpdateAcceptsMaxSeq) {
  Rng rng(5);
  const HostTensor past = randomTensor(rng, DataType::kUInt8, {2, 3, 7});
  const HostTensor update = randomTensor(rng, DataType::kUInt8, {2, 0, 7});
  const HostTensor indices = writeIndices({3, 0});
  expectHandWrittenResult(context(), tensorScatterOperator(context(), {}), {past, indices, update}, past);
}

TEST_F(TensorScatterDirectedTest, SkipPolicyLeavesBadEntriesOut) {
  // Paged caches mark padding with -1: those batch entries write nothing, in either mode; so does a
  // linear write past the end. Nothing wraps under kSkip.
  const HostTensor past = integers(DataType::kInt32, {4, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  const HostTensor update = integers(DataType::kInt32, {4, 2, 1}, {21, 22, 23, 24, 25, 26, 27, 28});
  TensorScatterOptions options;
  options.index_policy = IndexPolicy::kSkip;
  const HostTensor linear_indices = writeIndices({-1, 1, 2, 0});
  expectHandWrittenResult(context(), tensorScatterOperator(context(), options), {past, linear_indices, update},
                          integers(DataType::kInt32, {4, 3, 1}, {1, 2, 3, 4, 23, 24, 7, 8, 9, 27, 28, 12}));
  options.mode = TensorScatterMode::kCircular;
  const HostTensor circular_indices = writeIndices({-1, 2, INT64_MIN, 4});
  expectHandWrittenResult(context(), tensorScatterOperator(context(), options), {past, circular_indices, update},
                          integers(DataType::kInt32, {4, 3, 1}, {1, 2, 3, 24, 5, 23, 7, 8, 9, 10, 27, 28}));
  const HostTensor all_skipped = writeIndices({-1, -1, -5, -1});
  expectHandWrittenResult(context(), tensorScatterOperator(context(), options), {past, all_skipped, update}, past);
}

TEST_F(TensorScatterDirectedTest, ManyBatchEntriesThroughTheCheckPass) {
  Rng rng(0xba7c4);
  for (TensorScatterMode mode : {TensorScatterMode::kLinear, TensorScatterMode::kCircular}) {
    const HostTensor past = randomTensor(rng, DataType::kFloat16, {300, 2, 5, 3});
    const HostTensor update = randomTensor(rng, DataType::kFloat16, {300, 2, 2, 3});
    std::vector<int64_t> writes;
    for (int b = 0; b < 300; ++b)
      writes.push_back(static_cast<int64_t>(rng() % (mode == TensorScatterMode::kLinear ? 4 : 50)));
    TensorScatterOptions options;
    options.mode = mode;
    const HostTensor indices = writeIndices(writes);
    expectFormsMatchReference(context(), tensorScatterOperator(context(), options), {past, indices, update});
  }
}

// Rows of hundreds of words: several segments of the write pass per row (CPU drivers' segments are 256
// words long, GPU tuning's 128 words over 32 lanes), and a copy pass of many segments.
TEST_F(TensorScatterDirectedTest, LongRowsSpanSeveralSegments) {
  Rng rng(0x5e6);
  for (DataType dtype : {DataType::kUInt8, DataType::kFloat16, DataType::kUInt4, DataType::kFloat64}) {
    SCOPED_TRACE(dataTypeName(dtype));
    const HostTensor past = randomTensor(rng, dtype, {2, 3, 5, 1283});
    const HostTensor update = randomTensor(rng, dtype, {2, 3, 3, 1283});
    TensorScatterOptions options;
    options.axis = 2;
    options.mode = TensorScatterMode::kCircular;
    const HostTensor indices = writeIndices({3, 9});
    expectFormsMatchReference(context(), tensorScatterOperator(context(), options), {past, indices, update});
  }
}

// The cache viewed at offset 4 of a buffer of random bytes: the write must leave every byte around it,
// and every element of it that no row covers, as it was (int4 rows of 3 elements start and end
// mid-byte; uint8 rows mid-word).
TEST_F(TensorScatterDirectedTest, NeighbouringNibblesAndBytesSurvive) {
  Rng rng(0x41b);
  for (DataType dtype : {DataType::kInt4, DataType::kUInt8, DataType::kFloat4E2M1, DataType::kFloat8E5M2}) {
    SCOPED_TRACE(dataTypeName(dtype));
    const HostTensor past = randomTensor(rng, dtype, {3, 2, 7, 3});
    const HostTensor update = randomTensor(rng, dtype, {3, 2, 3, 3});
    const HostTensor indices = writeIndices({0, 4, 1});
    TensorScatterOptions options;
    options.axis = 2;
    const ReferenceResult expected = referenceTensorScatter(past, update, &indices, options);
    ASSERT_FALSE(expected.bad_index_position.has_value());

    std::vector<uint8_t> buffer_bytes(256);
    for (uint8_t& byte : buffer_bytes) byte = static_cast<uint8_t>(rng());
    std::copy(past.bytes.begin(), past.bytes.end(), buffer_bytes.begin() + 4);
    VKINDEX_ASSERT_OK_AND_ASSIGN(
        Tensor buffer, Tensor::fromHost(context(), DataType::kUInt8, {256}, buffer_bytes.data(), buffer_bytes.size()));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor cache, Tensor::view(context(), dtype, past.shape, buffer.buffer(),
                                                            buffer.offset() + 4, 256 - buffer.offset()));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor update_tensor, toDevice(context(), update));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices_tensor, toDevice(context(), indices));
    VKINDEX_ASSERT_OK(tensorScatterInPlace(context(), cache, update_tensor, &indices_tensor, options));
    std::copy(expected.output.bytes.begin(), expected.output.bytes.end(), buffer_bytes.begin() + 4);
    VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> after, buffer.toHost());
    EXPECT_EQ(after, buffer_bytes);
  }
}

}  // namespace
}  // namespace vkindex::test
