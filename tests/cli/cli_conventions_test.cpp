// The command line itself: --help and --version, usage errors (exit 2), both spellings of an option's
// value, `devices --json` as one JSON document, and the advice printed when no Vulkan driver is found.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_process.hpp"
#include "node_test_builder.hpp"
#include "vkindex/version.hpp"

namespace vkindex::tools::test {
namespace {

namespace fs = std::filesystem;

TEST(CliConventions, VersionPrintsTheLibraryVersion) {
  CliRun run = runCli({"--version"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, std::string("vkindex ") + VKINDEX_VERSION_STRING + "\n");
}

TEST(CliConventions, HelpWorksForTheToolAndEveryCommand) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"--help"}, {"devices", "onnx-test", "bench", "--version", "VKINDEX_DEVICE"}},
      {{"-h"}, {"devices", "onnx-test", "bench"}},
      {{"devices", "--help"}, {"--json"}},
      {{"onnx-test", "--help"}, {"--device", "--json", "--repeat", "DIR"}},
      {{"bench", "--help"}, {"--device", "--json", "--quick", "--repeats", "--only"}},
  };
  for (const auto& [args, expected] : cases) {
    SCOPED_TRACE(args.front() + (args.size() > 1 ? " " + args[1] : ""));
    CliRun run = runCli(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    for (const std::string& text : expected)
      EXPECT_NE(run.out.find(text), std::string::npos) << text << "\n" << run.out;
  }
}

TEST(CliConventions, UsageErrorsExitWithTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {},
      {"frobnicate"},
      {"devices", "--bogus"},
      {"onnx-test"},
      {"onnx-test", "--repeat", "0", "dir"},
      {"onnx-test", "--repeat=100001", "dir"},
      {"onnx-test", "--repeat=two", "dir"},
      {"onnx-test", "--repeat"},
      {"onnx-test", "--unknown", "dir"},
      {"bench", "--repeats", "0"},
      {"bench", "--repeats=x"},
      {"bench", "extra"},
  };
  for (const std::vector<std::string>& args : cases) {
    std::string shown;
    for (const std::string& arg : args) shown += " " + arg;
    SCOPED_TRACE("vkindex" + shown);
    CliRun run = runCli(args);
    EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
    EXPECT_FALSE(run.err.empty());
  }
}

class CliWithTestDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("vkindex_cli_conventions_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    writeNodeTest(dir_, passingGather());
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

// `--device=0` and `--device 0` select the same device; so do both forms of --repeat.
TEST_F(CliWithTestDir, OptionValuesTakeEitherSpelling) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"onnx-test", "--device=0", "--repeat=1", dir_.string()},
                                             {"onnx-test", "--device", "0", "--repeat", "1", dir_.string()},
                                             {"onnx-test", dir_.string(), "--device", "0"}}) {
    CliRun run = runCli(args);
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    EXPECT_EQ(run.out.rfind("PASS  " + dir_.string(), 0), 0u) << run.out;
    EXPECT_NE(run.out.find("\n1 passed, 0 failed\n"), std::string::npos) << run.out;
  }
  // A device that does not exist is the run's failure (exit 1), not a usage error: the value parsed.
  CliRun missing = runCli({"onnx-test", "--device=no such device", dir_.string()});
  EXPECT_EQ(missing.exit_code, 1) << missing.out << missing.err;
}

TEST(CliConventions, DevicesJsonIsOneDocumentWithEveryField) {
  CliRun run = runCli({"devices", "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(lines(run.out).size(), 1u) << run.out;
  const nlohmann::json document = nlohmann::json::parse(run.out);
  ASSERT_TRUE(document.at("devices").is_array());
  ASSERT_FALSE(document.at("devices").empty());
  EXPECT_TRUE(document.at("default_index").is_number_unsigned());
  int defaults = 0;
  for (const nlohmann::json& device : document.at("devices")) {
    for (const char* key : {"index",
                            "default",
                            "name",
                            "type",
                            "driver",
                            "driver_info",
                            "api_version",
                            "shader_int64",
                            "storage_buffer_8bit",
                            "storage_buffer_16bit",
                            "shader_float16",
                            "shader_float64",
                            "subgroup_size",
                            "cpu_threads",
                            "max_storage_buffer_range",
                            "min_storage_buffer_offset_alignment",
                            "max_workgroup_count",
                            "max_workgroup_invocations",
                            "max_memory_allocation_size",
                            "max_buffer_size",
                            "device_local_heap_size",
                            "timestamps",
                            "float32_rounding_rte",
                            "max_walk_steps",
                            "driver_class",
                            "tuning_row",
                            "tuning"}) {
      EXPECT_TRUE(device.contains(key)) << key << " in " << device.dump();
    }
    EXPECT_EQ(device.at("max_workgroup_count").size(), 3u);
    // Every tuning value, with its source: the table's, as no override was given.
    for (const char* key :
         {"workgroup_size", "items_per_invocation", "row_lanes", "row_items", "int64_units", "native_float32_add",
          "min_copy_region_bytes", "few_copy_regions", "min_walk_lines", "max_single_line_walk_updates",
          "claim_by_store", "min_soft_float_walk_lines", "min_atomic_walk_lines", "min_float32_add_fold_duplicates",
          "group_reserved_cursors", "most_workgroup_runs", "most_self_checked_write_indices"}) {
      ASSERT_TRUE(device.at("tuning").contains(key)) << key << " in " << device.dump();
      EXPECT_TRUE(device.at("tuning").at(key).contains("value")) << key;
      EXPECT_EQ(device.at("tuning").at(key).at("source"), "table") << key;
    }
    EXPECT_EQ(device.at("tuning").size(), 17u) << "a tuning value this test does not know";
    defaults += device.at("default").get<bool>() ? 1 : 0;
    if (device.at("default").get<bool>()) {
      EXPECT_EQ(device.at("index"), document.at("default_index"));
    }
  }
  EXPECT_EQ(defaults, 1);
}

// An override shows as such, and only on the values it sets; --gpu-tuning takes the "other GPU" row.
TEST(CliConventions, DevicesJsonNamesEachTuningValuesSource) {
  CliRun run = runCli({"devices", "--json", "--min-walk-lines", "3", "--gpu-tuning"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json document = nlohmann::json::parse(run.out);
  for (const nlohmann::json& device : document.at("devices")) {
    const nlohmann::json& tuning = device.at("tuning");
    EXPECT_EQ(device.at("tuning_row"), "other GPU");
    EXPECT_EQ(tuning.at("min_walk_lines").at("value"), 3);
    EXPECT_EQ(tuning.at("min_walk_lines").at("source"), "override");
    EXPECT_EQ(tuning.at("row_lanes").at("source"), "override") << "gpu_tuning chose the row";
  }
  run = runCli({"devices", "--json", "--items-per-invocation", "2"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json overridden = nlohmann::json::parse(run.out);
  for (const nlohmann::json& device : overridden.at("devices")) {
    const nlohmann::json& tuning = device.at("tuning");
    EXPECT_EQ(device.at("tuning_row"), device.at("driver_class"));
    EXPECT_EQ(tuning.at("items_per_invocation").at("source"), "override");
    EXPECT_EQ(tuning.at("row_items").at("value"), 2);
    EXPECT_EQ(tuning.at("min_walk_lines").at("source"), "table");
  }
}

// Without a driver the loader fails vkCreateInstance; the CLI says so in words, with what to check.
TEST(CliConventions, NoDriverGivesAHintNotASourceExpression) {
  const std::string manifest = "/nonexistent/vkindex_icd.json";
  for (const char* variable : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES"}) {
    SCOPED_TRACE(variable);
    std::map<std::string, std::string> env = {{"VK_DRIVER_FILES", ""}, {"VK_ICD_FILENAMES", ""}};  // "": unset
    env[variable] = manifest;
    CliRun run = runCli({"devices"}, env);
    EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
    EXPECT_NE(run.err.find("vkindex devices: no Vulkan driver found"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(std::string(variable) + " is set to '" + manifest + "'"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("these do not exist: '" + manifest + "'"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("mesa-vulkan-drivers"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("instance_"), std::string::npos) << run.err;
  }
}

}  // namespace
}  // namespace vkindex::tools::test
