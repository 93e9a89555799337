// GatherBlockQuantized's plan, without a device: which module runs (the word path for the embedding
// layout), the error policy's check pass and status gate, passes over windows of rows for a table
// larger than one binding (each binding valid, the rows covered once, the zero slices in the first
// pass only), and what cannot be cut.
#include <gtest/gtest.h>

#include "common/gather_block_quantized_params.h"
#include "plan/gather_block_quantized_plan.hpp"
#include "plan_test_support.hpp"

namespace vkindex::plan::test {
namespace {

struct Call {
  TensorInput data{DataType::kInt4, {32, 64}};
  TensorInput indices{DataType::kInt64, {5}};
  TensorInput scales{DataType::kFloat16, {32, 4}};
  std::optional<TensorInput> zero_points;
  GatherBlockQuantizedOptions options;
};

GatherBlockQuantizedShape inferred(const Call& call) {
  StatusOr<GatherBlockQuantizedShape> shape =
      inferGatherBlockQuantizedShape(call.data, call.indices, call.scales, call.zero_points, call.options);
  EXPECT_TRUE(shape.ok()) << shape.status().toString();
  return shape.ok() ? *shape : GatherBlockQuantizedShape{};
}

uint64_t bytesOf(const TensorInput& input, uint32_t bits_override = 0) {
  const uint64_t count = *elementCount(input.shape);
  return bits_override != 0 ? (count * bits_override + 7) / 8 : packedByteSize(input.type, count);
}

StatusOr<OpPlan> planned(const Call& call, const FakeDevice& device, uint64_t output_offset = 0,
                         uint64_t data_offset = 0) {
  const GatherBlockQuantizedShape shape = inferred(call);
  const Placement data{data_offset, bytesOf(call.data)};
  const Placement indices{uint64_t(1) << 40, bytesOf(call.indices)};
  const Placement scales{uint64_t(2) << 40, bytesOf(call.scales)};
  const Placement output{(uint64_t(3) << 40) + output_offset,
                         packedByteSize(shape.scale_type, *elementCount(shape.output_shape))};
  std::optional<Placement> zero_points;
  if (call.zero_points) zero_points = Placement{uint64_t(4) << 40, bytesOf(*call.zero_points)};
  return planGatherBlockQuantized(shape, data, indices, scales, zero_points, output, device, device);
}

std::vector<Kernel> kernelsOf(const OpPlan& plan) {
  std::vector<Kernel> kernels;
  for (const Step& step : plan.steps) kernels.push_back(step.kernel);
  return kernels;
}

// The embedding layout (the default Call, blocks of 16) on a device without the native modules' rounding
// control; the tests below switch it on where they need it.
Call wordPathCall() {
  Call call;
  call.options.block_size = 16;
  return call;
}
FakeDevice softMultiplyDevice() {
  FakeDevice device = fakeDevice(uint64_t(1) << 27, 64);
  device.native_float32_add = false;
  return device;
}

TEST(GatherBlockQuantizedPlanTest, EmbeddingLayoutTakesTheWordPathInOneDispatch) {
  const Call call = wordPathCall();
  FakeDevice device = softMultiplyDevice();
  StatusOr<OpPlan> plan = planned(call, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  // float16 scales: their products with integer codes are exact, so the device's multiply serves.
  EXPECT_EQ(kernelsOf(*plan), std::vector<Kernel>{Kernel::kGatherBlockQuantizedWordsHalfScales});
  const auto params = pushOf<abi::GatherBlockQuantizedParams>(plan->steps[0]);
  EXPECT_EQ(params.flags & VKINDEX_GBQ_WRITES_ZEROS, VKINDEX_GBQ_WRITES_ZEROS);
  EXPECT_EQ(params.flags & VKINDEX_GBQ_STATUS_GATE, 0u);  // the skip policy: nothing to check
  EXPECT_EQ(commandCounts(*plan).dispatches, 1u);
  // float32 scales need the product rounded: the soft multiply where the device cannot round on request.
  Call float_scales = call;
  float_scales.scales.type = DataType::kFloat32;
  plan = planned(float_scales, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernelsOf(*plan), std::vector<Kernel>{Kernel::kGatherBlockQuantizedWords});
  device.native_float32_add = true;
  for (const Call& c : {call, float_scales}) {
    plan = planned(c, device);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(kernelsOf(*plan), std::vector<Kernel>{Kernel::kGatherBlockQuantizedWordsNative});
  }
}

// The word path's native-multiply module stores a data word's output words (here 4: eight int4 codes
// into float16) as one 16-byte vector where the output starts on a 16-byte boundary of its binding,
// else word by word; the soft-multiply module (SwiftShader's) always word by word.
TEST(GatherBlockQuantizedPlanTest, WordPathStoresVectorsOnlyWhereTheOutputIsAligned) {
  Call call = wordPathCall();
  FakeDevice device = softMultiplyDevice();
  StatusOr<OpPlan> soft = planned(call, device);
  ASSERT_TRUE(soft.ok()) << soft.status().toString();
  EXPECT_EQ(pushOf<abi::GatherBlockQuantizedParams>(soft->steps[0]).flags & VKINDEX_GBQ_VECTOR_STORES, 0u);
  device.native_float32_add = true;
  for (const uint64_t offset : {0, 4, 8, 12, 16, 48}) {
    SCOPED_TRACE("output at byte " + std::to_string(offset));
    StatusOr<OpPlan> plan = planned(call, device, offset);
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    const auto params = pushOf<abi::GatherBlockQuantizedParams>(plan->steps[0]);
    EXPECT_EQ(params.out_word_offset % 4 == 0, (params.flags & VKINDEX_GBQ_VECTOR_STORES) != 0);
    EXPECT_EQ(offset % 16 == 0, (params.flags & VKINDEX_GBQ_VECTOR_STORES) != 0);
  }
  // The general kernel (quantize_axis before gather_axis) has no vector stores.
  call.options.gather_axis = 1;
  call.options.quantize_axis = 0;
  call.scales.shape = {2, 64};
  StatusOr<OpPlan> plan = planned(call, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(pushOf<abi::GatherBlockQuantizedParams>(plan->steps[0]).flags & VKINDEX_GBQ_VECTOR_STORES, 0u);
}

// The native modules' word path takes a segment's data words four at a time (one 16-byte load, 16-byte
// stores) where all it steps over is whole quads: int4 rows of 512 codes in blocks of 32 (a quad's
// codes) or more, segments of 4 words or more, the data's lead and the output on 16 bytes. With
// int64_units the module holding 64-bit units.
TEST(GatherBlockQuantizedPlanTest, WordPathTakesQuadsOfDataWordsWhereAllIsWholeQuads) {
  Call call;
  call.data.shape = {32, 512};
  call.indices.shape = {64};  // 4096 data words: segments of 4 on groups of 64
  call.scales.shape = {32, 16};
  call.options.block_size = 32;
  FakeDevice device = softMultiplyDevice();
  device.row_items = 256;
  const auto quads = [&](const Call& c, uint64_t output_offset = 0, uint64_t data_offset = 0) {
    StatusOr<OpPlan> plan = planned(c, device, output_offset, data_offset);
    EXPECT_TRUE(plan.ok()) << plan.status().toString();
    return plan.ok() && plan->steps.size() == 1 &&
           (pushOf<abi::GatherBlockQuantizedParams>(plan->steps[0]).flags & VKINDEX_GBQ_QUAD_WORDS) != 0;
  };
  EXPECT_FALSE(quads(call));  // the soft multiply's module has none
  device.native_float32_add = true;
  EXPECT_TRUE(quads(call));
  EXPECT_EQ(kernelsOf(*planned(call, device)), std::vector<Kernel>{Kernel::kGatherBlockQuantizedWordsNative});
  device.int64_units = true;
  EXPECT_TRUE(quads(call));
  EXPECT_EQ(kernelsOf(*planned(call, device)), std::vector<Kernel>{Kernel::kGatherBlockQuantizedWordsNativeInt64});
  // The output and the data's first row on 16 bytes of their bindings (64-byte alignment here).
  EXPECT_TRUE(quads(call, 16, 0));
  EXPECT_FALSE(quads(call, 8, 0));
  EXPECT_TRUE(quads(call, 0, 16));
  EXPECT_FALSE(quads(call, 0, 8));
  // Blocks of 16 codes are half a quad.
  Call short_blocks = call;
  short_blocks.options.block_size = 16;
  short_blocks.scales.shape = {32, 32};
  EXPECT_FALSE(quads(short_blocks));
  // An axis of 520 codes (65 words) ends mid-quad; blocks longer than the axis are fine where it does not.
  Call odd_axis = call;
  odd_axis.data.shape = {32, 520};
  odd_axis.scales.shape = {32, 17};
  EXPECT_FALSE(quads(odd_axis));
  Call long_blocks = call;
  long_blocks.options.block_size = 1024;
  long_blocks.scales.shape = {32, 1};
  EXPECT_TRUE(quads(long_blocks));
  // A few rows' segments of 2 words (the small-call spread over four subgroups of 4) are half a quad.
  Call few = call;
  few.indices.shape = {1};  // 64 words over 16 invocations: 4 each
  EXPECT_TRUE(quads(few));
  few.data.shape = {32, 256};  // 32 words: 2 each
  few.scales.shape = {32, 8};
  EXPECT_FALSE(quads(few));
}

TEST(GatherBlockQuantizedPlanTest, OtherLayoutsTakeTheGeneralKernel) {
  Call call;  // quantize_axis 0 before gather_axis 1
  call.options.gather_axis = 1;
  call.options.quantize_axis = 0;
  call.options.block_size = 16;
  call.scales.shape = {2, 64};
  StatusOr<OpPlan> plan = planned(call, fakeDevice(uint64_t(1) << 27, 64));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_EQ(kernelsOf(*plan), std::vector<Kernel>{Kernel::kGatherBlockQuantized});
}

// Past fuseSmallChecks' bound (16 index components) the error policy keeps its check pass.
TEST(GatherBlockQuantizedPlanTest, ErrorPolicyChecksFirstAndGatesTheWrite) {
  Call call = wordPathCall();
  call.indices.shape = {kMaxSelfCheckedComponents + 1};
  call.options.index_policy = IndexPolicy::kError;
  StatusOr<OpPlan> plan = planned(call, fakeDevice(uint64_t(1) << 27, 64));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  ASSERT_GE(plan->steps.size(), 2u);
  EXPECT_TRUE(isCheckKernel(plan->steps[0].kernel));
  const Step& write = plan->steps.back();
  EXPECT_EQ(pushOf<abi::GatherBlockQuantizedParams>(write).flags & VKINDEX_GBQ_STATUS_GATE, VKINDEX_GBQ_STATUS_GATE);
  EXPECT_FALSE(write.wait_for.empty());
  EXPECT_EQ(plan->report.op, "GatherBlockQuantized");
}

// A few indices under the error policy: one dispatch of the path's self-checking module, which writes
// its own status and waits for nothing.
TEST(GatherBlockQuantizedPlanTest, FewIndicesUnderTheErrorPolicyAreOneSelfCheckingDispatch) {
  Call words = wordPathCall();
  words.options.index_policy = IndexPolicy::kError;
  Call float32_words = words;  // float32 scales: the soft multiply, without the half_scales module
  float32_words.scales.type = DataType::kFloat32;
  Call general = words;  // quantize_axis 0 before gather_axis 1
  general.options.gather_axis = 1;
  general.options.quantize_axis = 0;
  general.scales.shape = {2, 64};
  FakeDevice device = fakeDevice(uint64_t(1) << 27, 64);
  const struct {
    const Call& call;
    bool native;
    Kernel kernel;
  } cases[] = {{words, false, Kernel::kGatherBlockQuantizedWordsHalfScalesChecked},
               {float32_words, false, Kernel::kGatherBlockQuantizedWordsChecked},
               {words, true, Kernel::kGatherBlockQuantizedWordsNativeChecked},
               {general, false, Kernel::kGatherBlockQuantizedChecked}};
  for (const auto& c : cases) {
    device.native_float32_add = c.native;
    StatusOr<OpPlan> plan = planned(c.call, device);
    ASSERT_TRUE(plan.ok()) << plan.status().toString();
    EXPECT_EQ(kernelsOf(*plan), std::vector<Kernel>{c.kernel});
    EXPECT_TRUE(plan->writes_own_status);
    EXPECT_TRUE(plan->steps[0].wait_for.empty());
    EXPECT_EQ(commandCounts(*plan).barriers, 0u);
  }
}

TEST(GatherBlockQuantizedPlanTest, EmptyIndicesRecordNothing) {
  Call call = wordPathCall();
  call.indices.shape = {0};
  StatusOr<OpPlan> plan = planned(call, fakeDevice(uint64_t(1) << 27, 64));
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  EXPECT_TRUE(plan->steps.empty());
}

// A 262144-row uint8 table of 4-bit codes (335 MB) on a 128 MiB binding: passes of whole rows, every
// window inside its tensor and the binding range, the rows covered once and in order.
TEST(GatherBlockQuantizedPlanTest, LargeTableIsCutIntoPassesOfRows) {
  Call call;
  call.data = {DataType::kUInt8, {262144, 1280}};
  call.indices = {DataType::kInt64, {512}};
  call.scales = {DataType::kFloat16, {262144, 80}};
  call.zero_points = TensorInput{DataType::kUInt8, {262144, 40}};
  call.options.block_size = 32;
  const FakeDevice device = fakeDevice(uint64_t(1) << 27, 256);
  StatusOr<OpPlan> plan = planned(call, device);
  ASSERT_TRUE(plan.ok()) << plan.status().toString();
  ASSERT_GE(plan->steps.size(), 3u);
  uint32_t next_row = 0;
  for (size_t i = 0; i < plan->steps.size(); ++i) {
    const Step& step = plan->steps[i];
    const auto params = pushOf<abi::GatherBlockQuantizedParams>(step);
    EXPECT_EQ(params.row_first, next_row) << "pass " << i;
    EXPECT_GT(params.row_end, params.row_first);
    next_row = params.row_end;
    EXPECT_EQ((params.flags & VKINDEX_GBQ_WRITES_ZEROS) != 0, i == 0) << "pass " << i;
    for (const Binding& binding : step.bindings) {
      if (binding.role == Role::kStatus) continue;
      EXPECT_LE(binding.window.size, device.max_storage_buffer_range) << "pass " << i;
      EXPECT_EQ(binding.window.offset % 256, 0u) << "pass " << i;
    }
  }
  EXPECT_EQ(next_row, 262144u);
}

TEST(GatherBlockQuantizedPlanTest, OddRowsOfHalfFloatsAreNotCut) {
  Call call;
  call.data = {DataType::kInt4, {262145, 33}};
  call.scales = {DataType::kFloat16, {262145, 3}};
  call.options.block_size = 16;
  StatusOr<OpPlan> plan = planned(call, fakeDevice(uint64_t(1) << 20, 64));
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(plan.status().message().find("odd number of codes (33)"), std::string::npos) << plan.status().message();
}

}  // namespace
}  // namespace vkindex::plan::test
