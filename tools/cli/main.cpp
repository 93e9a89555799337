// vkindex: run ONNX node tests and benchmarks of the indexing operators on any Vulkan device.
#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "vkindex/version.hpp"

namespace vkindex::tools {

const char* const kDeviceOptionHelp =
    "SEL is a device index or a case-insensitive part of its name; without --device, VKINDEX_DEVICE is used,\n"
    "else the first discrete GPU, else integrated, else the first device ('vkindex devices' lists them).";

}  // namespace vkindex::tools

namespace {

// Exit code for a command line that does not parse (unknown option, missing directory, bad count).
constexpr int kUsageError = 2;

// The library this binary runs with; also the headers' when the two differ, which would be a build
// mix-up worth seeing.
std::string versionText() {
  std::string text = std::string("vkindex ") + vkindex::libraryVersion();
  if (text != std::string("vkindex ") + VKINDEX_VERSION_STRING) {
    text += std::string(" (built with the headers of ") + VKINDEX_VERSION_STRING + ")";
  }
  return text;
}

int run(int argc, char** argv) {
  CLI::App app(
      "vkindex: ONNX indexing operators (Gather, GatherElements, GatherND, Scatter, ScatterElements, "
      "ScatterND) as Vulkan compute shaders",
      "vkindex");
  app.set_version_flag("--version", versionText, "Print the library version and exit");
  app.require_subcommand(1);
  app.footer(std::string("Run 'vkindex <command> --help' for a command's options.\n\n") +
             vkindex::tools::kDeviceOptionHelp);

  vkindex::tools::DevicesOptions devices_options;
  vkindex::tools::OnnxTestOptions onnx_test_options;
  vkindex::bench::BenchOptions bench_options;
  CLI::App* devices = vkindex::tools::addDevicesCommand(app, devices_options);
  CLI::App* onnx_test = vkindex::tools::addOnnxTestCommand(app, onnx_test_options);
  CLI::App* bench = vkindex::tools::addBenchCommand(app, bench_options);

  if (argc < 2) {
    // No command at all: the usage is more helpful than "a subcommand is required".
    std::fputs(app.help().c_str(), stderr);
    return kUsageError;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version arrive here too, with exit code 0; app.exit prints them to stdout and
    // errors to stderr. Every real parse error is a usage error, whatever CLI11's own code for it.
    return app.exit(e) == 0 ? 0 : kUsageError;
  }
  if (devices->parsed()) return vkindex::tools::runDevicesCommand(devices_options);
  if (onnx_test->parsed()) return vkindex::tools::runOnnxTestCommand(onnx_test_options);
  if (bench->parsed()) return vkindex::tools::runBenchCommand(bench_options);
  return kUsageError;  // unreachable: require_subcommand(1) makes parse() throw without one
}

}  // namespace

int main(int argc, char** argv) {
  // The commands report failures as Status values; an exception here is a bug (or out of memory),
  // and still deserves a message and a failing exit code rather than std::terminate.
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    // Sizes read from files are checked before their allocations; this is one that was not foreseen.
    std::fprintf(stderr, "vkindex: out of host memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vkindex: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "vkindex: internal error (unknown exception)\n");
  }
  return 1;
}
