#include "gpu/pipeline_cache/pipeline_cache_fixture.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include "core/context_impl.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"
#include "vk/pipeline_cache_file.hpp"

namespace vkindex::test {

std::vector<char> readFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

void writeFile(const fs::path& path, const std::vector<char>& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(file.good()) << "could not write " << path;
}

std::vector<std::string> filesBelow(const fs::path& dir) {
  std::vector<std::string> files;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(dir, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (it->is_regular_file()) files.push_back(fs::relative(it->path(), dir).string());
  }
  return files;
}

::testing::AssertionResult headerDescribes(const std::vector<char>& payload, const DeviceInfo& device) {
  if (payload.size() < 32) return ::testing::AssertionFailure() << "only " << payload.size() << " bytes";
  uint32_t words[4];
  std::memcpy(words, payload.data(), sizeof(words));
  if (words[0] < 32) return ::testing::AssertionFailure() << "header length " << words[0];
  if (words[1] != VK_PIPELINE_CACHE_HEADER_VERSION_ONE) {
    return ::testing::AssertionFailure() << "header version " << words[1];
  }
  if (words[2] != device.vendor_id || words[3] != device.device_id) {
    return ::testing::AssertionFailure() << "vendor/device " << words[2] << "/" << words[3];
  }
  if (std::memcmp(payload.data() + 16, device.pipeline_cache_uuid.data(), 16) != 0) {
    return ::testing::AssertionFailure() << "pipelineCacheUUID differs";
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult isValidCacheFile(const std::vector<char>& file, const DeviceInfo& device) {
  StatusOr<vk::PipelineCachePayload> opened = vk::openPipelineCacheFile(file, device);
  if (!opened.ok()) return ::testing::AssertionFailure() << opened.status().message();
  return headerDescribes(payloadOf(file), device);
}

std::vector<char> payloadOf(const std::vector<char>& file) {
  if (file.size() < vk::kPipelineCacheFileHeaderBytes) return {};
  return std::vector<char>(file.begin() + vk::kPipelineCacheFileHeaderBytes, file.end());
}

std::vector<char> sealedFile(const std::vector<char>& payload) {
  std::vector<char> file(vk::kPipelineCacheFileHeaderBytes + payload.size());
  std::copy(payload.begin(), payload.end(), file.begin() + vk::kPipelineCacheFileHeaderBytes);
  vk::sealPipelineCacheFile(&file);
  return file;
}

std::string WorkerOutcome::value(const std::string& key) const {
  const std::string prefix = key + "=";
  for (size_t line = 0; line < output.size();) {
    size_t end = output.find('\n', line);
    if (end == std::string::npos) end = output.size();
    if (output.compare(line, prefix.size(), prefix) == 0)
      return output.substr(line + prefix.size(), end - line - prefix.size());
    line = end + 1;
  }
  return "";
}

pid_t startWorker(const fs::path& cache_dir, const fs::path& log) {
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) return -1;
  // Prepared before fork(): the child of a threaded process may only make async-signal-safe calls.
  const std::string worker = VKINDEX_PIPELINE_CACHE_WORKER, dir = cache_dir.string();
  char* const argv[] = {const_cast<char*>(worker.c_str()), const_cast<char*>(dir.c_str()), nullptr};
  const pid_t pid = ::fork();
  if (pid == 0) {
    // 4 GiB of heap: far beyond a gather's needs, so reading /dev/zero without bound ends there and
    // not in the machine's memory (address-space limits would trip over drivers' reservations).
    // Not under AddressSanitizer: it reserves terabytes of shadow memory at start-up, which the limit
    // refuses. Its allocator caps a single allocation itself, so an unbounded read still fails there.
#ifndef __SANITIZE_ADDRESS__
    const rlimit data_limit{rlim_t{4} << 30, rlim_t{4} << 30};
    ::setrlimit(RLIMIT_DATA, &data_limit);
#endif
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    ::execv(argv[0], argv);
    ::_exit(127);
  }
  ::close(log_fd);
  return pid;
}

WorkerOutcome finishWorker(pid_t pid, const fs::path& log, std::chrono::steady_clock::time_point deadline) {
  WorkerOutcome outcome;
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      outcome.finished = true;
      break;
    }
    if (done < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (outcome.finished && WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  const std::vector<char> output = readFile(log);
  outcome.output.assign(output.begin(), output.end());
  return outcome;
}

void PipelineCacheTest::SetUp() {
  GpuTest::SetUp();
  if (HasFatalFailure()) return;
  temp_dir_ = std::make_unique<ScopedTempDir>("vkindex_pipeline_cache_");
  dir_ = temp_dir_->path();
  ASSERT_FALSE(dir_.empty());
}

void PipelineCacheTest::TearDown() {
  temp_dir_.reset();
  GpuTest::TearDown();
}

std::unique_ptr<Context> PipelineCacheTest::contextWithCache(const std::string& dir) {
  ContextOptions options;
  options.pipeline_cache_dir = dir;
  StatusOr<std::unique_ptr<Context>> ctx = makeContext(options);
  EXPECT_TRUE(ctx.ok()) << ctx.status().toString();
  return ctx.ok() ? std::move(ctx).value() : nullptr;
}

void PipelineCacheTest::expectGathersWork(Context& ctx) {
  Rng rng(21);
  const HostTensor inputs[][2] = {
      {randomTensor(rng, DataType::kFloat32, {13, 6}), indexTensor(DataType::kInt64, {4}, {12, -13, 0, 5})},
      {randomTensor(rng, DataType::kUInt8, {9, 7}), indexTensor(DataType::kInt32, {5}, {8, -9, 3, 3, 0})},
  };
  for (const auto& [data, indices] : inputs) {
    SCOPED_TRACE("data " + describe(data) + ", indices " + describe(indices));
    ReferenceResult expected = referenceGather(data, indices, 0);
    ASSERT_FALSE(expected.bad_index_position);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(ctx, data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(ctx, indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, gather(ctx, data_tensor, index_tensor, 0));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
    EXPECT_EQ(actual.shape, expected.output.shape);
    EXPECT_TRUE(actual.bytes == expected.output.bytes) << "output bytes differ from the reference";
  }
  // A bad index too (the status path), so that errors are not mistaken for cache trouble.
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(ctx, inputs[0][0]));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor bad, toDevice(ctx, indexTensor(DataType::kInt64, {2}, {0, 13})));
  StatusOr<Tensor> failed = gather(ctx, data_tensor, bad, 0);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(),
            "Gather: indices[1] = 13 is out of range for axis 0 of size 13 (allowed [-13, 12])");
  EXPECT_EQ(ctx.validationMessageCount(), 0u) << ctx.firstValidationMessage();
}

std::vector<char> PipelineCacheTest::cacheData(const Context& ctx) {
  const Context::Impl& impl = implOf(ctx);
  const VolkDeviceTable& fn = impl.device->fn();
  size_t size = 0;
  EXPECT_EQ(fn.vkGetPipelineCacheData(impl.device->handle(), impl.pipeline_cache->handle(), &size, nullptr),
            VK_SUCCESS);
  std::vector<char> data(size);
  EXPECT_EQ(fn.vkGetPipelineCacheData(impl.device->handle(), impl.pipeline_cache->handle(), &size, data.data()),
            VK_SUCCESS);
  data.resize(size);
  return data;
}

std::string PipelineCacheTest::loadWarning(const Context& ctx) { return implOf(ctx).pipeline_cache->loadWarning(); }

bool PipelineCacheTest::isSwiftShader() { return context().device().name.find("SwiftShader") != std::string::npos; }

std::string PipelineCacheTest::cacheFilePath() {
  std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
  if (!ctx) return "";
  std::string path = ctx->pipelineCachePath();
  ctx.reset();
  std::error_code ignored;
  fs::remove(path, ignored);
  return path;
}

void PipelineCacheTest::makeValidCacheFile(std::string* path, std::vector<char>* bytes) {
  std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
  ASSERT_TRUE(ctx);
  expectGathersWork(*ctx);
  *path = ctx->pipelineCachePath();
  ctx.reset();
  *bytes = readFile(*path);
  ASSERT_TRUE(isValidCacheFile(*bytes, context().device()));
}

}  // namespace vkindex::test
