// Context lifetimes: contexts with and without validation coexist in one process (volk's globals are
// shared, so each instance must use its own extension entry points). ContextOverrides::gpu_tuning gives
// a GPU's kernel tuning on any device.
#include <algorithm>
#include <string>

#include "core/context_impl.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

class ContextTest : public GpuTest {};

TEST_F(ContextTest, ContextsWithAndWithoutValidationCoexist) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> validated, makeContext({}));
  ContextOptions plain_options;
  plain_options.pipeline_cache_dir = "";
  plain_options.device = std::to_string(context().device().index);
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> plain, Context::create(plain_options));
  // Both work after each other's creation, and the validated one still hears its layer.
  Rng rng(9);
  HostTensor data = randomTensor(rng, DataType::kInt16, {6, 3});
  HostTensor indices = indexTensor(DataType::kInt32, {2}, {5, -6});
  for (Context* ctx : {validated.get(), plain.get()}) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(*ctx, data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(*ctx, indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, gather(*ctx, data_tensor, index_tensor, 0));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
    EXPECT_EQ(actual.bytes, referenceGather(data, indices, 0).output.bytes);
  }
  EXPECT_EQ(validated->validationMessageCount(), 0u) << validated->firstValidationMessage();
  // Destroying the validated context after an unvalidated one was created used to call a null
  // vkDestroyDebugUtilsMessengerEXT taken from volk's globals.
  validated.reset();
  plain.reset();
}

// float32 and complex64 add take the device's adder only where the device can be told to round to
// nearest even (VK_KHR_shader_float_controls, shaderRoundingModeRTEFloat32): lavapipe can, SwiftShader
// cannot, so the suite's float add cases run the native-add modules on one and the soft add on the
// other. GPU tuning leaves the choice alone: it is a property of the adder, not a tuning.
TEST_F(ContextTest, NativeFloat32AddWhereTheDeviceRoundsToNearestEvenOnRequest) {
  const DeviceInfo& info = context().device();
  if (info.driver_name.find("llvmpipe") != std::string::npos) {
    EXPECT_TRUE(info.float32_rounding_rte);
    EXPECT_TRUE(tuningOf(context()).native_float32_add);
  }
  if (info.driver_name.find("SwiftShader") != std::string::npos) {
    EXPECT_FALSE(info.float32_rounding_rte);
    EXPECT_FALSE(tuningOf(context()).native_float32_add);
  }
  ContextOptions options;
  options.overrides.gpu_tuning = true;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> tuned, makeContext(options));
  EXPECT_EQ(tuningOf(*tuned).native_float32_add, tuningOf(context()).native_float32_add);
}

// The GPU's choice whatever the device (the tuning table's "other GPU" row, src/plan/tuning_table.cpp): 32 lanes per
// row segment of 4 units each, no 64-bit units, a few copy regions and no more, and walks only from 65536 lines. The
// test suite runs the operator tests once more this way (the "gpu_tuning" registrations), so this only checks that the
// option sets what those runs rely on.
TEST_F(ContextTest, GpuTuningGivesTheGpuChoiceOnAnyDevice) {
  ContextOptions options;
  options.overrides.gpu_tuning = true;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> tuned, makeContext(options));
  const DeviceInfo& device = tuned->device();
  const plan::Tuning& info = tuningOf(*tuned);
  EXPECT_EQ(implOf(*tuned).tuning.row, plan::DriverClass::kOtherGpu);
  EXPECT_EQ(implOf(*tuned).tuning.source(plan::TuningValue::k_row_lanes), plan::TuningSource::kOverride);
  EXPECT_EQ(info.row_lanes, std::min(32u, info.workgroup_size));
  EXPECT_EQ(info.row_items, info.items_per_invocation);
  EXPECT_FALSE(info.int64_units);
  EXPECT_EQ(info.min_copy_region_bytes, UINT64_MAX);
  EXPECT_EQ(info.few_copy_regions, 4u);
  EXPECT_TRUE(info.group_reserved_cursors);
  EXPECT_EQ(info.most_workgroup_runs, 1024u);
  EXPECT_EQ(info.min_walk_lines, 65536u);
  EXPECT_EQ(info.min_soft_float_walk_lines, 65536u);
  EXPECT_EQ(info.min_atomic_walk_lines, 65536u);
  EXPECT_FALSE(info.claim_by_store);
  EXPECT_EQ(info.max_single_line_walk_updates, UINT64_MAX);
  EXPECT_EQ(info.min_float32_add_fold_duplicates, 0u);
  // A CPU driver's loop guard is not tuning: it stays.
  EXPECT_EQ(device.max_walk_steps, context().device().max_walk_steps);
  if (device.type == "cpu") {
    EXPECT_EQ(device.max_walk_steps, 16384u);
  }
  // The tuning overrides still apply on top of it.
  options.overrides.min_walk_lines = 3;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> overridden, makeContext(options));
  EXPECT_EQ(tuningOf(*overridden).min_walk_lines, 3u);
  EXPECT_EQ(tuningOf(*overridden).min_atomic_walk_lines, 3u);
  EXPECT_EQ(tuningOf(*overridden).max_single_line_walk_updates, UINT64_MAX) << "the override decides alone";
  EXPECT_EQ(tuningOf(*overridden).min_float32_add_fold_duplicates, 0u) << "the override decides alone";
  EXPECT_EQ(tuningOf(*overridden).row_lanes, info.row_lanes);
}

// Without overrides every value comes from the device's own row of the table; an override is marked
// as such, and only the values it sets.
TEST_F(ContextTest, TuningSaysWhereEachValueCameFrom) {
  const plan::TuningChoice& own = implOf(context()).tuning;
  EXPECT_EQ(own.row, own.driver_class);
  EXPECT_EQ(own.driver_class, plan::driverClassOf(context().device()));
  for (plan::TuningSource source : own.sources) EXPECT_EQ(source, plan::TuningSource::kTable);
  ContextOptions options;
  options.overrides.items_per_invocation = 2;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> overridden, makeContext(options));
  const plan::TuningChoice& choice = implOf(*overridden).tuning;
  EXPECT_EQ(choice.values.items_per_invocation, 2u);
  EXPECT_EQ(choice.values.row_items, 2u);
  EXPECT_EQ(choice.source(plan::TuningValue::k_items_per_invocation), plan::TuningSource::kOverride);
  EXPECT_EQ(choice.source(plan::TuningValue::k_row_items), plan::TuningSource::kOverride);
  EXPECT_EQ(choice.source(plan::TuningValue::k_min_walk_lines), plan::TuningSource::kTable);
  // An override beyond the device's limits is refused, naming the field and the limit.
  options.overrides.workgroup_size = context().device().max_workgroup_invocations + 1;
  StatusOr<std::unique_ptr<Context>> refused = makeContext(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("ContextOverrides::workgroup_size"), std::string::npos)
      << refused.status().message();
}

}  // namespace
}  // namespace vkindex::test
