#include "gpu/context/tuning_profile_fixture.hpp"

#include <fstream>

#include "core/context_impl.hpp"
#include "core/tuning_profile_loading.hpp"

namespace vkindex::test {

void TuningProfileTest::SetUp() {
  // Before the shared context exists: a profile named in the test's environment must not reach it.
  no_profile_variable_ = std::make_unique<ScopedEnv>("VKINDEX_TUNING_PROFILE", std::nullopt);
  GpuTest::SetUp();
  if (HasFatalFailure()) return;
  temp_dir_ = std::make_unique<ScopedTempDir>("vkindex_tuning_profile_");
  dir_ = temp_dir_->path();
  ASSERT_FALSE(dir_.empty());
}

void TuningProfileTest::TearDown() {
  temp_dir_.reset();
  GpuTest::TearDown();
  no_profile_variable_.reset();
}

plan::TuningChoice TuningProfileTest::tableChoice() {
  StatusOr<plan::TuningChoice> choice = plan::chooseTuning(context().device(), ContextOverrides{});
  EXPECT_TRUE(choice.ok()) << choice.status().toString();
  return choice.ok() ? *choice : plan::TuningChoice{};
}

std::vector<TuningSetting> TuningProfileTest::nonTableSettings() {
  const plan::Tuning table = tableChoice().values;
  // Each value's first choice, or its second where the table happens to give the first.
  const auto other = [&](plan::TuningValue value, uint64_t first, uint64_t second) {
    return TuningSetting{value, plan::tuningValue(table, value) == first ? second : first};
  };
  return {other(plan::TuningValue::k_items_per_invocation, 3, 5), other(plan::TuningValue::k_row_items, 5, 6),
          other(plan::TuningValue::k_min_walk_lines, 12345, 12346), other(plan::TuningValue::k_few_copy_regions, 3, 2)};
}

plan::TuningProfile TuningProfileTest::profileFor(const std::vector<TuningSetting>& settings) {
  plan::TuningProfile profile;
  profile.identity = plan::tuningProfileIdentityOf(context().device());
  for (const auto& [value, setting] : settings) {
    plan::TuningProfileEntry entry;
    entry.value = value;
    entry.setting = setting;
    entry.probe = std::string("written by the test for ") + plan::tuningValueName(value);
    entry.measurements = {{setting, 0.5}, {setting + 1, 0.75}};
    profile.entries.push_back(std::move(entry));
  }
  return profile;
}

std::string TuningProfileTest::profileText(const std::vector<TuningSetting>& settings) {
  return plan::formatTuningProfile(profileFor(settings));
}

void TuningProfileTest::writeText(const fs::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(text.data(), static_cast<std::streamsize>(text.size()));
  ASSERT_TRUE(file.good()) << "could not write " << path;
}

fs::path TuningProfileTest::automaticPath() const { return dir_ / tuningProfileFileName(context().device()); }

std::unique_ptr<Context> TuningProfileTest::contextWith(ContextOptions options) const {
  options.device = std::to_string(context().device().index);
  if (!options.pipeline_cache_dir) options.pipeline_cache_dir = dir_.string();
  StatusOr<std::unique_ptr<Context>> ctx = makeContext(options);
  EXPECT_TRUE(ctx.ok()) << ctx.status().toString();
  return ctx.ok() ? std::move(ctx).value() : nullptr;
}

std::unique_ptr<Context> TuningProfileTest::contextNaming(const std::string& path) const {
  ContextOptions options;
  options.tuning_profile = path;
  return contextWith(options);
}

std::string TuningProfileTest::warningOf(const Context& ctx) { return implOf(ctx).tuning_profile_warning; }

void TuningProfileTest::expectTableTuning(const Context& ctx) { expectProfileTuning(ctx, {}); }

void TuningProfileTest::expectProfileTuning(const Context& ctx, const std::vector<TuningSetting>& settings) {
  const plan::TuningChoice table = tableChoice();
  plan::Tuning expected = table.values;
  std::array<plan::TuningSource, plan::kTuningValueCount> sources{};
  for (const auto& [value, setting] : settings) {
    plan::setTuningValue(expected, value, setting);
    sources[static_cast<size_t>(value)] = plan::TuningSource::kProfile;
  }
  // Row lanes the profile's narrower workgroup cut are the profile's doing.
  const uint32_t row_lanes = expected.row_lanes;
  plan::fitTuning(expected);
  if (expected.row_lanes != row_lanes) {
    sources[static_cast<size_t>(plan::TuningValue::k_row_lanes)] = plan::TuningSource::kProfile;
  }
  const plan::TuningChoice& actual = implOf(ctx).tuning;
  EXPECT_EQ(actual.row, table.row);
  for (size_t i = 0; i < plan::kTuningValueCount; ++i) {
    const auto value = static_cast<plan::TuningValue>(i);
    SCOPED_TRACE(plan::tuningValueName(value));
    EXPECT_EQ(plan::tuningValue(actual.values, value), plan::tuningValue(expected, value));
    EXPECT_EQ(plan::tuningSourceName(actual.source(value)), std::string(plan::tuningSourceName(sources[i])));
  }
  EXPECT_EQ(ctx.tuningProfileLoaded(), !settings.empty());
}

void TuningProfileTest::expectRefused(const Context& ctx, const std::string& path, const std::string& reason) {
  EXPECT_EQ(ctx.tuningProfilePath(), path);
  EXPECT_FALSE(ctx.tuningProfileLoaded());
  const std::string warning = warningOf(ctx);
  EXPECT_NE(warning.find(reason), std::string::npos) << "warning: " << warning << "\nexpected: " << reason;
  EXPECT_NE(warning.find(path), std::string::npos) << "the warning does not name the file: " << warning;
  expectTableTuning(ctx);
}

}  // namespace vkindex::test
