// `vkindex bench`: operator throughput beside vkCmdCopyBuffer and a compute-shader copy of the same bytes.
#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "bench.hpp"
#include "commands.hpp"
#include "context_failure.hpp"

namespace vkindex::tools {
namespace {

// What the modes print, for the help text's footer.
const char* const kBenchModesHelp =
    "Without a mode: the operator table (each row checked against a CPU reference, then timed beside\n"
    "vkCmdCopyBuffer and the compute copy of the same bytes), then the latency rows: a 1-row Gather and a\n"
    "1-row in-place ScatterND, each as host us to record it, device us, us of the synchronous call, and\n"
    "per-op us when 100 are recorded into one command buffer.\n"
    "--sweep: Gather GB/s for row sizes 1 B .. 64 KiB (powers of two, 16 MiB out per point, 1 MiB with\n"
    "--quick, N MiB with --sweep-mib N) beside both copy baselines; scripts/plot-sweep.sh draws it.\n"
    "--cold-start: starts this program again as child processes and reports process start to the first\n"
    "Gather result with an empty and with a warm pipeline cache (a temporary VKINDEX_PIPELINE_CACHE_DIR).\n\n";

}  // namespace

CLI::App* addBenchCommand(CLI::App& app, bench::BenchOptions& options) {
  CLI::App* command = app.add_subcommand(
      "bench", "Operator throughput beside vkCmdCopyBuffer and a compute-shader copy of the same bytes");
  command->add_option("--device", options.device, "Device index or case-insensitive part of its name")
      ->type_name("SEL");
  command->add_flag("--json", options.json, "One JSON object per row (or point) instead of the table");
  command->add_flag("--quick", options.quick, "Smaller sizes and shorter rows, for a smoke test");
  command->add_flag("--steps", options.steps,
                    "Under each row: the operator's device time split by kernel (extra runs, stamped after every "
                    "dispatch)");
  CLI::Option* sweep =
      command->add_flag("--sweep", options.sweep,
                        "Instead of the table: Gather GB/s for rows of 1 B to 64 KiB beside both copy baselines");
  CLI::Option* cold_start = command->add_flag(
      "--cold-start", options.cold_start,
      "Instead of the table: process start to the first Gather result, without and with a pipeline cache file");
  sweep->excludes(cold_start);
  command
      ->add_option("--sweep-mib", options.sweep_mib,
                   "With --sweep: MiB of output per point (default 16, 1 with --quick); more than a GPU's L2 "
                   "cache times its memory")
      ->type_name("N")
      ->check(CLI::Range(1, 256))
      ->needs(sweep);
  // The hidden side of --cold-start: an empty group keeps it out of --help.
  command->add_flag("--cold-start-child", options.cold_start_child, "Internal: one --cold-start measurement")
      ->group("");
  command
      ->add_option("--only", options.only,
                   "Only the table rows whose names contain NAME (repeat or separate by commas); 'latency' keeps the "
                   "latency rows")
      ->type_name("NAME")
      ->delimiter(',');
  command
      ->add_option("--repeats", options.repeats,
                   "Timed runs per row (default: chosen per row, 5 to 50); processes per case with --cold-start")
      ->type_name("N")
      ->check(CLI::Range(1, 100000));
  command->footer(std::string(kBenchModesHelp) + kDeviceOptionHelp);
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
