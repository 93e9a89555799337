// The on-disk VkPipelineCache (ContextOptions::pipeline_cache_dir): written when a Context is destroyed
// and by savePipelineCache(), loaded by the next Context on the same device, never written when the
// directory is "" and harmless when the directory cannot be written. Damaged and hostile files are in
// pipeline_cache_damage_test.cpp, several processes in pipeline_cache_processes_test.cpp. Every test uses
// its own fresh temporary directory.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "gpu/pipeline_cache/pipeline_cache_fixture.hpp"

namespace vkindex::test {
namespace {

TEST_F(PipelineCacheTest, WrittenOnDestructionAndLoadedByTheNextContext) {
  std::string path;
  {
    std::unique_ptr<Context> a = contextWithCache(dir_.string());
    ASSERT_TRUE(a);
    EXPECT_FALSE(a->pipelineCacheLoaded()) << "the directory was empty";
    path = a->pipelineCachePath();
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(fs::path(path).parent_path(), dir_) << path;
    const std::string name = fs::path(path).filename().string();
    EXPECT_EQ(name.rfind("pipelines-", 0), 0u) << name;
    EXPECT_EQ(name.substr(name.size() - 4), ".bin") << name;
    expectGathersWork(*a);
    EXPECT_FALSE(fs::exists(path)) << "written before the context was destroyed or saved";
  }
  ASSERT_TRUE(fs::is_regular_file(path)) << path;
  EXPECT_GT(fs::file_size(path), 0u);
  const std::vector<char> written = readFile(path);
  EXPECT_TRUE(isValidCacheFile(written, context().device()));
  const std::vector<char> payload = payloadOf(written);
  EXPECT_EQ(filesBelow(dir_), std::vector<std::string>{fs::path(path).filename().string()})
      << "a temporary file was left behind";
  std::printf("cache file: %zu bytes\n", written.size());

  std::unique_ptr<Context> b = contextWithCache(dir_.string());
  ASSERT_TRUE(b);
  EXPECT_EQ(b->pipelineCachePath(), path);
  EXPECT_TRUE(b->pipelineCacheLoaded());
  EXPECT_EQ(loadWarning(*b), "");
  // Whether the bytes reached the driver shows only where the driver keeps them: SwiftShader returns
  // its own 32-byte header followed by the initial data verbatim (lavapipe returns just a header).
  if (isSwiftShader()) {
    const std::vector<char> held = cacheData(*b);
    ASSERT_EQ(held.size(), 32 + payload.size());
    EXPECT_TRUE(std::equal(payload.begin(), payload.end(), held.begin() + 32))
        << "SwiftShader's cache does not hold the file's driver data: it was not passed as pInitialData";
  }
  expectGathersWork(*b);
}

TEST_F(PipelineCacheTest, SavePipelineCacheWritesTheFileNow) {
  std::unique_ptr<Context> a = contextWithCache(dir_.string());
  ASSERT_TRUE(a);
  expectGathersWork(*a);
  const std::string path = a->pipelineCachePath();
  ASSERT_FALSE(fs::exists(path));
  VKINDEX_ASSERT_OK(a->savePipelineCache());
  ASSERT_TRUE(fs::is_regular_file(path)) << path;
  const std::vector<char> saved = readFile(path);
  EXPECT_TRUE(isValidCacheFile(saved, a->device()));
  EXPECT_EQ(payloadOf(saved), cacheData(*a)) << "the file does not hold the cache's data";
  EXPECT_EQ(filesBelow(dir_).size(), 1u) << "a temporary file was left behind";

  // Visible to another context while A is still alive.
  std::unique_ptr<Context> b = contextWithCache(dir_.string());
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->pipelineCacheLoaded());
  expectGathersWork(*b);
  // Saving again replaces the file (atomically): still exactly one file.
  VKINDEX_ASSERT_OK(a->savePipelineCache());
  VKINDEX_ASSERT_OK(b->savePipelineCache());
  a.reset();
  b.reset();
  EXPECT_EQ(filesBelow(dir_).size(), 1u);
  EXPECT_TRUE(isValidCacheFile(readFile(path), context().device()));
}

TEST_F(PipelineCacheTest, EmptyDirectoryKeepsTheCacheInMemory) {
  // Point every default location into the test directory: "" must use none of them. (Drivers and the
  // validation layer keep caches of their own under $XDG_CACHE_HOME; only vkindex's are checked.)
  const fs::path env_dir = dir_ / "env", xdg_dir = dir_ / "xdg" / "vkindex",
                 home_dir = dir_ / "home" / ".cache" / "vkindex";
  {
    ScopedEnv env("VKINDEX_PIPELINE_CACHE_DIR", env_dir.string());
    ScopedEnv xdg("XDG_CACHE_HOME", (dir_ / "xdg").string());
    ScopedEnv home("HOME", (dir_ / "home").string());
    std::unique_ptr<Context> ctx = contextWithCache("");
    ASSERT_TRUE(ctx);
    EXPECT_EQ(ctx->pipelineCachePath(), "");
    EXPECT_FALSE(ctx->pipelineCacheLoaded());
    expectGathersWork(*ctx);
    VKINDEX_ASSERT_OK(ctx->savePipelineCache());
  }
  for (const fs::path& unused : {env_dir, xdg_dir, home_dir}) {
    EXPECT_FALSE(fs::exists(unused)) << unused << " was created";
  }
  for (const std::string& file : filesBelow(dir_)) {
    EXPECT_EQ(fs::path(file).filename().string().rfind("pipelines-", 0), std::string::npos)
        << "a pipeline cache file was written: " << file;
  }
}

TEST_F(PipelineCacheTest, DefaultDirectoryComesFromTheEnvironment) {
  // pipeline_cache_dir = nullopt: $VKINDEX_PIPELINE_CACHE_DIR, else $XDG_CACHE_HOME/vkindex, else
  // $HOME/.cache/vkindex; the directories are created when the cache is saved.
  struct Case {
    std::optional<std::string> env_dir, xdg, home;
    fs::path expected_dir;
  };
  const Case cases[] = {
      {(dir_ / "env" / "nested").string(), (dir_ / "xdg").string(), (dir_ / "home").string(), dir_ / "env" / "nested"},
      {std::nullopt, (dir_ / "xdg").string(), (dir_ / "home").string(), dir_ / "xdg" / "vkindex"},
      {std::nullopt, std::nullopt, (dir_ / "home").string(), dir_ / "home" / ".cache" / "vkindex"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expected_dir.string());
    ScopedEnv env_dir("VKINDEX_PIPELINE_CACHE_DIR", c.env_dir);
    ScopedEnv xdg("XDG_CACHE_HOME", c.xdg);
    ScopedEnv home("HOME", c.home);
    ContextOptions options = testContextOptions();
    options.pipeline_cache_dir = std::nullopt;
    std::string path;
    {
      VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> ctx, Context::create(options));
      path = ctx->pipelineCachePath();
      EXPECT_EQ(fs::path(path).parent_path(), c.expected_dir) << path;
      EXPECT_FALSE(ctx->pipelineCacheLoaded());
      expectGathersWork(*ctx);
    }
    EXPECT_TRUE(fs::is_regular_file(path)) << path;
    EXPECT_TRUE(isValidCacheFile(readFile(path), context().device()));
  }
}

TEST_F(PipelineCacheTest, WithoutHomeTheCacheStaysInMemory) {
  // Android sets neither HOME nor XDG_CACHE_HOME: with no directory to go on, nothing is read or written.
  ScopedEnv env_dir("VKINDEX_PIPELINE_CACHE_DIR", std::nullopt);
  ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
  ScopedEnv home("HOME", std::nullopt);
  ContextOptions options = testContextOptions();
  options.pipeline_cache_dir = std::nullopt;
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> ctx, Context::create(options));
  EXPECT_EQ(ctx->pipelineCachePath(), "");
  EXPECT_FALSE(ctx->pipelineCacheLoaded());
  EXPECT_EQ(loadWarning(*ctx), "");
  expectGathersWork(*ctx);
  VKINDEX_ASSERT_OK(ctx->savePipelineCache());
}

TEST_F(PipelineCacheTest, UnwritableDirectoryBreaksNothing) {
  // A directory below a regular file can be neither created nor written (whoever runs the test).
  const fs::path blocker = dir_ / "not_a_directory";
  const std::vector<char> blocker_bytes = {'k', 'e', 'e', 'p'};
  ASSERT_NO_FATAL_FAILURE(writeFile(blocker, blocker_bytes));
  const fs::path cache_dir = blocker / "cache";
  {
    std::unique_ptr<Context> ctx = contextWithCache(cache_dir.string());
    ASSERT_TRUE(ctx);
    EXPECT_EQ(fs::path(ctx->pipelineCachePath()).parent_path(), cache_dir);
    EXPECT_FALSE(ctx->pipelineCacheLoaded());
    EXPECT_NE(loadWarning(*ctx).find(cache_dir.string()), std::string::npos) << loadWarning(*ctx);
    expectGathersWork(*ctx);
    Status saved = ctx->savePipelineCache();
    EXPECT_FALSE(saved.ok()) << "saving into " << cache_dir << " cannot succeed";
    EXPECT_NE(saved.message().find(cache_dir.string()), std::string::npos) << saved.message();
    expectGathersWork(*ctx);  // still usable after the failed save
  }                           // destruction saves again (best effort) and must not crash
  EXPECT_EQ(readFile(blocker), blocker_bytes);
  EXPECT_EQ(filesBelow(dir_), std::vector<std::string>{"not_a_directory"});
}

}  // namespace
}  // namespace vkindex::test
