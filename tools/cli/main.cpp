// vkindex: run ONNX node tests and benchmarks of the indexing operators on any Vulkan device.
#include <cstdio>
#include <cstring>

#include "commands.hpp"

namespace {

constexpr const char* kUsage =
    "usage: vkindex <command> [options]\n"
    "\n"
    "commands:\n"
    "  devices [--json]                       list Vulkan devices, their capabilities, and the default\n"
    "  onnx-test [--device SEL] [--json] [--repeat N] DIR...\n"
    "                                         run ONNX node-test directories (model.onnx +\n"
    "                                         test_data_set_*), byte-exact; exit 0 only if all pass\n"
    "  bench [--device SEL] [--json] [--quick] [--repeats N]\n"
    "                                         operator throughput beside vkCmdCopyBuffer and a\n"
    "                                         compute-shader copy of the same bytes\n"
    "\n"
    "SEL is a device index or a case-insensitive part of its name; without --device, VKINDEX_DEVICE\n"
    "is used, else the first discrete GPU, else integrated, else the first device.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  const vkindex::tools::Args args(argv + 2, argv + argc);
  if (command == "devices") return vkindex::tools::devicesCommand(args);
  if (command == "onnx-test") return vkindex::tools::onnxTestCommand(args);
  if (command == "bench") return vkindex::tools::benchCommand(args);
  std::fprintf(stderr, "vkindex: unknown command '%s'\n\n%s", command.c_str(), kUsage);
  return 2;
}
