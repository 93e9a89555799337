// The vkindex CLI's subcommands. Each add...Command declares a subcommand and its options on the app,
// to be filled in by parsing; its run...Command then does the work and returns the exit code: 0
// success, 1 a test failed or an operation errored. Usage errors (2) come from parsing, in main.cpp.
#pragma once

#include <string>
#include <vector>

#include "bench.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace vkindex::tools {

// The help text's explanation of --device, shared by every subcommand that selects a device.
extern const char* const kDeviceOptionHelp;

struct DevicesOptions {
  bool json = false;  // one JSON document instead of the text list
};
CLI::App* addDevicesCommand(CLI::App& app, DevicesOptions& options);
int runDevicesCommand(const DevicesOptions& options);

struct OnnxTestOptions {
  std::string device;  // as ContextOptions::device; empty for the default
  bool json = false;   // one JSON object per directory instead of text lines and a summary
  int repeat = 0;      // > 0: also time the operator this many times (NodeTestOptions::repeat)
  std::vector<std::string> dirs;
};
CLI::App* addOnnxTestCommand(CLI::App& app, OnnxTestOptions& options);
int runOnnxTestCommand(const OnnxTestOptions& options);

CLI::App* addBenchCommand(CLI::App& app, bench::BenchOptions& options);
int runBenchCommand(const bench::BenchOptions& options);

}  // namespace vkindex::tools
