#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "commands.hpp"
#include "json.hpp"
#include "node_runner.hpp"

namespace vkindex::tools {
namespace {

struct OnnxTestArgs {
  std::string device;
  bool json = false;
  int repeat = 0;
  std::vector<std::string> dirs;
};

bool parse(const Args& args, OnnxTestArgs& out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--json") {
      out.json = true;
    } else if ((arg == "--device" || arg == "--repeat") && i + 1 < args.size()) {
      const std::string& value = args[++i];
      if (arg == "--device") {
        out.device = value;
      } else {
        char* end = nullptr;
        long repeat = std::strtol(value.c_str(), &end, 10);
        if (end == value.c_str() || *end != '\0' || repeat < 1 || repeat > 100000) {
          std::fprintf(stderr, "vkindex onnx-test: --repeat needs a count from 1 to 100000, got '%s'\n", value.c_str());
          return false;
        }
        out.repeat = static_cast<int>(repeat);
      }
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "vkindex onnx-test: unknown option '%s'\n", arg.c_str());
      return false;
    } else {
      out.dirs.push_back(arg);
    }
  }
  if (out.dirs.empty()) {
    std::fprintf(stderr, "vkindex onnx-test: give at least one node-test directory\n");
    return false;
  }
  return true;
}

void printResult(const std::string& dir, const NodeTestResult& result, bool json) {
  if (json) {
    JsonLine line;
    line.add("test", dir).add("status", outcomeName(result.outcome)).add("message", result.message);
    if (result.timing) {
      line.add("device_ms_median", result.timing->has_device_time ? result.timing->device_ms_median : NAN);
      line.add("device_ms_min", result.timing->has_device_time ? result.timing->device_ms_min : NAN);
      line.add("wall_ms_median", result.timing->wall_ms_median);
    }
    std::printf("%s\n", line.str().c_str());
    return;
  }
  const char* label = result.outcome == Outcome::kPass ? "PASS " : result.outcome == Outcome::kFail ? "FAIL " : "ERROR";
  std::printf("%s %s", label, dir.c_str());
  if (!result.message.empty()) std::printf(": %s", result.message.c_str());
  if (result.timing) {
    if (result.timing->has_device_time) {
      std::printf("  [device %.4f ms median, %.4f min; wall %.4f ms median]", result.timing->device_ms_median,
                  result.timing->device_ms_min, result.timing->wall_ms_median);
    } else {
      std::printf("  [wall %.4f ms median; no device timestamps for this operator or device]",
                  result.timing->wall_ms_median);
    }
  }
  std::printf("\n");
}

}  // namespace

int onnxTestCommand(const Args& args) {
  OnnxTestArgs options;
  if (!parse(args, options)) return 2;
  ContextOptions context_options;
  context_options.device = options.device;
  StatusOr<std::unique_ptr<Context>> context = Context::create(context_options);
  if (!context.ok()) {
    std::fprintf(stderr, "vkindex onnx-test: %s\n", context.status().toString().c_str());
    return 1;
  }
  int passed = 0, failed = 0;
  for (const std::string& dir : options.dirs) {
    NodeTestResult result = runNodeTestDir(**context, dir, {options.repeat});
    (result.outcome == Outcome::kPass ? passed : failed) += 1;
    printResult(dir, result, options.json);
    std::fflush(stdout);
  }
  if (!options.json) std::printf("%d passed, %d failed\n", passed, failed);
  if ((*context)->validationMessageCount() > 0) {
    std::fprintf(stderr, "vkindex onnx-test: the validation layer reported %u messages\n",
                 (*context)->validationMessageCount());
    return 1;
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace vkindex::tools
