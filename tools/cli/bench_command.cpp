// `vkindex bench`: operator throughput beside vkCmdCopyBuffer and a compute-shader copy of the same bytes.
#include <cstdio>
#include <iostream>

#include "bench.hpp"
#include "commands.hpp"
#include "context_failure.hpp"

namespace vkindex::tools {

int runBenchCommand(const bench::BenchOptions& options) {
  Status status = bench::runBenchmarks(options, std::cout);
  if (!status.ok()) {
    std::fputs(explainContextFailure("vkindex bench", status).c_str(), stderr);
    return 1;
  }
  return 0;
}

}  // namespace vkindex::tools
