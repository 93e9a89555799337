#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "bench.hpp"
#include "commands.hpp"

namespace vkindex::tools {

int benchCommand(const Args& args) {
  bench::BenchOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--json") {
      options.json = true;
    } else if (arg == "--quick") {
      options.quick = true;
    } else if (arg == "--device" && i + 1 < args.size()) {
      options.device = args[++i];
    } else if (arg == "--repeats" && i + 1 < args.size()) {
      const std::string& value = args[++i];
      char* end = nullptr;
      long repeats = std::strtol(value.c_str(), &end, 10);
      if (end == value.c_str() || *end != '\0' || repeats < 1 || repeats > 100000) {
        std::fprintf(stderr, "vkindex bench: --repeats needs a count from 1 to 100000, got '%s'\n", value.c_str());
        return 2;
      }
      options.repeats = static_cast<int>(repeats);
    } else {
      std::fprintf(stderr, "vkindex bench: unknown option '%s' (see vkindex --help)\n", arg.c_str());
      return 2;
    }
  }
  Status status = bench::runBenchmarks(options, std::cout);
  if (!status.ok()) {
    std::fprintf(stderr, "vkindex bench: %s\n", status.toString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace vkindex::tools
