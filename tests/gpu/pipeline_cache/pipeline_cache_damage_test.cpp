// What a damaged or hostile cache path costs: at most a cold cache and a warning, never an abort, a hang
// or unbounded memory. Each case checks that a context is created and works, that the warning names the
// problem, and that the next save leaves a valid file where that can be done. A FIFO and a link to
// /dev/zero go to a worker process with a time limit, so a regression fails rather than hangs the test.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/pipeline_cache/pipeline_cache_fixture.hpp"
#include "support/random_tensors.hpp"

namespace vkindex::test {
namespace {

// A worker needs a few seconds on SwiftShader; this is only the guard against a hang.
constexpr auto kWorkerTimeLimit = std::chrono::seconds(120);

// Driver data that passes vkindex's checks: the device's Vulkan header, then `body_bytes` of filler.
std::vector<char> plausiblePayload(const std::vector<char>& valid_payload, size_t body_bytes) {
  std::vector<char> payload(valid_payload.begin(), valid_payload.begin() + 32);
  for (size_t i = 0; i < body_bytes; ++i) payload.push_back(static_cast<char>(i * 7));
  return payload;
}

class PipelineCacheDamageTest : public PipelineCacheTest {
 protected:
  // The file a context leaves at `path` must be a regular file (not a link, not a FIFO) and valid.
  static void expectReplacedByValidFile(const std::string& path) {
    struct stat info {};
    ASSERT_EQ(::lstat(path.c_str(), &info), 0) << path;
    EXPECT_TRUE(S_ISREG(info.st_mode)) << path << " was not replaced by a regular file";
    EXPECT_TRUE(isValidCacheFile(readFile(path), context().device()));
  }

  // Puts `bytes` at `path`, then expects a fresh context to ignore them with a warning containing
  // `reason`, to work, and to leave a valid file behind.
  void expectIgnored(const std::string& path, const std::vector<char>& bytes, const std::string& reason) {
    ASSERT_NO_FATAL_FAILURE(writeFile(path, bytes));
    {
      std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
      ASSERT_TRUE(ctx);
      EXPECT_EQ(ctx->pipelineCachePath(), path);
      EXPECT_FALSE(ctx->pipelineCacheLoaded());
      EXPECT_NE(loadWarning(*ctx).find(reason), std::string::npos) << "warning: " << loadWarning(*ctx);
      expectGathersWork(*ctx);
    }
    expectReplacedByValidFile(path);
  }

  // Runs a worker on dir_ and expects it to finish in time, working, with a warning containing `reason`.
  void expectWorkerWarns(const std::string& reason) {
    const pid_t pid = startWorker(dir_, dir_ / "worker.log");
    ASSERT_GT(pid, 0);
    const WorkerOutcome outcome =
        finishWorker(pid, dir_ / "worker.log", std::chrono::steady_clock::now() + kWorkerTimeLimit);
    std::error_code ignored;
    fs::remove(dir_ / "worker.log", ignored);
    ASSERT_TRUE(outcome.finished) << "still running after the time limit (killed):\n" << outcome.output;
    ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
    EXPECT_EQ(outcome.value("loaded"), "0");
    EXPECT_NE(outcome.value("warning").find(reason), std::string::npos) << outcome.output;
  }
};

TEST_F(PipelineCacheDamageTest, DamagedFilesAreIgnored) {
  std::string path;
  std::vector<char> valid;
  ASSERT_NO_FATAL_FAILURE(makeValidCacheFile(&path, &valid));
  const std::vector<char> long_file = sealedFile(plausiblePayload(payloadOf(valid), 4096));
  Rng rng(5);
  std::vector<char> noise(4096);
  for (char& c : noise) c = static_cast<char>(rng() & 0xFF);

  struct Damage {
    const char* what;
    std::vector<char> bytes;
    const char* reason;  // in the warning
  };
  std::vector<Damage> cases = {
      {"random bytes", noise, "not a vkindex pipeline cache file"},
      {"empty file", {}, "only 0 bytes"},
      {"truncated header", std::vector<char>(valid.begin(), valid.begin() + 20), "only 20 bytes"},
      {"truncated body", std::vector<char>(long_file.begin(), long_file.begin() + 32 + 2048), "truncated"},
      {"padded body", long_file, "truncated or padded"},
      {"a flipped bit in the body", long_file, "checksum"},
      {"the driver data alone (no vkindex header, as files were before)", payloadOf(valid), "not a vkindex"},
      {"another format version", valid, "format version"},
  };
  cases[4].bytes.push_back('x');
  cases[5].bytes[32 + 1000] = static_cast<char>(cases[5].bytes[32 + 1000] ^ 0x10);
  cases[7].bytes[8] = 2;

  for (const Damage& damage : cases) {
    SCOPED_TRACE(damage.what);
    expectIgnored(path, damage.bytes, damage.reason);
  }
}

TEST_F(PipelineCacheDamageTest, ForeignVulkanHeadersAreIgnored) {
  // Correct size and checksum, so these reach the check of the driver data's own Vulkan header.
  std::string path;
  std::vector<char> valid;
  ASSERT_NO_FATAL_FAILURE(makeValidCacheFile(&path, &valid));
  const std::vector<char> payload = plausiblePayload(payloadOf(valid), 64);

  struct Foreign {
    const char* what;
    size_t byte;  // in the Vulkan header
    char value;
    const char* reason;
  };
  const Foreign cases[] = {
      {"another pipelineCacheUUID", 16 + 5, static_cast<char>(payload[16 + 5] ^ 0x5A), "pipelineCacheUUID"},
      {"another deviceID", 12, static_cast<char>(payload[12] ^ 0x01), "another device"},
      {"another vendorID", 8, static_cast<char>(payload[8] ^ 0x01), "another device"},
      {"unknown header version", 4, 2, "header version"},
      {"header length 8", 0, 8, "claims 8 bytes"},
      {"header length beyond the data", 1, 1, "claims"},
  };
  for (const Foreign& foreign : cases) {
    SCOPED_TRACE(foreign.what);
    std::vector<char> bytes = payload;
    bytes[foreign.byte] = foreign.value;
    expectIgnored(path, sealedFile(bytes), foreign.reason);
  }

  // Control: the same file with the device's header is loaded, so the cases above failed for their header.
  ASSERT_NO_FATAL_FAILURE(writeFile(path, valid));
  std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
  ASSERT_TRUE(ctx);
  EXPECT_TRUE(ctx->pipelineCacheLoaded());
  EXPECT_EQ(loadWarning(*ctx), "");
  expectGathersWork(*ctx);
}

TEST_F(PipelineCacheDamageTest, DirectoryAtTheFilesPath) {
  // This aborted the process once (std::ifstream threw under -fno-exceptions).
  const std::string path = cacheFilePath();
  ASSERT_EQ(::mkdir(path.c_str(), 0755), 0) << path;
  ASSERT_NO_FATAL_FAILURE(writeFile(fs::path(path) / "keep", {'k'}));
  std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
  ASSERT_TRUE(ctx);
  EXPECT_FALSE(ctx->pipelineCacheLoaded());
  EXPECT_NE(loadWarning(*ctx).find("is a directory"), std::string::npos) << loadWarning(*ctx);
  expectGathersWork(*ctx);
  const Status saved = ctx->savePipelineCache();
  EXPECT_FALSE(saved.ok()) << "a directory cannot be replaced by a file";
  EXPECT_NE(saved.message().find(path), std::string::npos) << saved.message();
  ctx.reset();  // saves again (best effort), with a warning on stderr
  EXPECT_TRUE(fs::is_directory(path));
  const std::string keep = fs::path(path).filename().string() + "/keep";
  EXPECT_EQ(filesBelow(dir_), std::vector<std::string>{keep}) << "a temporary file was left behind";
}

TEST_F(PipelineCacheDamageTest, FifoAtTheFilesPathDoesNotBlock) {
  // Opening a FIFO for reading waits for a writer: this hung every context creation once.
  const std::string path = cacheFilePath();
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0) << path;
  ASSERT_NO_FATAL_FAILURE(expectWorkerWarns("is a FIFO"));
  expectReplacedByValidFile(path);
}

TEST_F(PipelineCacheDamageTest, LinkToDevZeroIsNotFollowed) {
  // Followed, this read zeros until memory ran out.
  const std::string path = cacheFilePath();
  ASSERT_EQ(::symlink("/dev/zero", path.c_str()), 0) << path;
  ASSERT_NO_FATAL_FAILURE(expectWorkerWarns("symbolic link"));
  expectReplacedByValidFile(path);
}

TEST_F(PipelineCacheDamageTest, LinkToAValidFileIsNotFollowedOrWrittenThrough) {
  std::string path;
  std::vector<char> valid;
  ASSERT_NO_FATAL_FAILURE(makeValidCacheFile(&path, &valid));
  const fs::path target = dir_ / "elsewhere.bin";
  fs::rename(path, target);
  ASSERT_EQ(::symlink(target.c_str(), path.c_str()), 0) << path;
  {
    std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
    ASSERT_TRUE(ctx);
    EXPECT_FALSE(ctx->pipelineCacheLoaded());
    EXPECT_NE(loadWarning(*ctx).find("symbolic link"), std::string::npos) << loadWarning(*ctx);
    expectGathersWork(*ctx);
  }
  expectReplacedByValidFile(path);
  EXPECT_EQ(readFile(target), valid) << "the link's target was written through";
}

TEST_F(PipelineCacheDamageTest, OversizedFileIsNotRead) {
  // 256 MiB behind a valid header, sparse (ftruncate), so the test costs no disk: once loaded and
  // rewritten on every run (2.7 s, 557 MB).
  std::string path;
  std::vector<char> valid;
  ASSERT_NO_FATAL_FAILURE(makeValidCacheFile(&path, &valid));
  constexpr off_t kFileBytes = off_t{256} << 20;
  {
    std::vector<char> header = sealedFile(payloadOf(valid));
    header.resize(32 + 32);  // vkindex's header, then the device's Vulkan header
    const uint64_t payload_bytes = static_cast<uint64_t>(kFileBytes) - 32;
    std::memcpy(header.data() + 16, &payload_bytes, sizeof(payload_bytes));  // what it claims to hold
    ASSERT_NO_FATAL_FAILURE(writeFile(path, header));
    ASSERT_EQ(::truncate(path.c_str(), kFileBytes), 0) << path;
  }
  {
    std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
    ASSERT_TRUE(ctx);
    EXPECT_FALSE(ctx->pipelineCacheLoaded());
    EXPECT_NE(loadWarning(*ctx).find("268435456 bytes, more than the 67108864"), std::string::npos)
        << loadWarning(*ctx);
    expectGathersWork(*ctx);
  }
  expectReplacedByValidFile(path);
  EXPECT_LT(fs::file_size(path), 4096u);
}

}  // namespace
}  // namespace vkindex::test
