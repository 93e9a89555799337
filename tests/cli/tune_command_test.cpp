// `vkindex tune` end to end, as a user runs it: `tune --quick --output F` writes a profile that
// plan::parseTuningProfile reads, and `devices --json --tuning-profile F` shows its values in use; without
// --output, tune writes into the pipeline cache folder ($VKINDEX_PIPELINE_CACHE_DIR), where `devices
// --json` finds the profile by itself. Registered on lavapipe only: a quick tune takes ~8 s there.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_process.hpp"
#include "plan/tuning.hpp"
#include "plan/tuning_profile.hpp"
#include "support/scoped_temp_dir.hpp"

namespace vkindex::tools::test {
namespace {

namespace fs = std::filesystem;

// A tune takes seconds; this is only the guard against a hang.
constexpr int kTuneTimeLimitSeconds = 120;

// `vkindex tune --quick [args]` in `environment`, without the validation layer: it would nearly triple
// the run (~26 s instead of ~10 s on lavapipe), and the bench rows tune times run validated in the
// bench tests (cli.bench_*_json).
CliRun runTune(const std::vector<std::string>& args, std::map<std::string, std::string> environment) {
  std::vector<std::string> command = {"tune", "--quick"};
  command.insert(command.end(), args.begin(), args.end());
  environment["VKINDEX_VALIDATION"] = "";
  return runCli(command, environment, kTuneTimeLimitSeconds);
}

class TuneCommandTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(dir_.empty()); }

  // The environment of every run: pipeline cache (and so the automatic profile) in dir_, and no
  // profile named by a variable of the test's own environment.
  std::map<std::string, std::string> environment() const {
    return {{"VKINDEX_PIPELINE_CACHE_DIR", dir_.string()}, {"VKINDEX_TUNING_PROFILE", ""}};
  }

  // Reads and parses the profile at `path`; a test failure if it does not parse or has no entries.
  static void readProfile(const fs::path& path, plan::TuningProfile& profile) {
    std::ifstream file(path, std::ios::binary);
    ASSERT_TRUE(file.good()) << "no profile at " << path;
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    StatusOr<plan::TuningProfile> parsed = plan::parseTuningProfile(text.data(), text.size());
    ASSERT_TRUE(parsed.ok()) << parsed.status().toString() << "\n" << text;
    profile = std::move(*parsed);
    ASSERT_FALSE(profile.entries.empty()) << text;
  }

  // `vkindex devices --json <extra>`: the default device's object (the device tune measured).
  void defaultDeviceJson(const std::vector<std::string>& extra, nlohmann::json& device) const {
    std::vector<std::string> args = {"devices", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliRun run = runCli(args, environment());
    ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
    const nlohmann::json document = nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(document.is_discarded()) << "not JSON: " << run.out;
    for (const nlohmann::json& each : document.at("devices")) {
      if (each.at("default").get<bool>()) device = each;
    }
    ASSERT_TRUE(device.is_object()) << "no default device in " << run.out;
  }

  // `device` (from devices --json) runs with `profile`, read from `path`: every value it names comes
  // from it, with its setting, and no warning.
  static void expectProfileInUse(const nlohmann::json& device, const plan::TuningProfile& profile,
                                 const fs::path& path) {
    EXPECT_EQ(device.at("name"), profile.identity.device_name);
    const nlohmann::json& loaded = device.at("tuning_profile");
    ASSERT_TRUE(loaded.is_object()) << device.dump();
    EXPECT_EQ(loaded.at("path"), path.string());
    EXPECT_EQ(loaded.at("in_use"), true) << loaded.dump();
    EXPECT_EQ(loaded.at("warning"), "") << loaded.dump();
    for (const plan::TuningProfileEntry& entry : profile.entries) {
      const char* name = plan::tuningValueName(entry.value);
      SCOPED_TRACE(name);
      const nlohmann::json& value = device.at("tuning").at(name);
      EXPECT_EQ(value.at("source"), "profile") << value.dump();
      // Booleans are printed as JSON's, the other values as the integers they are.
      const nlohmann::json& shown = value.at("value");
      const uint64_t setting = shown.is_boolean() ? uint64_t{shown.get<bool>()} : shown.get<uint64_t>();
      EXPECT_EQ(setting, entry.setting) << value.dump();
    }
  }

  vkindex::test::ScopedTempDir temp_dir_{"vkindex_cli_tune_"};
  fs::path dir_ = temp_dir_.path();
};

TEST_F(TuneCommandTest, AProfileWrittenToAFileIsTakenWhenNamed) {
  const fs::path path = dir_ / "profile.json";
  const CliRun tune = runTune({"--output", path.string()}, environment());
  ASSERT_FALSE(tune.timed_out) << tune.out << tune.err;
  ASSERT_EQ(tune.exit_code, 0) << tune.out << tune.err;
  EXPECT_NE(tune.out.find("profile written: " + path.string()), std::string::npos) << tune.out;
  plan::TuningProfile profile;
  ASSERT_NO_FATAL_FAILURE(readProfile(path, profile));

  nlohmann::json device;
  ASSERT_NO_FATAL_FAILURE(defaultDeviceJson({"--tuning-profile", path.string()}, device));
  expectProfileInUse(device, profile, path);

  // Not named, it is not found: tune wrote nothing into the cache folder.
  nlohmann::json plain;
  ASSERT_NO_FATAL_FAILURE(defaultDeviceJson({}, plain));
  ASSERT_TRUE(plain.at("tuning_profile").is_object()) << plain.dump();
  EXPECT_EQ(plain.at("tuning_profile").at("in_use"), false) << plain.dump();
  EXPECT_EQ(plain.at("tuning_profile").at("warning"), "") << plain.dump();
}

TEST_F(TuneCommandTest, AProfileWrittenToTheCacheFolderIsFoundByItself) {
  const CliRun tune = runTune({}, environment());
  ASSERT_FALSE(tune.timed_out) << tune.out << tune.err;
  ASSERT_EQ(tune.exit_code, 0) << tune.out << tune.err;
  std::vector<fs::path> profiles;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir_)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("tuning-", 0) == 0 && entry.path().extension() == ".json") profiles.push_back(entry.path());
  }
  ASSERT_EQ(profiles.size(), 1u) << "expected one tuning-*.json in " << dir_ << "\n" << tune.out;
  EXPECT_NE(tune.out.find("profile written: " + profiles[0].string()), std::string::npos) << tune.out;
  plan::TuningProfile profile;
  ASSERT_NO_FATAL_FAILURE(readProfile(profiles[0], profile));

  nlohmann::json device;
  ASSERT_NO_FATAL_FAILURE(defaultDeviceJson({}, device));
  expectProfileInUse(device, profile, profiles[0]);

  // --tuning-profile "" takes none: no profile looked at, every value the table's.
  nlohmann::json none;
  ASSERT_NO_FATAL_FAILURE(defaultDeviceJson({"--tuning-profile", ""}, none));
  EXPECT_TRUE(none.at("tuning_profile").is_null()) << none.dump();
  for (const auto& [name, value] : none.at("tuning").items()) EXPECT_EQ(value.at("source"), "table") << name;
}

}  // namespace
}  // namespace vkindex::tools::test
