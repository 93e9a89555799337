// Many users of one cache directory: concurrent processes never see a torn file (so none warns, unless
// the file was damaged to begin with) and leave one valid file; repeated runs leave the file as it was
// (no growth, no rewrite), where SwiftShader once grew it by 32 bytes per run.
#include <sys/stat.h>
#include <sys/types.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu/pipeline_cache/pipeline_cache_fixture.hpp"
#include "support/random_tensors.hpp"

namespace vkindex::test {
namespace {

constexpr int kProcesses = 8;
// Eight workers share two cores here and need seconds each on SwiftShader; only a guard against hangs.
constexpr auto kRoundTimeLimit = std::chrono::seconds(300);

// Runs kProcesses workers at once on `dir`; each must finish in time and succeed.
std::vector<WorkerOutcome> runConcurrently(const fs::path& dir, const fs::path& logs) {
  std::vector<pid_t> pids;
  for (int i = 0; i < kProcesses; ++i) {
    pids.push_back(startWorker(dir, logs / ("worker" + std::to_string(i) + ".log")));
    EXPECT_GT(pids.back(), 0);
  }
  const auto deadline = std::chrono::steady_clock::now() + kRoundTimeLimit;
  std::vector<WorkerOutcome> outcomes;
  for (int i = 0; i < kProcesses; ++i) {
    outcomes.push_back(finishWorker(pids[i], logs / ("worker" + std::to_string(i) + ".log"), deadline));
    const WorkerOutcome& outcome = outcomes.back();
    EXPECT_TRUE(outcome.finished) << "worker " << i << " was still running at the time limit:\n" << outcome.output;
    EXPECT_EQ(outcome.exit_code, 0) << "worker " << i << ":\n" << outcome.output;
  }
  return outcomes;
}

ino_t inodeOf(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? info.st_ino : 0;
}

TEST_F(PipelineCacheTest, ConcurrentProcessesShareOneDirectory) {
  const fs::path cache_dir = dir_ / "shared", logs = dir_ / "logs";
  fs::create_directories(logs);
  const std::string path = (cache_dir / fs::path(cacheFilePath()).filename()).string();
  const std::string name = fs::path(path).filename().string();

  {
    SCOPED_TRACE("an empty directory (created by the first writer)");
    for (const WorkerOutcome& outcome : runConcurrently(cache_dir, logs)) {
      EXPECT_EQ(outcome.value("warning"), "") << "a worker saw a torn file:\n" << outcome.output;
    }
    EXPECT_TRUE(isValidCacheFile(readFile(path), context().device()));
    EXPECT_EQ(filesBelow(cache_dir), std::vector<std::string>{name}) << "a temporary file was left behind";
  }
  {
    SCOPED_TRACE("a damaged file: each worker sees it or a valid replacement, never anything torn");
    Rng rng(8);
    std::vector<char> noise(1000);
    for (char& c : noise) c = static_cast<char>(rng() & 0xFF);
    ASSERT_NO_FATAL_FAILURE(writeFile(path, noise));
    for (const WorkerOutcome& outcome : runConcurrently(cache_dir, logs)) {
      const std::string warning = outcome.value("warning");
      if (outcome.value("loaded") == "1") {
        EXPECT_EQ(warning, "") << outcome.output;
      } else {
        EXPECT_NE(warning.find("not a vkindex pipeline cache file"), std::string::npos) << outcome.output;
      }
    }
    EXPECT_TRUE(isValidCacheFile(readFile(path), context().device()));
    EXPECT_EQ(filesBelow(cache_dir), std::vector<std::string>{name}) << "a temporary file was left behind";
  }
  {
    SCOPED_TRACE("a valid file: every worker loads it, none rewrites it");
    const std::vector<char> before = readFile(path);
    const ino_t inode = inodeOf(path);
    for (const WorkerOutcome& outcome : runConcurrently(cache_dir, logs)) {
      EXPECT_EQ(outcome.value("loaded"), "1") << outcome.output;
      EXPECT_EQ(outcome.value("warning"), "") << outcome.output;
    }
    EXPECT_EQ(readFile(path), before);
    EXPECT_EQ(inodeOf(path), inode) << "the file was replaced although nothing changed";
  }
  std::unique_ptr<Context> ctx = contextWithCache(cache_dir.string());
  ASSERT_TRUE(ctx);
  EXPECT_TRUE(ctx->pipelineCacheLoaded());
  expectGathersWork(*ctx);
}

TEST_F(PipelineCacheTest, HundredRunsLeaveTheFileAsTheFirstWroteIt) {
  constexpr int kRuns = 100;
  std::string path;
  std::vector<char> first;
  ino_t inode = 0;
  for (int run = 0; run < kRuns; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    {
      std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
      ASSERT_TRUE(ctx);
      EXPECT_EQ(ctx->pipelineCacheLoaded(), run > 0);
      EXPECT_EQ(loadWarning(*ctx), "");
      // Every tenth run compiles and checks pipelines (SwiftShader needs ~0.3 s a time: 100 would take most
      // of a minute); every run loads and saves the file, which is what grew it.
      if (run % 10 == 0 || run == kRuns - 1) expectGathersWork(*ctx);
      path = ctx->pipelineCachePath();
    }
    if (run == 0) {
      first = readFile(path);
      inode = inodeOf(path);
      ASSERT_TRUE(isValidCacheFile(first, context().device()));
      std::printf("cache file after the first run: %zu bytes\n", first.size());
      continue;
    }
    ASSERT_EQ(fs::file_size(path), first.size()) << "the file grew";
    ASSERT_EQ(inodeOf(path), inode) << "the file was rewritten";
  }
  EXPECT_EQ(readFile(path), first);
}

}  // namespace
}  // namespace vkindex::test
