// GatherElements and GatherND over tensors larger than one storage-buffer binding (a 4 KiB cap, and
// the device's real maxStorageBufferRange) and with more workgroups than one grid dimension allows.
#include <numeric>

#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

enum class Op { kGatherElements, kGatherND };

class GatherFamilyWindowsTest : public GpuTest {
 protected:
  // Runs the op on `ctx` and compares with the reference, byte for byte.
  void expectMatches(Context& ctx, Op op, const HostTensor& data, const HostTensor& indices, int64_t attribute) {
    SCOPED_TRACE(std::string(op == Op::kGatherND ? "GatherND" : "GatherElements") + ": data " + describe(data) +
                 ", indices " + describe(indices) + ", attribute " + std::to_string(attribute));
    ReferenceResult expected = op == Op::kGatherND ? referenceGatherND(data, indices, attribute)
                                                   : referenceGatherElements(data, indices, attribute);
    ASSERT_FALSE(expected.bad_index_position);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(ctx, data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(ctx, indices));
    StatusOr<Tensor> output = op == Op::kGatherND ? gatherND(ctx, data_tensor, index_tensor, attribute)
                                                  : gatherElements(ctx, data_tensor, index_tensor, attribute);
    ASSERT_TRUE(output.ok()) << output.status().toString();
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(*output));
    ASSERT_EQ(actual.shape, expected.output.shape);
    ASSERT_TRUE(actual.bytes == expected.output.bytes) << "output bytes differ from the reference";
    EXPECT_EQ(ctx.validationMessageCount(), 0u) << ctx.firstValidationMessage();
  }

  static std::unique_ptr<Context> contextWith(ContextOptions options) {
    StatusOr<std::unique_ptr<Context>> ctx = makeContext(options);
    EXPECT_TRUE(ctx.ok()) << ctx.status().toString();
    return ctx.ok() ? std::move(ctx).value() : nullptr;
  }
};

TEST_F(GatherFamilyWindowsTest, TensorsLargerThanTheBindingCapAreProcessedInWindows) {
  // 4 KiB bindings: data, indices and output each need several windows.
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> ctx, makeContextWithBindings(4096));
  Rng rng(21);
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    for (DataType type : {DataType::kFloat32, DataType::kUInt8, DataType::kInt16, DataType::kComplex128}) {
      // Elements: sources anywhere in data, output split into chunks that each visit every data window.
      expectMatches(*ctx, Op::kGatherElements, randomTensor(rng, type, {60, 50}),
                    randomIndices(rng, index_type, {70, 40}, 60), 0);
      expectMatches(*ctx, Op::kGatherElements, randomTensor(rng, type, {9, 40, 11}),
                    randomIndices(rng, index_type, {7, 45, 11}, 40), -2);
      // Tuples: batched pairs over small slices, and single components over rows.
      expectMatches(*ctx, Op::kGatherND, randomTensor(rng, type, {4, 30, 20, 3}),
                    randomTuples(rng, index_type, {4, 50, 2}, {4, 30, 20, 3}, 1), 1);
      expectMatches(*ctx, Op::kGatherND, randomTensor(rng, type, {300, 13}),
                    randomTuples(rng, index_type, {400, 1}, {300, 13}, 0), 0);
    }
  }
}

TEST_F(GatherFamilyWindowsTest, DataLargerThanMaxStorageBufferRange) {
  // The device's real limit where it is small (lavapipe: 128 MiB), else a 128 MiB cap (SwiftShader's
  // 1 GiB would cost too much memory): data and output exceed one binding either way.
  Rng rng(22);
  PastTheLimit big;
  ASSERT_NO_FATAL_FAILURE(dataPastTheBindingLimit(rng, DataType::kFloat32, big));
  // GatherND: every row once, reversed (some negative), so rows past the limit are read and written.
  std::vector<int64_t> order(static_cast<size_t>(big.rows));
  std::iota(order.rbegin(), order.rend(), 0);
  for (size_t i = 0; i < order.size(); i += 3) order[i] -= big.rows;
  expectMatches(*big.context, Op::kGatherND, big.data, indexTensor(DataType::kInt64, {big.rows, 1}, order), 0);
  // GatherElements along axis 0: each output element reads a random row, across data windows (the
  // output stays small; the 4 KiB-cap test splits outputs).
  expectMatches(*big.context, Op::kGatherElements, big.data,
                randomIndices(rng, DataType::kInt32, {big.rows, 8}, big.rows), 0);
}

TEST_F(GatherFamilyWindowsTest, MoreWorkgroupsThanOneGridDimension) {
  // 32-wide groups, one item each, at most 256 groups per grid dimension (whatever the device's own
  // limit): 2.2M output elements need more than 256 x 256 groups in the check and copy passes, so the
  // kernels must use the 2-D grid and grid strides.
  ContextOptions options;
  options.overrides.workgroup_size = 32;
  options.overrides.items_per_invocation = 1;
  options.overrides.max_workgroup_count = 256;
  std::unique_ptr<Context> ctx = contextWith(options);
  ASSERT_TRUE(ctx);
  const int64_t count = 2200000;
  const DeviceInfo& device = ctx->device();
  ASSERT_GT(uint64_t(count) / 32, uint64_t(device.max_workgroup_count[0]) * device.max_workgroup_count[1])
      << "the test no longer needs more groups than the 2-D grid holds";
  Rng rng(23);
  expectMatches(*ctx, Op::kGatherElements, randomTensor(rng, DataType::kFloat32, {1000, 3}),
                randomIndices(rng, DataType::kInt32, {count, 3}, 1000), 0);
  expectMatches(*ctx, Op::kGatherND, randomTensor(rng, DataType::kUInt8, {1000}),
                randomTuples(rng, DataType::kInt32, {count * 4, 1}, {1000}, 0), 0);
}

TEST_F(GatherFamilyWindowsTest, ABindingCapFarBelowTheTensorsIsRefusedBeforePlanning) {
  // 256-byte bindings over 256 KiB tensors: 1024 x 1024 window pairs, which once took about a minute
  // and 1.9 GB to plan. Refused at once, by every operator family, before anything is recorded.
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> ctx, makeContextWithBindings(256));
  Rng rng(5);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(*ctx, randomTensor(rng, DataType::kFloat32, {65536})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(*ctx, randomIndices(rng, DataType::kInt32, {65536}, 65536)));
  const std::string refusal =
      ": tensors of 262144 and 262144 bytes need 1024 x 1024 binding windows of at most 256 bytes "
      "(ContextOverrides::max_binding_bytes, or the device's maxStorageBufferRange); more than 65536 window pairs "
      "are not planned";
  StatusOr<Tensor> gathered = gatherElements(*ctx, data, indices, 0);
  ASSERT_FALSE(gathered.ok());
  EXPECT_EQ(gathered.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(gathered.status().message(), "GatherElements" + refusal);
  StatusOr<Tensor> scattered = scatterElements(*ctx, data, indices, data, 0, Reduction::kNone);
  ASSERT_FALSE(scattered.ok());
  EXPECT_EQ(scattered.status().message(), "ScatterElements" + refusal);
  // A cap that keeps the pairs within the limit still plans: 16 KiB bindings, 16 x 16 pairs.
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> wider, makeContextWithBindings(16384));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor wide_data, toDevice(*wider, randomTensor(rng, DataType::kFloat32, {65536})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor wide_indices,
                               toDevice(*wider, randomIndices(rng, DataType::kInt32, {65536}, 65536)));
  VKINDEX_ASSERT_OK(gatherElements(*wider, wide_data, wide_indices, 0).status());
}

}  // namespace
}  // namespace vkindex::test
