// vkindex-bench: the benchmark as a standalone program (`vkindex bench` runs the same code).
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "bench.hpp"

namespace {

void printUsage(std::ostream& out) {
  out << "usage: vkindex-bench [--device SELECTOR] [--json] [--repeats N] [--quick]\n"
         "  --device SELECTOR  device index or name substring (default: $VKINDEX_DEVICE, else the first GPU)\n"
         "  --json             one JSON object per row instead of the table\n"
         "  --repeats N        timed runs per measurement (default: ~0.5 s per row, 5..50)\n"
         "  --quick            small sizes, for a smoke test\n"
         "Environment: VK_DRIVER_FILES picks the Vulkan driver, VKINDEX_VALIDATION=1 turns on validation.\n";
}

// Parses a positive decimal count; false on anything else (no exceptions, unlike std::stoi).
bool parseCount(const char* text, int* value) {
  char* end = nullptr;
  long parsed = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || parsed <= 0 || parsed > 1000000) return false;
  *value = static_cast<int>(parsed);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  vkindex::bench::BenchOptions options;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    bool has_value = i + 1 < argc;
    if (std::strcmp(arg, "--json") == 0) {
      options.json = true;
    } else if (std::strcmp(arg, "--quick") == 0) {
      options.quick = true;
    } else if (std::strcmp(arg, "--device") == 0 && has_value) {
      options.device = argv[++i];
    } else if (std::strcmp(arg, "--repeats") == 0 && has_value && parseCount(argv[i + 1], &options.repeats)) {
      ++i;
    } else if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
      printUsage(std::cout);
      return 0;
    } else {
      std::cerr << "vkindex-bench: bad argument '" << arg << "'\n";
      printUsage(std::cerr);
      return 2;
    }
  }
  vkindex::Status status = vkindex::bench::runBenchmarks(options, std::cout);
  if (!status.ok()) {
    std::cerr << "vkindex-bench: " << status.toString() << "\n";
    return 1;
  }
  return 0;
}
