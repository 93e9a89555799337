// Shared by the tuning profile tests (core/tuning_profile_loading.hpp): a fresh temporary folder per
// test, which is also the contexts' pipeline cache folder (where a context finds a profile by itself),
// VKINDEX_TUNING_PROFILE unset for the test, profiles made for the running device, and the checks of
// where a context's tuning values came from.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plan/tuning.hpp"
#include "plan/tuning_profile.hpp"
#include "support/gpu_test.hpp"
#include "support/scoped_env.hpp"
#include "support/scoped_temp_dir.hpp"

namespace vkindex::test {

namespace fs = std::filesystem;

// A tuning value and the setting a profile gives it.
using TuningSetting = std::pair<plan::TuningValue, uint64_t>;

class TuningProfileTest : public GpuTest {
 protected:
  void SetUp() override;
  void TearDown() override;

  // The table's tuning for the test's device, as a context without profile or overrides takes it.
  static plan::TuningChoice tableChoice();
  // A few values at legal settings the table does not give them on this device (items_per_invocation,
  // row_items, min_walk_lines, few_copy_regions), so that a profile's effect is visible.
  static std::vector<TuningSetting> nonTableSettings();
  // A profile measured (so it says) on the test's device by this vkindex, giving `settings`.
  static plan::TuningProfile profileFor(const std::vector<TuningSetting>& settings);
  static std::string profileText(const std::vector<TuningSetting>& settings);

  // Writes `text` to `path` (a test failure if that cannot be done).
  static void writeText(const fs::path& path, const std::string& text);
  // Where a context caching in dir_ looks for its profile by itself.
  fs::path automaticPath() const;

  // A validated context on the test's device caching pipelines in dir_, with `options` on top (their
  // pipeline_cache_dir replaced by dir_ unless set). Null, after a test failure, if creation failed.
  std::unique_ptr<Context> contextWith(ContextOptions options) const;
  // A context naming the profile at `path`.
  std::unique_ptr<Context> contextNaming(const std::string& path) const;

  // The warning `ctx`'s profile gave ("" when it was used or there was none to look at).
  static std::string warningOf(const Context& ctx);
  // `ctx` runs with exactly the table's tuning, every value from the table.
  static void expectTableTuning(const Context& ctx);
  // `ctx` runs with `settings` from its profile and every other value as the table has it.
  static void expectProfileTuning(const Context& ctx, const std::vector<TuningSetting>& settings);
  // `ctx` looked at `path`, refused it with a warning that contains `reason`, and runs on the table.
  static void expectRefused(const Context& ctx, const std::string& path, const std::string& reason);

  std::unique_ptr<ScopedTempDir> temp_dir_;  // the test's own folder
  fs::path dir_;

 private:
  std::unique_ptr<ScopedEnv> no_profile_variable_;
};

}  // namespace vkindex::test
