// `vkindex bench`: operator throughput beside vkCmdCopyBuffer and a compute-shader copy of the same bytes.
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "bench.hpp"
#include "commands.hpp"
#include "context_failure.hpp"

namespace vkindex::tools {

CLI::App* addBenchCommand(CLI::App& app, bench::BenchOptions& options) {
  CLI::App* command = app.add_subcommand(
      "bench", "Operator throughput beside vkCmdCopyBuffer and a compute-shader copy of the same bytes");
  command->add_option("--device", options.device, "Device index or case-insensitive part of its name")
      ->type_name("SEL");
  command->add_flag("--json", options.json, "One JSON object per row instead of the table");
  command->add_flag("--quick", options.quick, "Smaller sizes and shorter rows, for a smoke test");
  command->add_flag("--sweep", options.sweep,
                    "Instead of the table: Gather GB/s for rows of 1 B to 64 KiB beside both copy baselines");
  command->add_option("--repeats", options.repeats, "Timed runs per row (default: chosen per row, 5 to 50)")
      ->type_name("N")
      ->check(CLI::Range(1, 100000));
  command->footer(kDeviceOptionHelp);
  return command;
}

int runBenchCommand(const bench::BenchOptions& options) {
  Status status = bench::runBenchmarks(options, std::cout);
  if (!status.ok()) {
    std::fputs(explainContextFailure("vkindex bench", status).c_str(), stderr);
    return 1;
  }
  return 0;
}

}  // namespace vkindex::tools
