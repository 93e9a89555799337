#include "cold_start.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "host_data.hpp"
#include "json_line.hpp"
#include "table_text.hpp"
#include "timing_math.hpp"
#include "vkindex/vkindex.hpp"

extern char** environ;

namespace vkindex::bench {
namespace {

// The child's Gather: a small embedding lookup (float32 [1024, 256] x int64 [64]). Its size hardly
// matters: a cold start is dominated by driver and pipeline setup, not by moving 64 KiB.
constexpr int64_t kChildVocab = 1024;
constexpr int64_t kChildHidden = 256;
constexpr int64_t kChildTokens = 64;

// What one child reported, and what the parent measured around it.
struct ChildRun {
  double start_to_result_ms = 0.0;  // parent: posix_spawn to the child's result line
  double context_ms = 0.0;          // child: Context::create
  double first_gather_ms = 0.0;     // child: upload, gather (pipeline creation included), download, check
  bool cache_loaded = false;
  std::string device;
};

// The executable to start again. /proc/self/exe names this process's binary whatever argv[0] says;
// vkindex's tools are built for Linux (Debian) only.
constexpr const char* kSelf = "/proc/self/exe";

// This process's environment with VKINDEX_PIPELINE_CACHE_DIR set to `cache_dir`, and Mesa's own on-disk
// shader cache off: lavapipe would otherwise serve a "cold" start from ~/.cache/mesa_shader_cache and
// hide what vkindex's pipeline cache saves.
std::vector<std::string> childEnvironment(const std::string& cache_dir) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    if (text.rfind("VKINDEX_PIPELINE_CACHE_DIR=", 0) == 0 || text.rfind("MESA_SHADER_CACHE_DISABLE=", 0) == 0) continue;
    environment.push_back(text);
  }
  environment.push_back("VKINDEX_PIPELINE_CACHE_DIR=" + cache_dir);
  environment.push_back("MESA_SHADER_CACHE_DISABLE=true");
  return environment;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  result.reserve(strings.size() + 1);
  for (std::string& text : strings) result.push_back(text.data());
  result.push_back(nullptr);
  return result;
}

// Runs one child and reads its one JSON line from a pipe; the time stops when that line arrives (the
// child's teardown, which saves the cache, is not counted).
StatusOr<ChildRun> runChild(const BenchOptions& options, const std::string& cache_dir) {
  std::vector<std::string> arguments = {"vkindex", "bench", "--cold-start-child"};
  if (!options.device.empty()) arguments.insert(arguments.end(), {"--device", options.device});
  std::vector<std::string> environment = childEnvironment(cache_dir);
  std::vector<char*> argv = pointers(arguments);
  std::vector<char*> envp = pointers(environment);

  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0) return internalError("bench --cold-start: pipe2 failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
  const auto start = std::chrono::steady_clock::now();
  pid_t child = 0;
  const int spawned = posix_spawn(&child, kSelf, &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_ends[1]);
  if (spawned != 0) {
    close(pipe_ends[0]);
    return internalError(std::string("bench --cold-start: cannot start ") + kSelf + " (errno " +
                         std::to_string(spawned) + ")");
  }
  std::string output;
  double line_ms = 0.0;
  char buffer[4096];
  for (ssize_t got; (got = read(pipe_ends[0], buffer, sizeof(buffer))) != 0;) {
    if (got < 0) {
      if (errno == EINTR) continue;
      break;
    }
    output.append(buffer, static_cast<size_t>(got));
    if (line_ms == 0.0 && output.find('\n') != std::string::npos) line_ms = tools::millisecondsSince(start);
  }
  close(pipe_ends[0]);
  int wait_status = 0;
  while (waitpid(child, &wait_status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0) {
    return internalError("bench --cold-start: the child process failed (its messages are above); output: " + output);
  }
  const tools::JsonDocument line = tools::JsonDocument::parse(output, nullptr, /*allow_exceptions=*/false);
  if (line.is_discarded() || !line.contains("first_gather_ms")) {
    return internalError("bench --cold-start: unexpected child output: " + output);
  }
  ChildRun run;
  run.start_to_result_ms = line_ms;
  run.context_ms = line.value("context_ms", 0.0);
  run.first_gather_ms = line.value("first_gather_ms", 0.0);
  run.cache_loaded = line.value("cache_loaded", false);
  run.device = line.value("device", "");
  return run;
}

// Median of one field over the runs.
template <typename Field>
double medianOf(const std::vector<ChildRun>& runs, Field field) {
  std::vector<double> values;
  values.reserve(runs.size());
  for (const ChildRun& run : runs) values.push_back(run.*field);
  return tools::medianOf(values);
}

// One line for one cache state. `cache_bytes`: the size of the file the runs could load (0 for none).
void printCase(std::ostream& out, const char* cache, const std::vector<ChildRun>& runs, bool expect_loaded,
               uint64_t cache_bytes, bool json) {
  int loaded = 0;
  for (const ChildRun& run : runs) loaded += run.cache_loaded ? 1 : 0;
  const double total = medianOf(runs, &ChildRun::start_to_result_ms);
  const double context = medianOf(runs, &ChildRun::context_ms);
  const double gather = medianOf(runs, &ChildRun::first_gather_ms);
  if (json) {
    tools::writeJsonLine(out, {{"section", "cold_start"},
                               {"device", runs.front().device},
                               {"pipeline_cache", cache},
                               {"start_to_first_result_ms", std::round(total * 10.0) / 10.0},
                               {"context_create_ms", std::round(context * 10.0) / 10.0},
                               {"first_gather_ms", std::round(gather * 10.0) / 10.0},
                               {"cache_file_bytes", cache_bytes},
                               {"runs", runs.size()},
                               {"runs_that_loaded_the_cache", loaded}});
    return;
  }
  out << cell(cache, -8) << " " << cell(formatNumber("%.1f", total), 24) << " "
      << cell(formatNumber("%.1f", context), 19) << " " << cell(formatNumber("%.1f", gather), 19) << " "
      << cell(std::to_string(runs.size()), 5) << " " << cell(std::to_string(loaded), 12) << "\n";
  const bool as_expected = expect_loaded ? loaded == static_cast<int>(runs.size()) : loaded == 0;
  if (!as_expected) {
    out << "WARNING: " << loaded << " of " << runs.size() << " " << cache << " runs loaded a cache file; expected "
        << (expect_loaded ? "all" : "none") << "\n";
  }
}

// The bytes of the files in `directory`: what the warm runs can load.
uint64_t directoryBytes(const std::filesystem::path& directory) {
  uint64_t bytes = 0;
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ignored)) {
    if (entry.is_regular_file(ignored)) bytes += entry.file_size(ignored);
  }
  return bytes;
}

// vkindex's file header (pipeline_cache_file.hpp) plus the driver's VkPipelineCacheHeaderVersionOne: a
// file no larger holds no pipelines, and a warm start cannot gain anything from it.
constexpr uint64_t kEmptyCacheFileBytes = 32 + 32;

}  // namespace

Status runColdStartChild(const BenchOptions& options, std::ostream& out) {
  const auto start = std::chrono::steady_clock::now();
  ContextOptions context_options;
  context_options.device = options.device;
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<Context> context, Context::create(context_options));
  const double context_ms = tools::millisecondsSince(start);

  const auto gather_start = std::chrono::steady_clock::now();
  const Shape table_shape = {kChildVocab, kChildHidden};
  const std::vector<uint8_t> table = randomBytes(uint64_t(kChildVocab * kChildHidden) * 4, 41);
  const std::vector<uint8_t> indices = randomIndices(DataType::kInt64, kChildTokens, kChildVocab, 42);
  VKINDEX_ASSIGN_OR_RETURN(Tensor data,
                           Tensor::fromHost(*context, DataType::kFloat32, table_shape, table.data(), table.size()));
  VKINDEX_ASSIGN_OR_RETURN(
      Tensor index, Tensor::fromHost(*context, DataType::kInt64, {kChildTokens}, indices.data(), indices.size()));
  VKINDEX_ASSIGN_OR_RETURN(Tensor output, gather(*context, data, index, 0));
  VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> result, output.toHost());
  const double gather_ms = tools::millisecondsSince(gather_start);
  if (result != cpuGather(table, table_shape, 4, indices, DataType::kInt64, 0)) {
    return internalError("bench --cold-start: the first Gather's output differs from the CPU reference");
  }
  tools::writeJsonLine(out, {{"device", context->device().name},
                             {"context_ms", context_ms},
                             {"first_gather_ms", gather_ms},
                             {"cache_loaded", context->pipelineCacheLoaded()}});
  out.flush();
  return Status::Ok();
}

Status runColdStart(const BenchOptions& options, std::ostream& out) {
  const int runs = options.repeats > 0 ? options.repeats : options.quick ? 2 : 5;
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/vkindex-cold-start-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) return internalError("bench --cold-start: cannot create " + pattern);
  const std::filesystem::path cache_dir = pattern;

  std::vector<ChildRun> cold, warm;
  Status status;
  // Cold: the directory emptied before every run. Warm: the file the last cold run saved at its exit.
  for (int run = 0; run < runs && status.ok(); ++run) {
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator(cache_dir, ignored)) {
      std::filesystem::remove_all(entry.path(), ignored);
    }
    StatusOr<ChildRun> child = runChild(options, cache_dir.string());
    if (child.ok()) cold.push_back(*child);
    status = child.status();
  }
  const uint64_t cache_bytes = directoryBytes(cache_dir);
  for (int run = 0; run < runs && status.ok(); ++run) {
    StatusOr<ChildRun> child = runChild(options, cache_dir.string());
    if (child.ok()) warm.push_back(*child);
    status = child.status();
  }
  std::error_code ignored;
  std::filesystem::remove_all(cache_dir, ignored);
  VKINDEX_RETURN_IF_ERROR(status);

  if (!options.json) {
    out << "vkindex bench --cold-start: process start to the first Gather result\n"
        << "device:  " << cold.front().device << "\n"
        << "date:    " << utcTime("%Y-%m-%d") << " (UTC)\n"
        << "child:   a new vkindex process: Context::create, upload float[" << kChildVocab << "," << kChildHidden
        << "] and int64[" << kChildTokens << "], gather, download, check; VKINDEX_PIPELINE_CACHE_DIR in a temporary"
        << " directory, MESA_SHADER_CACHE_DISABLE=true\n"
        << "note:    medians of " << runs << " processes each; ms = host milliseconds; none = empty cache"
        << " directory, warm = the file a previous process saved\n"
        << "cache:   the file the cold runs saved has " << cache_bytes << " bytes"
        << (cache_bytes <= kEmptyCacheFileBytes ? ": headers only, the driver returned no pipelines to reuse" : "")
        << "\n\n"
        << cell("cache", -8) << " " << cell("start to result ms", 24) << " " << cell("Context::create ms", 19) << " "
        << cell("first gather ms", 19) << " " << cell("runs", 5) << " " << cell("cache loaded", 12) << "\n";
  }
  printCase(out, "none", cold, false, 0, options.json);
  printCase(out, "warm", warm, true, cache_bytes, options.json);
  return Status::Ok();
}

}  // namespace vkindex::bench
