// Where a Context finds its tuning profile and what it does with one (core/tuning_profile_loading.hpp):
// a path in ContextOptions, else $VKINDEX_TUNING_PROFILE, else the file `vkindex tune` writes into the
// pipeline cache folder; "" for none. A profile's values replace the table's, ContextOverrides replace
// both, gpu_tuning ignores the profile, and results stay byte for byte the reference's under any legal
// profile. The files a context refuses: tuning_profile_refusal_test.cpp.
#include <string>
#include <vector>

#include "core/context_impl.hpp"
#include "core/tuning_profile_loading.hpp"
#include "gpu/context/tuning_profile_fixture.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

using plan::TuningValue;

class TuningProfileLoadingTest : public TuningProfileTest {};

TEST_F(TuningProfileLoadingTest, ANamedProfileRoundTripsThroughAContext) {
  const std::vector<TuningSetting> settings = nonTableSettings();
  const fs::path path = dir_ / "named.json";
  ASSERT_NO_FATAL_FAILURE(writeText(path, profileText(settings)));
  std::unique_ptr<Context> ctx = contextNaming(path.string());
  ASSERT_TRUE(ctx);
  EXPECT_TRUE(ctx->tuningProfileLoaded());
  EXPECT_EQ(ctx->tuningProfilePath(), path.string());
  EXPECT_EQ(warningOf(*ctx), "");
  expectProfileTuning(*ctx, settings);
}

TEST_F(TuningProfileLoadingTest, TheVariableNamesTheProfileWhenTheOptionsDoNot) {
  const std::vector<TuningSetting> settings = nonTableSettings();
  const fs::path path = dir_ / "from_the_variable.json";
  ASSERT_NO_FATAL_FAILURE(writeText(path, profileText(settings)));
  ScopedEnv variable("VKINDEX_TUNING_PROFILE", path.string());
  std::unique_ptr<Context> ctx = contextWith({});
  ASSERT_TRUE(ctx);
  EXPECT_EQ(ctx->tuningProfilePath(), path.string());
  EXPECT_EQ(warningOf(*ctx), "");
  expectProfileTuning(*ctx, settings);
}

TEST_F(TuningProfileLoadingTest, ACacheFoldersProfileIsFoundByItself) {
  const std::vector<TuningSetting> settings = nonTableSettings();
  ASSERT_NO_FATAL_FAILURE(writeText(automaticPath(), profileText(settings)));
  std::unique_ptr<Context> ctx = contextWith({});
  ASSERT_TRUE(ctx);
  EXPECT_EQ(ctx->tuningProfilePath(), automaticPath().string());
  EXPECT_EQ(ctx->tuningProfilePath(), defaultTuningProfilePath(ctx->device(), dir_.string()));
  EXPECT_EQ(warningOf(*ctx), "");
  expectProfileTuning(*ctx, settings);
}

TEST_F(TuningProfileLoadingTest, TheOptionBeatsTheVariableWhichBeatsTheCacheFolder) {
  // Three profiles, each giving min_walk_lines a setting of its own.
  const auto profile = [](uint64_t lines) {
    return std::vector<TuningSetting>{{TuningValue::k_min_walk_lines, lines}};
  };
  const fs::path named = dir_ / "named.json", variable_path = dir_ / "variable.json";
  ASSERT_NO_FATAL_FAILURE(writeText(named, profileText(profile(101))));
  ASSERT_NO_FATAL_FAILURE(writeText(variable_path, profileText(profile(102))));
  ASSERT_NO_FATAL_FAILURE(writeText(automaticPath(), profileText(profile(103))));
  ScopedEnv variable("VKINDEX_TUNING_PROFILE", variable_path.string());
  {
    SCOPED_TRACE("named in the options");
    std::unique_ptr<Context> ctx = contextNaming(named.string());
    ASSERT_TRUE(ctx);
    expectProfileTuning(*ctx, profile(101));
  }
  {
    SCOPED_TRACE("named by the variable");
    std::unique_ptr<Context> ctx = contextWith({});
    ASSERT_TRUE(ctx);
    expectProfileTuning(*ctx, profile(102));
  }
  {
    SCOPED_TRACE("an empty variable is no name: the cache folder's");
    ScopedEnv empty("VKINDEX_TUNING_PROFILE", std::string());
    std::unique_ptr<Context> ctx = contextWith({});
    ASSERT_TRUE(ctx);
    EXPECT_EQ(ctx->tuningProfilePath(), automaticPath().string());
    expectProfileTuning(*ctx, profile(103));
  }
}

TEST_F(TuningProfileLoadingTest, AnEmptyNameTakesNoProfileAtAll) {
  ASSERT_NO_FATAL_FAILURE(writeText(automaticPath(), profileText(nonTableSettings())));
  ScopedEnv variable("VKINDEX_TUNING_PROFILE", automaticPath().string());
  std::unique_ptr<Context> ctx = contextNaming("");
  ASSERT_TRUE(ctx);
  EXPECT_EQ(ctx->tuningProfilePath(), "");
  EXPECT_EQ(warningOf(*ctx), "");
  expectTableTuning(*ctx);
}

TEST_F(TuningProfileLoadingTest, NoCacheFolderMeansNoAutomaticProfile) {
  ContextOptions options;
  options.pipeline_cache_dir = "";
  std::unique_ptr<Context> ctx = contextWith(options);
  ASSERT_TRUE(ctx);
  EXPECT_EQ(ctx->tuningProfilePath(), "");
  EXPECT_EQ(warningOf(*ctx), "");
  expectTableTuning(*ctx);
}

TEST_F(TuningProfileLoadingTest, AMissingNamedProfileWarns) {
  const std::string path = (dir_ / "not_there.json").string();
  {
    SCOPED_TRACE("named in the options");
    std::unique_ptr<Context> ctx = contextNaming(path);
    ASSERT_TRUE(ctx);
    expectRefused(*ctx, path, "no such file");
  }
  {
    SCOPED_TRACE("named by the variable");
    ScopedEnv variable("VKINDEX_TUNING_PROFILE", path);
    std::unique_ptr<Context> ctx = contextWith({});
    ASSERT_TRUE(ctx);
    expectRefused(*ctx, path, "no such file");
  }
}

TEST_F(TuningProfileLoadingTest, AMissingAutomaticProfileIsSilent) {
  std::unique_ptr<Context> ctx = contextWith({});
  ASSERT_TRUE(ctx);
  EXPECT_EQ(ctx->tuningProfilePath(), automaticPath().string());
  EXPECT_EQ(warningOf(*ctx), "");
  expectTableTuning(*ctx);
}

TEST_F(TuningProfileLoadingTest, OverridesBeatTheProfile) {
  const uint32_t table_workgroup = tableChoice().values.workgroup_size;
  const uint32_t profile_workgroup = table_workgroup == 16 ? 8 : 16;
  const uint32_t override_workgroup = table_workgroup == 32 ? 4 : 32;
  const std::vector<TuningSetting> settings = {{TuningValue::k_workgroup_size, profile_workgroup},
                                               {TuningValue::k_items_per_invocation, 3}};
  ASSERT_NO_FATAL_FAILURE(writeText(automaticPath(), profileText(settings)));
  ContextOptions options;
  options.overrides.workgroup_size = override_workgroup;
  std::unique_ptr<Context> ctx = contextWith(options);
  ASSERT_TRUE(ctx);
  const plan::TuningChoice& tuning = implOf(*ctx).tuning;
  EXPECT_EQ(tuning.values.workgroup_size, override_workgroup);
  EXPECT_EQ(tuning.source(TuningValue::k_workgroup_size), plan::TuningSource::kOverride);
  EXPECT_EQ(tuning.values.items_per_invocation, 3u);
  EXPECT_EQ(tuning.source(TuningValue::k_items_per_invocation), plan::TuningSource::kProfile);
  EXPECT_TRUE(ctx->tuningProfileLoaded());
  EXPECT_EQ(warningOf(*ctx), "");
}

TEST_F(TuningProfileLoadingTest, GpuTuningIgnoresTheProfile) {
  ASSERT_NO_FATAL_FAILURE(writeText(automaticPath(), profileText(nonTableSettings())));
  ContextOptions options;
  options.overrides.gpu_tuning = true;
  std::unique_ptr<Context> ctx = contextWith(options);
  ASSERT_TRUE(ctx);
  // The profile was read and fits; the override chose another row, measured for no device.
  EXPECT_EQ(ctx->tuningProfilePath(), automaticPath().string());
  EXPECT_EQ(warningOf(*ctx), "");
  EXPECT_FALSE(ctx->tuningProfileLoaded());
  const plan::TuningChoice& tuning = implOf(*ctx).tuning;
  EXPECT_EQ(tuning.row, plan::DriverClass::kOtherGpu);
  for (size_t i = 0; i < plan::kTuningValueCount; ++i) {
    EXPECT_EQ(tuning.sources[i], plan::TuningSource::kOverride) << plan::tuningValueName(plan::TuningValue(i));
  }
}

// Odd settings no table row has (a 7-wide workgroup, 3 units per invocation, row segments of 3 lanes by
// 5 units, 64-bit units wherever the device has them) still compute the reference's bytes.
TEST_F(TuningProfileLoadingTest, GathersUnderAnUnusualProfileMatchTheReference) {
  const std::vector<TuningSetting> settings = {
      {TuningValue::k_workgroup_size, 7},
      {TuningValue::k_items_per_invocation, 3},
      {TuningValue::k_row_lanes, 3},
      {TuningValue::k_row_items, 5},
      {TuningValue::k_int64_units, plan::tuningRange(TuningValue::k_int64_units, context().device()).most}};
  ASSERT_NO_FATAL_FAILURE(writeText(automaticPath(), profileText(settings)));
  std::unique_ptr<Context> ctx = contextWith({});
  ASSERT_TRUE(ctx);
  expectProfileTuning(*ctx, settings);
  Rng rng(33);
  const HostTensor inputs[][2] = {
      {randomTensor(rng, DataType::kFloat32, {29, 13}), indexTensor(DataType::kInt64, {6}, {28, -29, 0, 5, 5, 17})},
      {randomTensor(rng, DataType::kUInt8, {11, 23}), indexTensor(DataType::kInt32, {5}, {10, -11, 3, 3, 0})},
      {randomTensor(rng, DataType::kInt64, {40}),
       indexTensor(DataType::kInt64, {2, 9}, {39, 0, 1, 2, 3, 4, 5, 6, 7, -1, -2, -3, -4, -5, 8, 9, 10, 11})},
  };
  for (const auto& [data, indices] : inputs) {
    SCOPED_TRACE("data " + describe(data) + ", indices " + describe(indices));
    const ReferenceResult expected = referenceGather(data, indices, 0);
    ASSERT_FALSE(expected.bad_index_position);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(*ctx, data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(*ctx, indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, gather(*ctx, data_tensor, index_tensor, 0));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
    EXPECT_EQ(actual.shape, expected.output.shape);
    EXPECT_TRUE(actual.bytes == expected.output.bytes) << "output bytes differ from the reference";
  }
  EXPECT_EQ(ctx->validationMessageCount(), 0u) << ctx->firstValidationMessage();
}

}  // namespace
}  // namespace vkindex::test
