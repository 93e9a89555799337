// vkindex: run ONNX node tests and benchmarks of the indexing operators on any Vulkan device.
#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "vkindex/version.hpp"

namespace vkindex::tools {
namespace {

// The help text's explanation of --device, shared by every subcommand that selects a device.
const char* const kDeviceOptionHelp =
    "SEL is a device index or a case-insensitive part of its name; without --device, VKINDEX_DEVICE is used,\n"
    "else the first discrete GPU, else integrated, else the first device ('vkindex devices' lists them).";

const char* const kTuningProfileHelp =
    "Take the tuning values of a profile written by 'vkindex tune' (\"\" for none); without it,\n"
    "VKINDEX_TUNING_PROFILE, else the profile tune wrote into the pipeline cache folder for the device.";

// What bench's modes print, for its help text's footer.
const char* const kBenchModesHelp =
    "Without a mode: the operator table (each row checked against a CPU reference, then timed beside\n"
    "vkCmdCopyBuffer and the compute copy of the same bytes), then the latency rows: a 1-row Gather and a\n"
    "1-row in-place ScatterND, each as host us to record it, device us, us of the synchronous call, and\n"
    "per-op us when 100 are recorded into one command buffer; then the kv-cache rows: 64 KV caches written\n"
    "in place in one command buffer (decode-step, prefill-512, kv-circular, paged-kv) beside\n"
    "vkCmdCopyBuffer of the same regions.\n"
    "--sweep: Gather GB/s for row sizes 1 B .. 64 KiB (powers of two, 16 MiB out per point, 1 MiB with\n"
    "--quick, N MiB with --sweep-mib N) beside both copy baselines; scripts/plot-sweep.sh draws it.\n"
    "--cold-start: starts this program again as child processes and reports process start to the first\n"
    "Gather result with an empty and with a warm pipeline cache (a temporary VKINDEX_PIPELINE_CACHE_DIR).\n\n";

// Each add...Command declares a subcommand and its options on the app, to be filled in by parsing; the
// command's run...Command (commands.hpp) then does the work. Only this file includes CLI11: every
// translation unit that does compiles its inline code and static validators again (seconds each).
CLI::App* addDevicesCommand(CLI::App& app, DevicesOptions& options) {
  CLI::App* command = app.add_subcommand("devices", "List the Vulkan devices, their capabilities, and the default");
  command->add_flag("--json", options.json,
                    "Print one JSON document: {\"default_index\": N or null, \"devices\": [{...}, ...]}");
  command->add_flag("--gpu-tuning", options.gpu_tuning, "Show the tuning with ContextOverrides::gpu_tuning");
  command->add_option("--workgroup-size", options.workgroup_size, "Show the tuning with this workgroup override")
      ->type_name("N");
  command
      ->add_option("--items-per-invocation", options.items_per_invocation,
                   "Show the tuning with this items-per-invocation override")
      ->type_name("N");
  command->add_option("--min-walk-lines", options.min_walk_lines, "Show the tuning with this walk-threshold override")
      ->type_name("N");
  command->add_option("--tuning-profile", options.tuning_profile, kTuningProfileHelp)->type_name("FILE");
  return command;
}

CLI::App* addOnnxTestCommand(CLI::App& app, OnnxTestOptions& options) {
  CLI::App* command = app.add_subcommand(
      "onnx-test",
      "Run ONNX node-test directories (model.onnx + test_data_set_*) byte-exactly; exit 0 only if all pass");
  command->add_option("--device", options.device, "Device index or case-insensitive part of its name")
      ->type_name("SEL");
  command->add_flag("--json", options.json,
                    "One JSON object per directory (keys test, status, message; with --repeat also "
                    "device_ms_median, device_ms_min, wall_ms_median) and no summary line");
  command->add_option("--repeat", options.repeat, "Also time the operator N times, recorded, inputs on the device")
      ->type_name("N")
      ->check(CLI::Range(1, 100000));
  command->add_option("--tuning-profile", options.tuning_profile, kTuningProfileHelp)->type_name("FILE");
  command->add_option("DIR", options.dirs, "Node-test directories")->required();
  command->footer(kDeviceOptionHelp);
  return command;
}

CLI::App* addBenchCommand(CLI::App& app, bench::BenchOptions& options) {
  CLI::App* command = app.add_subcommand(
      "bench", "Operator throughput beside vkCmdCopyBuffer and a compute-shader copy of the same bytes");
  command->add_option("--device", options.device, "Device index or case-insensitive part of its name")
      ->type_name("SEL");
  command->add_flag("--json", options.json, "One JSON object per row (or point) instead of the table");
  command->add_option("--tuning-profile", options.tuning_profile, kTuningProfileHelp)->type_name("FILE");
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
                   "latency rows, 'kv-cache' the KV-cache rows")
      ->type_name("NAME")
      ->delimiter(',');
  command
      ->add_option("--repeats", options.repeats,
                   "Timed runs per row (default: chosen per row, 5 to 50; kv-cache rows 3 to 100); processes per "
                   "case with --cold-start")
      ->type_name("N")
      ->check(CLI::Range(1, 100000));
  command->footer(std::string(kBenchModesHelp) + kDeviceOptionHelp);
  return command;
}

CLI::App* addTuneCommand(CLI::App& app, tune::TuneOptions& options) {
  CLI::App* command = app.add_subcommand(
      "tune", "Measure the tuning values on this device and write a tuning profile that Contexts then take");
  command->add_option("--device", options.device, "Device index or case-insensitive part of its name")
      ->type_name("SEL");
  command->add_flag("--quick", options.quick, "Smaller rows, fewer candidates and runs (under a minute on lavapipe)");
  command
      ->add_option("--output", options.output,
                   "Write the profile here (default: the file Contexts look for in the pipeline cache folder)")
      ->type_name("FILE");
  command->footer(
      "Each probe sweeps the candidates for one or two tuning values over benchmark rows whose time they\n"
      "decide, checks every run against the CPU reference, and keeps the table's setting unless another is\n"
      "more than 3% faster. docs/tuning.md explains the profile.\n\n" +
      std::string(kDeviceOptionHelp));
  return command;
}

// Exit code for a command line that does not parse (unknown option, missing directory, bad count).
constexpr int kUsageError = 2;

// The library this binary runs with; also the headers' when the two differ, which would be a build
// mix-up worth seeing.
std::string versionText() {
  std::string text = std::string("vkindex ") + libraryVersion();
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
  app.footer(std::string("Run 'vkindex <command> --help' for a command's options.\n\n") + kDeviceOptionHelp);

  DevicesOptions devices_options;
  OnnxTestOptions onnx_test_options;
  bench::BenchOptions bench_options;
  tune::TuneOptions tune_options;
  const CLI::App* devices_command = addDevicesCommand(app, devices_options);
  const CLI::App* onnx_test_command = addOnnxTestCommand(app, onnx_test_options);
  const CLI::App* bench_command = addBenchCommand(app, bench_options);
  const CLI::App* tune_command = addTuneCommand(app, tune_options);

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
  if (devices_command->parsed()) return runDevicesCommand(devices_options);
  if (onnx_test_command->parsed()) return runOnnxTestCommand(onnx_test_options);
  if (bench_command->parsed()) return runBenchCommand(bench_options);
  if (tune_command->parsed()) return runTuneCommand(tune_options);
  return kUsageError;  // unreachable: require_subcommand(1) makes parse() throw without one
}

}  // namespace
}  // namespace vkindex::tools

int main(int argc, char** argv) {
  // The commands report failures as Status values; an exception here is a bug (or out of memory),
  // and still deserves a message and a failing exit code rather than std::terminate.
  try {
    return vkindex::tools::run(argc, argv);
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
