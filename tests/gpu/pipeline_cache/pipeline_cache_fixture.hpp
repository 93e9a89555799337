// Shared by the pipeline cache tests: a fixture with a fresh temporary cache directory per test, file
// helpers, checks of the file format, and a runner for pipeline_cache_worker processes.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/gpu_test.hpp"
#include "support/scoped_env.hpp"
#include "support/scoped_temp_dir.hpp"

namespace vkindex::test {

namespace fs = std::filesystem;

std::vector<char> readFile(const fs::path& path);
void writeFile(const fs::path& path, const std::vector<char>& bytes);
// Every regular file below `dir`, relative to it.
std::vector<std::string> filesBelow(const fs::path& dir);

// Whether `payload` (driver data) starts with a VkPipelineCacheHeaderVersionOne describing `device`.
// Written from the spec, independently of the library's own check.
::testing::AssertionResult headerDescribes(const std::vector<char>& payload, const DeviceInfo& device);
// Whether `file` is a cache file the library accepts for `device`, and its driver data's header
// describes the device.
::testing::AssertionResult isValidCacheFile(const std::vector<char>& file, const DeviceInfo& device);
// The driver data of a cache file (what follows vkindex's header).
std::vector<char> payloadOf(const std::vector<char>& file);
// A cache file around `payload`, with a correct size and checksum: what reaches the header checks.
std::vector<char> sealedFile(const std::vector<char>& payload);

// A pipeline_cache_worker process: what it printed (stdout and stderr together) and how it ended.
struct WorkerOutcome {
  bool finished = false;  // false: still running at the deadline, and killed
  int exit_code = -1;     // -1 when it did not exit normally (killed, or crashed)
  std::string output;
  // "loaded=" and "warning=" from the output ("" when absent).
  std::string value(const std::string& key) const;
};

// Starts a worker on `cache_dir`, its output going to `log`. Returns the process id (or -1).
pid_t startWorker(const fs::path& cache_dir, const fs::path& log);
// Waits for `pid` until `deadline` and kills it past that, so a hang fails the test instead of blocking.
WorkerOutcome finishWorker(pid_t pid, const fs::path& log, std::chrono::steady_clock::time_point deadline);

class PipelineCacheTest : public GpuTest {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A validated context caching pipelines in `dir` ("" for none).
  std::unique_ptr<Context> contextWithCache(const std::string& dir);
  // Gathers that need several pipelines (index check, word and sub-word copies), compared byte for byte
  // with the reference; and no validation message on `ctx`.
  void expectGathersWork(Context& ctx);
  // The bytes vkGetPipelineCacheData returns for `ctx`'s cache right now.
  static std::vector<char> cacheData(const Context& ctx);
  // The warning `ctx`'s cache gave when loading its file ("" for none).
  static std::string loadWarning(const Context& ctx);
  static bool isSwiftShader();
  // The file a context caching in dir_ uses (nothing is left there).
  std::string cacheFilePath();
  // Writes a valid cache file in dir_ (a context's, after a gather) and returns its path and bytes.
  void makeValidCacheFile(std::string* path, std::vector<char>* bytes);

  std::unique_ptr<ScopedTempDir> temp_dir_;  // the test's own folder
  fs::path dir_;
};

}  // namespace vkindex::test
