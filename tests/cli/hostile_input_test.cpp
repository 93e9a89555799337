// `vkindex onnx-test` on node-test directories whose files carry hostile text: newlines that would
// fake a PASS or summary line, bytes >= 0x80, invalid UTF-8, terminal escapes, 1 MiB names and string
// values, and expect_error markers that are a FIFO or a directory. Every --json line must parse as
// JSON (valid UTF-8), every text line must be one report line of bounded length, and nothing may hang.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_process.hpp"
#include "node_test_builder.hpp"

namespace vkindex::tools::test {
namespace {

namespace fs = std::filesystem;

const std::string kMebibyte(1 << 20, 'm');
// Longer than any honest report line, far shorter than a line that carries a 1 MiB value.
constexpr size_t kMaxLineBytes = 16384;

class HostileInput : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("vkindex_cli_hostile_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  // Writes `spec` to a directory named `name` and notes the status it must get.
  void add(const std::string& name, const NodeTestSpec& spec, const std::string& status) {
    writeNodeTest(root_ / name, spec);
    dirs_.push_back((root_ / name).string());
    expected_status_.push_back(status);
  }

  fs::path root_;
  std::vector<std::string> dirs_;
  std::vector<std::string> expected_status_;
};

// The hostile directories, one per way file text reaches a report line.
class HostileInputRuns : public HostileInput {
 protected:
  void SetUp() override {
    HostileInput::SetUp();
    addHostileDirs();
  }
  void addHostileDirs();
};

void HostileInputRuns::addHostileDirs() {
  NodeTestSpec fake_pass = passingGather();
  fake_pass.op_type = "Gather\nPASS /all/good\n1 passed, 0 failed";
  add("op_type_newlines", fake_pass, "error");

  NodeTestSpec huge_op = passingGather();
  huge_op.op_type = "\xff\xfe" + kMebibyte;
  add("op_type_1mib_invalid_utf8", huge_op, "error");

  NodeTestSpec domain = passingGather();
  domain.domain = "com.\xc0\xaf\x1b[2J\xe2\x80\xae";
  add("domain_escapes", domain, "error");

  NodeTestSpec attribute = passingGather();
  attribute.attributes.push_back(intAttribute("axis\r\nPASS fake\xed\xa0\x80", 1));
  add("attribute_name", attribute, "error");

  // The data file's type disagrees with the declared one: the message names both, file-chosen names.
  NodeTestSpec names = passingGather();
  names.inputs[0].name = "data\n\xff\xc3\xa9";
  names.inputs[0].tensor = int64Tensor("tensor\x85\xe2\x80\xa8" + kMebibyte, {1, 2, 3});
  names.inputs[0].declared_type = onnx::TensorProto_DataType_FLOAT;
  add("tensor_names", names, "error");

  // 1 MiB strings that differ only at the end, with a newline up front.
  NodeTestSpec strings = passingGather();
  strings.inputs[0].tensor = stringTensor("data", {"a\nFAIL x" + kMebibyte, "b", "c"});
  strings.inputs[1].tensor = int64Tensor("indices", {0});
  strings.expected = stringTensor("y", {"a\nFAIL x" + kMebibyte + "!"});
  add("string_values", strings, "fail");

  // The attribute 'reduction' of ScatterElements: its value is file text too.
  NodeTestSpec reduction;
  reduction.op_type = "ScatterElements";
  reduction.opset = 18;
  reduction.inputs = {{"data", floatTensor("data", {1, 2, 3}), std::nullopt},
                      {"indices", int64Tensor("indices", {1}), std::nullopt},
                      {"updates", floatTensor("updates", {5}), std::nullopt}};
  reduction.expected = floatTensor("y", {1, 5, 3});
  reduction.attributes = {stringAttribute("reduction", "add\nPASS \xf4\x90\x80\x80" + kMebibyte)};
  add("reduction_value", reduction, "error");

  // Hostile directory names: nothing in the files is wrong, so these pass.
  add("dir\nPASS fake", passingGather(), "pass");
  add("dir\xff\xfe\xc3\xa9 \xe2\x80\xae", passingGather(), "pass");
}

TEST_F(HostileInputRuns, EveryJsonLineParsesAndReportsItsDirectory) {
  CliRun run = runCli([&] {
    std::vector<std::string> args = {"onnx-test", "--json"};
    args.insert(args.end(), dirs_.begin(), dirs_.end());
    return args;
  }());
  ASSERT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const std::vector<std::string> output = lines(run.out);
  ASSERT_EQ(output.size(), dirs_.size()) << run.out;
  for (size_t i = 0; i < output.size(); ++i) {
    SCOPED_TRACE(expected_status_[i] + " #" + std::to_string(i));
    EXPECT_LT(output[i].size(), kMaxLineBytes);
    nlohmann::json line;
    // parse() rejects invalid UTF-8 and raw control characters in strings, as any JSON reader must.
    ASSERT_NO_THROW(line = nlohmann::json::parse(output[i])) << output[i].substr(0, 500);
    ASSERT_TRUE(line.is_object());
    EXPECT_EQ(line.at("status"), expected_status_[i]) << line.at("message");
    EXPECT_TRUE(line.at("test").is_string());
    EXPECT_TRUE(line.at("message").is_string());
  }
  // The dumped message of the string mismatch shows both capped values and where they differ.
  const nlohmann::json strings = nlohmann::json::parse(output[5]);
  EXPECT_NE(strings.at("message").get<std::string>().find("(first difference at byte 1048584)"), std::string::npos)
      << strings.at("message");
  EXPECT_NE(strings.at("message").get<std::string>().find("\"a\\nFAIL xmmm"), std::string::npos)
      << strings.at("message");
}

TEST_F(HostileInputRuns, TextOutputHasOneLinePerDirectoryAndOneSummary) {
  CliRun run = runCli([&] {
    std::vector<std::string> args = {"onnx-test"};
    args.insert(args.end(), dirs_.begin(), dirs_.end());
    return args;
  }());
  ASSERT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const std::vector<std::string> output = lines(run.out);
  ASSERT_EQ(output.size(), dirs_.size() + 1) << run.out;
  const std::regex summary("[0-9]+ passed, [0-9]+ failed");
  int passes = 0;
  for (size_t i = 0; i < dirs_.size(); ++i) {
    SCOPED_TRACE(output[i].substr(0, 300));
    EXPECT_LT(output[i].size(), kMaxLineBytes);
    // Each line is the directory's own: its label, then the directory (escaped) under the scratch root.
    const std::map<std::string, std::string> labels = {{"pass", "PASS  "}, {"fail", "FAIL  "}, {"error", "ERROR "}};
    EXPECT_EQ(output[i].rfind(labels.at(expected_status_[i]) + root_.string() + "/", 0), 0u);
    EXPECT_FALSE(std::regex_match(output[i], summary));
    passes += output[i].rfind("PASS ", 0) == 0 ? 1 : 0;
  }
  EXPECT_EQ(passes, 2);
  EXPECT_EQ(output.back(), "2 passed, " + std::to_string(dirs_.size() - 2) + " failed");
  // Valid UTF-8 throughout: nlohmann refuses to dump a string that is not.
  EXPECT_NO_THROW((void)nlohmann::json(run.out).dump());
  EXPECT_NE(run.out.find("operator 'Gather\\nPASS /all/good\\n1 passed, 0 failed' is not"), std::string::npos);
  EXPECT_NE(run.out.find("\\xff\\xfemmm"), std::string::npos);
  EXPECT_NE(run.out.find("mmm\xe2\x80\xa6(1048578 bytes)'"), std::string::npos);
}

// expect_error must be a regular file; a FIFO of that name once blocked the run forever in open().
TEST_F(HostileInput, ExpectErrorMarkerMustBeARegularFile) {
  add("fifo_marker", passingGather(), "error");
  ASSERT_EQ(mkfifo((root_ / "fifo_marker" / "expect_error").c_str(), 0600), 0);
  add("directory_marker", passingGather(), "error");
  fs::create_directories(root_ / "directory_marker" / "expect_error");
  add("file_marker", passingGather(), "fail");  // the run succeeds, so the expected error is missing
  std::ofstream(root_ / "file_marker" / "expect_error") << "\n";

  CliRun run = runCli({"onnx-test", "--json", dirs_[0], dirs_[1], dirs_[2]}, {}, 120);
  ASSERT_FALSE(run.timed_out) << "onnx-test hung on a FIFO named expect_error";
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const std::vector<std::string> output = lines(run.out);
  ASSERT_EQ(output.size(), 3u) << run.out;
  const std::string kinds[] = {"is a FIFO, not a regular file", "is a directory, not a regular file",
                               "expected an error, but the run succeeded"};
  for (size_t i = 0; i < 3; ++i) {
    const nlohmann::json line = nlohmann::json::parse(output[i]);
    EXPECT_EQ(line.at("status"), expected_status_[i]) << output[i];
    EXPECT_NE(line.at("message").get<std::string>().find(kinds[i]), std::string::npos) << output[i];
  }
}

}  // namespace
}  // namespace vkindex::tools::test
