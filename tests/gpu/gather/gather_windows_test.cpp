// Gather over tensors larger than one storage-buffer binding, over tensors at odd offsets inside
// shared buffers, and with more workgroups than one grid dimension allows.
#include <algorithm>
#include <numeric>

#include "core/context_impl.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

class GatherWindowsTest : public GpuTest {
 protected:
  // Runs `data`/`indices` through gather on `ctx` and compares with the reference, byte for byte.
  void expectMatches(Context& ctx, const HostTensor& data, const HostTensor& indices, int64_t axis) {
    SCOPED_TRACE("data " + describe(data) + ", indices " + describe(indices) + ", axis " + std::to_string(axis));
    ReferenceResult expected = referenceGather(data, indices, axis);
    ASSERT_FALSE(expected.bad_index_position);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(ctx, data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(ctx, indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, gather(ctx, data_tensor, index_tensor, axis));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
    ASSERT_EQ(actual.shape, expected.output.shape);
    ASSERT_TRUE(actual.bytes == expected.output.bytes) << "output bytes differ from the reference";
  }

  // A context whose bindings are capped at `bytes`, so tensors of a few KiB need several windows.
  std::unique_ptr<Context> cappedContext(uint64_t bytes) {
    ContextOptions options;
    options.overrides.max_binding_bytes = bytes;
    StatusOr<std::unique_ptr<Context>> ctx = makeContext(options);
    EXPECT_TRUE(ctx.ok()) << ctx.status().toString();
    return ctx.ok() ? std::move(ctx).value() : nullptr;
  }

  void expectNoValidationMessages(const Context& ctx) {
    EXPECT_EQ(ctx.validationMessageCount(), 0u) << ctx.firstValidationMessage();
  }
};

TEST_F(GatherWindowsTest, TensorsLargerThanTheBindingCapAreProcessedInWindows) {
  // 4 KiB bindings: with SwiftShader's 256-byte offset alignment that leaves 3.5 KiB per window.
  std::unique_ptr<Context> ctx = cappedContext(4096);
  ASSERT_TRUE(ctx);
  Rng rng(11);
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    // Word rows, data and output both split (axis 0 and a middle axis with several outer slices).
    expectMatches(*ctx, randomTensor(rng, DataType::kFloat32, {600, 7}), randomIndices(rng, index_type, {500}, 600), 0);
    expectMatches(*ctx, randomTensor(rng, DataType::kInt64, {6, 50, 3}), randomIndices(rng, index_type, {9, 7}, 50), 1);
    expectMatches(*ctx, randomTensor(rng, DataType::kComplex128, {300, 2}), randomIndices(rng, index_type, {400}, 300),
                  0);
    // Rows of several units, shorter than a segment (copied row by row on CPU drivers): 160-byte
    // rows, and 96-byte rows of a middle axis whose windows end inside slices.
    expectMatches(*ctx, randomTensor(rng, DataType::kFloat32, {200, 40}), randomIndices(rng, index_type, {150}, 200),
                  0);
    expectMatches(*ctx, randomTensor(rng, DataType::kFloat32, {5, 30, 24}), randomIndices(rng, index_type, {2, 17}, 30),
                  1);
    // Short word rows copied by columns (slices sharing their indices): 7 indices make each pass's
    // 896 output rows whole slices, and data windows end inside slices.
    expectMatches(*ctx, randomTensor(rng, DataType::kFloat32, {700, 9}), randomIndices(rng, index_type, {7}, 9), 1);
    // Sub-word rows: windows start and end inside output words, which passes must share.
    expectMatches(*ctx, randomTensor(rng, DataType::kUInt8, {1000, 5}), randomIndices(rng, index_type, {900}, 1000), 0);
    expectMatches(*ctx, randomTensor(rng, DataType::kInt16, {40, 90, 3}), randomIndices(rng, index_type, {37}, 90), 1);
    expectMatches(*ctx, randomTensor(rng, DataType::kBool, {5, 3001}), randomIndices(rng, index_type, {2999}, 3001),
                  -1);
  }
  expectNoValidationMessages(*ctx);
}

TEST_F(GatherWindowsTest, SliceLargerThanOneBindingIsUnsupported) {
  std::unique_ptr<Context> ctx = cappedContext(4096);
  ASSERT_TRUE(ctx);
  Rng rng(12);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(*ctx, randomTensor(rng, DataType::kFloat32, {3, 2048})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(*ctx, indexTensor(DataType::kInt64, {1}, {1})));
  StatusOr<Tensor> result = gather(*ctx, data, indices, 0);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(result.status().message().find("one slice after the axis is 8192 bytes"), std::string::npos)
      << result.status().message();
}

TEST_F(GatherWindowsTest, DataLargerThanMaxStorageBufferRange) {
  // On a device whose real limit is small (lavapipe: 128 MiB) the real limit is used; on one with a
  // larger limit (SwiftShader: 1 GiB) the binding is capped at 128 MiB to keep memory use modest.
  // Either way the data and the output exceed what one binding can hold.
  const uint64_t kCap = uint64_t(128) << 20;
  std::unique_ptr<Context> capped;
  Context* ctx = &context();
  if (context().device().max_storage_buffer_range > 2 * kCap) {
    capped = cappedContext(kCap);
    ASSERT_TRUE(capped);
    ctx = capped.get();
  }
  const uint64_t limit = ctx->device().max_storage_buffer_range;
  std::printf("binding limit in force: %llu bytes (device maxStorageBufferRange %llu)\n",
              static_cast<unsigned long long>(limit),
              static_cast<unsigned long long>(context().device().max_storage_buffer_range));
  const int64_t row_floats = 1024;
  const int64_t rows = static_cast<int64_t>((limit + (8 << 20)) / (row_floats * 4));
  Rng rng(13);
  HostTensor data = randomTensor(rng, DataType::kFloat32, {rows, row_floats});
  ASSERT_GT(data.bytes.size(), limit);
  // Every row once, reversed: the output is as large as the data, and rows past the limit are read.
  std::vector<int64_t> order(static_cast<size_t>(rows));
  std::iota(order.rbegin(), order.rend(), 0);
  for (size_t i = 0; i < order.size(); i += 3) order[i] -= rows;  // some negative
  expectMatches(*ctx, data, indexTensor(DataType::kInt64, {rows}, order), 0);
  expectNoValidationMessages(*ctx);
}

TEST_F(GatherWindowsTest, MoreWorkgroupsThanOneGridDimension) {
  // 32-wide groups, one item each, at most 256 groups per grid dimension (whatever the device's own
  // limit, which on NVIDIA is 2^31 - 1 along x): 2.2M indices and output words need more than 256 x 256
  // groups in both the check pass and the copy pass, so the kernels must use the 2-D grid and grid
  // strides.
  ContextOptions options;
  options.overrides.workgroup_size = 32;
  options.overrides.items_per_invocation = 1;
  options.overrides.max_workgroup_count = 256;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> ctx, makeContext(options));
  const int64_t count = 2200000;
  const DeviceInfo& device = ctx->device();
  const plan::Tuning& tuning = tuningOf(*ctx);
  ASSERT_GT(uint64_t(count) / (tuning.workgroup_size * tuning.items_per_invocation),
            uint64_t(device.max_workgroup_count[0]) * device.max_workgroup_count[1])
      << "the test no longer needs more groups than the 2-D grid holds";
  Rng rng(14);
  expectMatches(*ctx, randomTensor(rng, DataType::kFloat32, {1000}),
                randomIndices(rng, DataType::kInt32, {count}, 1000), 0);
  expectMatches(*ctx, randomTensor(rng, DataType::kUInt8, {1000}),
                randomIndices(rng, DataType::kInt32, {count * 4}, 1000), 0);
  expectNoValidationMessages(*ctx);
}

// Tensors viewing one shared buffer at 4-byte offsets that are not binding-aligned; bytes around the
// output, including the rest of its last word, must survive.
TEST_F(GatherWindowsTest, ViewsAtUnalignedOffsetsPreserveNeighbouringBytes) {
  Rng rng(15);
  const uint64_t arena_bytes = 8192;
  HostTensor arena_host = randomTensor(rng, DataType::kUInt8, {static_cast<int64_t>(arena_bytes)});
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor arena, toDevice(context(), arena_host));

  HostTensor data = randomTensor(rng, DataType::kUInt8, {9, 7});
  HostTensor indices = indexTensor(DataType::kInt64, {5}, {8, -9, 3, 3, 0});
  const uint64_t data_offset = 36, index_offset = 1028, output_offset = 2052;  // none 16-byte aligned
  std::copy(data.bytes.begin(), data.bytes.end(), arena_host.bytes.begin() + data_offset);
  std::copy(indices.bytes.begin(), indices.bytes.end(), arena_host.bytes.begin() + index_offset);
  VKINDEX_ASSERT_OK(arena.upload(arena_host.bytes.data(), arena_host.bytes.size()));

  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, Tensor::view(context(), DataType::kUInt8, data.shape, arena.buffer(),
                                                              data_offset, arena_bytes));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_view, Tensor::view(context(), DataType::kInt64, indices.shape,
                                                               arena.buffer(), index_offset, arena_bytes));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output_view, Tensor::view(context(), DataType::kUInt8, {5, 7}, arena.buffer(),
                                                                output_offset, arena_bytes));
  VKINDEX_ASSERT_OK(gather(context(), data_view, index_view, 0, output_view));

  ReferenceResult expected = referenceGather(data, indices, 0);
  std::copy(expected.output.bytes.begin(), expected.output.bytes.end(), arena_host.bytes.begin() + output_offset);
  VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor after, toHost(arena));
  EXPECT_TRUE(after.bytes == arena_host.bytes) << "output wrong, or bytes outside the output changed";
}

TEST_F(GatherWindowsTest, ViewRulesAreChecked) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor arena, Tensor::create(context(), DataType::kUInt8, {64}));
  StatusOr<Tensor> unaligned = Tensor::view(context(), DataType::kUInt8, {4}, arena.buffer(), 2, 64);
  ASSERT_FALSE(unaligned.ok());
  EXPECT_EQ(unaligned.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(unaligned.status().message(), "Tensor::view: offset 2 is not a multiple of 4 bytes");
  // 5 bytes round up to 8: at offset 60 they would need a 68-byte buffer.
  StatusOr<Tensor> too_long = Tensor::view(context(), DataType::kUInt8, {5}, arena.buffer(), 60, 64);
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(GatherWindowsTest, OutputOverlappingAnInputIsRejected) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor arena, Tensor::create(context(), DataType::kFloat32, {64}));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, Tensor::view(context(), DataType::kFloat32, {8}, arena.buffer(), 0, 256));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(context(), indexTensor(DataType::kInt32, {4}, {0, 1, 2, 3})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output,
                               Tensor::view(context(), DataType::kFloat32, {4}, arena.buffer(), 16, 256));
  Status status = gather(context(), data, indices, 0, output);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "Gather: the output overlaps input 'data' in the same VkBuffer");
}

}  // namespace
}  // namespace vkindex::test
