// The on-disk VkPipelineCache (ContextOptions::pipeline_cache_dir): written when a Context is destroyed
// and by savePipelineCache(), loaded by the next Context on the same device, ignored when the file is
// damaged or belongs to another device, never written when the directory is "" and harmless when the
// directory cannot be written. Every test uses its own fresh temporary directory.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "core/context_impl.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

namespace fs = std::filesystem;

std::vector<char> readFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

void writeFile(const fs::path& path, const std::vector<char>& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(file.good()) << "could not write " << path;
}

// Every regular file below `dir`, relative to it.
std::vector<std::string> filesBelow(const fs::path& dir) {
  std::vector<std::string> files;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(dir, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (it->is_regular_file()) files.push_back(fs::relative(it->path(), dir).string());
  }
  return files;
}

// Whether `bytes` starts with a VkPipelineCacheHeaderVersionOne describing `device`.
::testing::AssertionResult headerDescribes(const std::vector<char>& bytes, const DeviceInfo& device) {
  if (bytes.size() < 32) return ::testing::AssertionFailure() << "only " << bytes.size() << " bytes";
  uint32_t words[4];
  std::memcpy(words, bytes.data(), sizeof(words));
  if (words[0] < 32) return ::testing::AssertionFailure() << "header length " << words[0];
  if (words[1] != VK_PIPELINE_CACHE_HEADER_VERSION_ONE) {
    return ::testing::AssertionFailure() << "header version " << words[1];
  }
  if (words[2] != device.vendor_id || words[3] != device.device_id) {
    return ::testing::AssertionFailure() << "vendor/device " << words[2] << "/" << words[3];
  }
  if (std::memcmp(bytes.data() + 16, device.pipeline_cache_uuid.data(), 16) != 0) {
    return ::testing::AssertionFailure() << "pipelineCacheUUID differs";
  }
  return ::testing::AssertionSuccess();
}

// Sets an environment variable (or unsets it, for nullopt) for the lifetime of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class PipelineCacheTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (HasFatalFailure()) return;
    std::string pattern = (fs::path(::testing::TempDir()) / "vkindex_pipeline_cache_XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr) << "mkdtemp " << pattern << ": " << std::strerror(errno);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
    GpuTest::TearDown();
  }

  // A validated context caching pipelines in `dir` ("" for none).
  std::unique_ptr<Context> contextWithCache(const std::string& dir) {
    ContextOptions options;
    options.pipeline_cache_dir = dir;
    StatusOr<std::unique_ptr<Context>> ctx = makeContext(options);
    EXPECT_TRUE(ctx.ok()) << ctx.status().toString();
    return ctx.ok() ? std::move(ctx).value() : nullptr;
  }

  // Gathers that need several pipelines (index check, word and sub-word copies), compared byte for byte
  // with the reference; and no validation message on `ctx`.
  void expectGathersWork(Context& ctx) {
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

  // The bytes vkGetPipelineCacheData returns for `ctx`'s cache right now.
  static std::vector<char> cacheData(const Context& ctx) {
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

  static bool isSwiftShader() { return context().device().name.find("SwiftShader") != std::string::npos; }

  // Writes a valid cache file in dir_ (a context's, after a gather) and returns its path and bytes.
  void makeValidCacheFile(std::string* path, std::vector<char>* bytes) {
    std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
    ASSERT_TRUE(ctx);
    expectGathersWork(*ctx);
    *path = ctx->pipelineCachePath();
    ctx.reset();
    *bytes = readFile(*path);
    ASSERT_TRUE(headerDescribes(*bytes, context().device()));
  }

  fs::path dir_;
};

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
  EXPECT_TRUE(headerDescribes(written, context().device()));
  EXPECT_EQ(filesBelow(dir_), std::vector<std::string>{fs::path(path).filename().string()})
      << "a temporary file was left behind";
  std::printf("cache file: %zu bytes\n", written.size());

  std::unique_ptr<Context> b = contextWithCache(dir_.string());
  ASSERT_TRUE(b);
  EXPECT_EQ(b->pipelineCachePath(), path);
  EXPECT_TRUE(b->pipelineCacheLoaded());
  // Whether the bytes reached the driver shows only where the driver keeps them: SwiftShader returns
  // its own 32-byte header followed by the initial data verbatim (lavapipe returns just a header).
  if (isSwiftShader()) {
    const std::vector<char> held = cacheData(*b);
    ASSERT_EQ(held.size(), 32 + written.size());
    EXPECT_TRUE(std::equal(written.begin(), written.end(), held.begin() + 32))
        << "SwiftShader's cache does not hold the file's bytes: they were not passed as pInitialData";
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
  EXPECT_TRUE(headerDescribes(saved, a->device()));
  EXPECT_EQ(saved, cacheData(*a)) << "the file is not the cache's data";
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
  EXPECT_TRUE(headerDescribes(readFile(path), context().device()));
}

TEST_F(PipelineCacheTest, DamagedOrForeignFilesAreIgnored) {
  std::string path;
  std::vector<char> valid;
  ASSERT_NO_FATAL_FAILURE(makeValidCacheFile(&path, &valid));

  struct Damage {
    const char* what;
    std::vector<char> bytes;
  };
  std::vector<Damage> cases;
  {
    Rng rng(5);
    std::vector<char> noise(4096);
    for (char& c : noise) c = static_cast<char>(rng() & 0xFF);
    cases.push_back({"random bytes", noise});
  }
  {
    std::vector<char> bytes = valid;
    bytes[16 + 5] = static_cast<char>(bytes[16 + 5] ^ 0x5A);
    cases.push_back({"valid header with another pipelineCacheUUID", bytes});
  }
  {
    std::vector<char> bytes = valid;
    bytes[12] = static_cast<char>(bytes[12] ^ 0x01);
    cases.push_back({"another deviceID", bytes});
  }
  {
    std::vector<char> bytes = valid;
    bytes[8] = static_cast<char>(bytes[8] ^ 0x01);
    cases.push_back({"another vendorID", bytes});
  }
  {
    std::vector<char> bytes = valid;
    bytes[4] = 2;  // header version
    cases.push_back({"unknown header version", bytes});
  }
  {
    std::vector<char> bytes = valid;
    bytes[0] = 8;  // header length below the 32 bytes of VkPipelineCacheHeaderVersionOne
    bytes[1] = bytes[2] = bytes[3] = 0;
    cases.push_back({"header length 8", bytes});
  }
  cases.push_back({"truncated header", std::vector<char>(valid.begin(), valid.begin() + 20)});
  cases.push_back({"empty file", {}});

  for (const Damage& damage : cases) {
    SCOPED_TRACE(damage.what);
    ASSERT_NO_FATAL_FAILURE(writeFile(path, damage.bytes));
    std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
    ASSERT_TRUE(ctx);
    EXPECT_EQ(ctx->pipelineCachePath(), path);
    EXPECT_FALSE(ctx->pipelineCacheLoaded());
    expectGathersWork(*ctx);
    ctx.reset();
    // The damaged file was replaced by this context's own valid cache.
    EXPECT_TRUE(headerDescribes(readFile(path), context().device()));
  }

  // Control: the undamaged file is loaded (so the cases above were rejected for their damage).
  ASSERT_NO_FATAL_FAILURE(writeFile(path, valid));
  std::unique_ptr<Context> ctx = contextWithCache(dir_.string());
  ASSERT_TRUE(ctx);
  EXPECT_TRUE(ctx->pipelineCacheLoaded());
  expectGathersWork(*ctx);
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
    EXPECT_TRUE(headerDescribes(readFile(path), context().device()));
  }
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
