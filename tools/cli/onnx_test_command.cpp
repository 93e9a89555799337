// `vkindex onnx-test`: runs ONNX node-test directories and prints one line per directory (text or
// JSON), then, in text, a summary line.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "context_failure.hpp"
#include "json_line.hpp"
#include "node_runner.hpp"
#include "quote.hpp"

namespace vkindex::tools {
namespace {

// Room for a path (PATH_MAX is 4096) and a few names, each capped by onnxio::kMaxQuotedBytes.
constexpr size_t kMaxFieldBytes = 8192;

// Every text field of a result line goes through here, whatever its source. Names and values from the
// files were escaped where the message was built and pass unchanged (escaping is idempotent); what is
// left, such as a directory name from the command line, cannot start a line of its own either. JSON
// gets the same text, so the two outputs agree and hold valid UTF-8 only.
std::string field(const std::string& text) { return onnxio::printableText(text, kMaxFieldBytes); }

const char* label(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPass: return "PASS ";
    case Outcome::kFail: return "FAIL ";
    case Outcome::kError: return "ERROR";
  }
  return "ERROR";
}

void printJson(const std::string& dir, const NodeTestResult& result) {
  JsonDocument line;
  line["test"] = field(dir);
  line["status"] = outcomeName(result.outcome);
  line["message"] = field(result.message);
  if (result.timing) {
    const Timing& timing = *result.timing;
    line["device_ms_median"] = timing.has_device_time ? JsonDocument(timing.device_ms_median) : JsonDocument(nullptr);
    line["device_ms_min"] = timing.has_device_time ? JsonDocument(timing.device_ms_min) : JsonDocument(nullptr);
    line["wall_ms_median"] = timing.wall_ms_median;
  }
  writeJsonLine(std::cout, line);
}

void printText(const std::string& dir, const NodeTestResult& result) {
  std::cout << label(result.outcome) << " " << field(dir);
  if (!result.message.empty()) std::cout << ": " << field(result.message);
  if (result.timing) {
    char text[160];
    if (result.timing->has_device_time) {
      std::snprintf(text, sizeof(text), "  [device %.4f ms median, %.4f min; wall %.4f ms median]",
                    result.timing->device_ms_median, result.timing->device_ms_min, result.timing->wall_ms_median);
    } else {
      std::snprintf(text, sizeof(text), "  [wall %.4f ms median; no device timestamps for this operator or device]",
                    result.timing->wall_ms_median);
    }
    std::cout << text;
  }
  std::cout << "\n";
}

}  // namespace

int runOnnxTestCommand(const OnnxTestOptions& options) {
  ContextOptions context_options;
  context_options.device = options.device;
  context_options.tuning_profile = options.tuning_profile;
  StatusOr<std::unique_ptr<Context>> context = Context::create(context_options);
  if (!context.ok()) {
    std::fputs(explainContextFailure("vkindex onnx-test", context.status()).c_str(), stderr);
    return 1;
  }
  int passed = 0, failed = 0;
  for (const std::string& dir : options.dirs) {
    NodeTestResult result = runNodeTestDir(**context, dir, {options.repeat});
    (result.outcome == Outcome::kPass ? passed : failed) += 1;
    options.json ? printJson(dir, result) : printText(dir, result);
    std::cout.flush();  // lines appear as directories finish
  }
  if (!options.json) std::cout << passed << " passed, " << failed << " failed\n";
  if ((*context)->validationMessageCount() > 0) {
    std::fprintf(stderr, "vkindex onnx-test: the validation layer reported %u messages\n",
                 (*context)->validationMessageCount());
    return 1;
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace vkindex::tools
