// TensorScatter's errors, each with its exact message: bad write indices found on the device (nothing
// written in any form: a caller's output keeps its canary, an in-place cache every byte), in both
// modes, at the extremes of int64, through the self-checking passes and through the check pass of many
// batch entries; and the host's checks of shapes, types and attributes. Registered under GPU-assisted
// validation too.
#include <string>

#include "support/gpu_test.hpp"
#include "tensor_scatter_forms.hpp"

namespace vkindex::test {
namespace {

class TensorScatterErrorsTest : public GpuTest {
 protected:
  // past [batch, 1, max_seq, 5] float32 and an update of seq_len rows; write indices as given.
  void expectBadWriteIndex(TensorScatterMode mode, int64_t max_seq, int64_t seq_len, const std::vector<int64_t>& writes,
                           const std::string& message) {
    Rng rng(0xe7707);
    const int64_t batch = static_cast<int64_t>(writes.size());
    const HostTensor past = randomTensor(rng, DataType::kFloat32, {batch, 1, max_seq, 5});
    const HostTensor update = randomTensor(rng, DataType::kFloat32, {batch, 1, seq_len, 5});
    const HostTensor indices = writeIndices(writes);
    TensorScatterOptions options;
    options.mode = mode;
    expectErrorInEveryForm(context(), tensorScatterOperator(context(), options), {past, indices, update},
                           StatusCode::kOutOfRange, message);
  }

  // The host check of a call with these shapes, types and options fails with `message`, before anything
  // runs (new output and in place).
  void expectHostError(const Shape& past_shape, const Shape& update_shape, DataType update_type,
                       const HostTensor* write_indices, const TensorScatterOptions& options,
                       const std::string& message) {
    SCOPED_TRACE(message);
    Rng rng(0x4057);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor past, toDevice(context(), randomTensor(rng, DataType::kFloat32, past_shape)));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor update, toDevice(context(), randomTensor(rng, update_type, update_shape)));
    std::optional<Tensor> indices;
    if (write_indices != nullptr) {
      VKINDEX_ASSERT_OK_AND_ASSIGN(indices, toDevice(context(), *write_indices));
    }
    const Tensor* indices_tensor = indices ? &*indices : nullptr;
    StatusOr<Tensor> fresh = tensorScatter(context(), past, update, indices_tensor, options);
    ASSERT_FALSE(fresh.ok());
    EXPECT_EQ(fresh.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(fresh.status().message(), message);
    const Status in_place = tensorScatterInPlace(context(), past, update, indices_tensor, options);
    EXPECT_EQ(in_place.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(in_place.message(), message);
  }
};

const std::string kLinearRule = "in linear mode (allowed [0, 2]: the write index plus seq_len must not exceed max_seq)";
const std::string kCircularRule =
    "in circular mode (allowed [0, 9223372036854775807]: positions wrap, but a write index may not be negative)";

TEST_F(TensorScatterErrorsTest, LinearWriteOneRowPastTheEnd) {
  expectBadWriteIndex(
      TensorScatterMode::kLinear, 4, 2, {1, 3},
      "TensorScatter: write_indices[1] = 3 is out of range for seq_len 2 and max_seq 4 (axis 2) " + kLinearRule);
}

TEST_F(TensorScatterErrorsTest, LinearInt64Extremes) {
  expectBadWriteIndex(TensorScatterMode::kLinear, 4, 2, {0, INT64_MAX},
                      "TensorScatter: write_indices[1] = 9223372036854775807 is out of range for seq_len 2 and "
                      "max_seq 4 (axis 2) " +
                          kLinearRule);
  expectBadWriteIndex(TensorScatterMode::kLinear, 4, 2, {INT64_MIN, 0},
                      "TensorScatter: write_indices[0] = -9223372036854775808 is out of range for seq_len 2 and "
                      "max_seq 4 (axis 2) " +
                          kLinearRule);
  // 2^32 + 1: its low word alone would be a valid write index.
  expectBadWriteIndex(TensorScatterMode::kLinear, 4, 2, {(int64_t(1) << 32) + 1, 0},
                      "TensorScatter: write_indices[0] = 4294967297 is out of range for seq_len 2 and max_seq 4 "
                      "(axis 2) " +
                          kLinearRule);
}

TEST_F(TensorScatterErrorsTest, NegativeWriteIndexInBothModes) {
  expectBadWriteIndex(
      TensorScatterMode::kLinear, 4, 2, {0, -1},
      "TensorScatter: write_indices[1] = -1 is out of range for seq_len 2 and max_seq 4 (axis 2) " + kLinearRule);
  expectBadWriteIndex(
      TensorScatterMode::kCircular, 4, 2, {7, -1},
      "TensorScatter: write_indices[1] = -1 is out of range for seq_len 2 and max_seq 4 (axis 2) " + kCircularRule);
  expectBadWriteIndex(TensorScatterMode::kCircular, 4, 2, {INT64_MIN, 0},
                      "TensorScatter: write_indices[0] = -9223372036854775808 is out of range for seq_len 2 and "
                      "max_seq 4 (axis 2) " +
                          kCircularRule);
}

TEST_F(TensorScatterErrorsTest, EmptyUpdateStillChecksItsWriteIndices) {
  // seq_len 0 accepts max_seq itself, but not max_seq + 1.
  expectBadWriteIndex(TensorScatterMode::kLinear, 4, 0, {4, 5},
                      "TensorScatter: write_indices[1] = 5 is out of range for seq_len 0 and max_seq 4 (axis 2) in "
                      "linear mode (allowed [0, 4]: the write index plus seq_len must not exceed max_seq)");
}

TEST_F(TensorScatterErrorsTest, ManyBatchEntriesReportTheFirstBadOne) {
  // More batch entries than the write passes check themselves: a check pass of its own finds them.
  std::vector<int64_t> writes(300, 1);
  writes[170] = 3;
  writes[250] = -2;
  expectBadWriteIndex(
      TensorScatterMode::kLinear, 4, 2, writes,
      "TensorScatter: write_indices[170] = 3 is out of range for seq_len 2 and max_seq 4 (axis 2) " + kLinearRule);
  writes[170] = 1;
  expectBadWriteIndex(
      TensorScatterMode::kCircular, 4, 2, writes,
      "TensorScatter: write_indices[250] = -2 is out of range for seq_len 2 and max_seq 4 (axis 2) " + kCircularRule);
}

TEST_F(TensorScatterErrorsTest, AxisMustBeAnAxisOtherThanTheBatchAxis) {
  TensorScatterOptions options;
  options.axis = 0;
  expectHostError({2, 3, 4}, {2, 3, 4}, DataType::kFloat32, nullptr, options,
                  "TensorScatter: attribute 'axis' = 0 names the batch axis 0; the sequence axis must be another "
                  "(allowed [1, 2] or [-2, -1])");
  options.axis = -3;
  expectHostError({2, 3, 4}, {2, 3, 4}, DataType::kFloat32, nullptr, options,
                  "TensorScatter: attribute 'axis' = -3 names the batch axis 0; the sequence axis must be another "
                  "(allowed [1, 2] or [-2, -1])");
  options.axis = 3;
  expectHostError({2, 3, 4}, {2, 3, 4}, DataType::kFloat32, nullptr, options,
                  "TensorScatter: attribute 'axis' = 3 is out of range for input 'past_cache' of rank 3 (allowed "
                  "[1, 2] or [-2, -1])");
  options.axis = -1;
  expectHostError({4}, {4}, DataType::kFloat32, nullptr, options,
                  "TensorScatter: input 'past_cache' must have rank >= 2 (a batch axis and a sequence axis), got "
                  "shape [4]");
}

TEST_F(TensorScatterErrorsTest, UpdateMustMatchTheCache) {
  const TensorScatterOptions options;
  expectHostError({2, 3, 4}, {2, 3, 4}, DataType::kFloat16, nullptr, options,
                  "TensorScatter: input 'update' has type float16 but input 'past_cache' has type float");
  expectHostError({2, 5, 4}, {2, 4, 3}, DataType::kFloat32, nullptr, options,
                  "TensorScatter: input 'update' has shape [2, 4, 3] but input 'past_cache' has shape [2, 5, 4]; "
                  "they must have the same rank and agree in every dim but axis 1");
  expectHostError({2, 5, 4}, {2, 5}, DataType::kFloat32, nullptr, options,
                  "TensorScatter: input 'update' has shape [2, 5] but input 'past_cache' has shape [2, 5, 4]; they "
                  "must have the same rank and agree in every dim but axis 1");
  expectHostError({2, 5, 4}, {2, 6, 4}, DataType::kFloat32, nullptr, options,
                  "TensorScatter: input 'update' has seq_len 6 along axis 1, more than past_cache's max_seq 5");
}

TEST_F(TensorScatterErrorsTest, WriteIndicesMustBeInt64OfShapeBatch) {
  const TensorScatterOptions options;
  const HostTensor int32_indices = indexTensor(DataType::kInt32, {2}, {0, 1});
  expectHostError({2, 5, 4}, {2, 1, 4}, DataType::kFloat32, &int32_indices, options,
                  "TensorScatter: input 'write_indices' has type int32; the allowed type is int64");
  const HostTensor three = writeIndices({0, 1, 2});
  expectHostError({2, 5, 4}, {2, 1, 4}, DataType::kFloat32, &three, options,
                  "TensorScatter: input 'write_indices' has shape [3] but must be [batch] = [2], one write index per "
                  "batch entry");
  const HostTensor matrix = indexTensor(DataType::kInt64, {2, 1}, {0, 1});
  expectHostError({2, 5, 4}, {2, 1, 4}, DataType::kFloat32, &matrix, options,
                  "TensorScatter: input 'write_indices' has shape [2, 1] but must be [batch] = [2], one write index "
                  "per batch entry");
}

}  // namespace
}  // namespace vkindex::test
