#include "support/gpu_test.hpp"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "core/context_impl.hpp"
#include "support/random_tuning.hpp"

namespace vkindex::test {
namespace {

constexpr const char* kSyncValidationEnable = "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT";

// "+random_tuning": every test's contexts run with a tuning drawn at random (drawRandomTuning below).
bool& randomTuningMode() {
  static bool on = false;
  return on;
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// Turns on one "+mode" of VKINDEX_TEST_DRIVER. gpu_assisted and gpu_tuning (ContextOverrides::gpu_tuning:
// the kernels as a GPU gets them) go through the library's own switches, so they reach every context.
// sync goes through the Khronos layer's environment variable instead, so the library needs no option
// for it: the layer (1.3.239) reads VK_LAYER_ENABLES at every vkCreateInstance of the process, the
// embedding tests' own instances included (SyncValidationProbeTest shows it takes effect). An unknown
// mode aborts: a typo must not run the suite without its checks.
void enableTestMode(const std::string& mode) {
  if (mode == "gpu_assisted") {
    ::setenv("VKINDEX_GPU_ASSISTED_VALIDATION", "1", 1);
  } else if (mode == "gpu_tuning") {
    ::setenv("VKINDEX_GPU_TUNING", "1", 1);
  } else if (mode == "sync") {
    ::setenv("VK_LAYER_ENABLES", kSyncValidationEnable, 1);
  } else if (mode == "random_tuning") {
    randomTuningMode() = true;
  } else {
    std::fprintf(stderr,
                 "VKINDEX_TEST_DRIVER: unknown mode '+%s' (known: +gpu_assisted, +gpu_tuning, +random_tuning, +sync)\n",
                 mode.c_str());
    std::abort();
  }
}

// ctest passes VKINDEX_TEST_DRIVER = "<swiftshader|lavapipe>[+gpu_tuning][+gpu_assisted][+random_tuning][+sync]".
// Before the first Vulkan call, point the loader at that driver's ICD and switch on the modes asked for.
// Returns the driver name ("" when the variable is unset: the loader's own choice is used).
std::string applyTestDriverSelection() {
  static const std::string driver = [] {
    const char* value = std::getenv("VKINDEX_TEST_DRIVER");
    const std::string selection = value != nullptr ? value : "";
    size_t plus = selection.find('+');
    std::string name = selection.substr(0, plus);
    while (plus != std::string::npos) {
      const size_t next = selection.find('+', plus + 1);
      enableTestMode(selection.substr(plus + 1, next == std::string::npos ? std::string::npos : next - plus - 1));
      plus = next;
    }
    if (name == "swiftshader") ::setenv("VK_DRIVER_FILES", VKINDEX_SWIFTSHADER_ICD, 1);
    if (name == "lavapipe") ::setenv("VK_DRIVER_FILES", VKINDEX_LAVAPIPE_ICD, 1);
    return name;
  }();
  return driver;
}

}  // namespace

bool syncValidationRequested() {
  applyTestDriverSelection();
  const char* enables = std::getenv("VK_LAYER_ENABLES");
  return enables != nullptr && std::string(enables).find(kSyncValidationEnable) != std::string::npos;
}

namespace {

// --- Random tuning ("+random_tuning") ---------------------------------------------------------------------------

// The run's seed: VKINDEX_TEST_TUNING_SEED (decimal, or 0x hex), else a fixed one, so that a plain
// rerun of a failed test draws what it drew.
constexpr uint64_t kDefaultTuningSeed = 1;
uint64_t runTuningSeed() {
  const char* value = std::getenv("VKINDEX_TEST_TUNING_SEED");
  return value != nullptr && *value != '\0' ? std::strtoull(value, nullptr, 0) : kDefaultTuningSeed;
}

// FNV-1a: a hash of a test's name that every platform and run computes alike (std::hash need not).
uint64_t nameHash(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

// splitmix64's finalizer: spreads every input bit over the result.
uint64_t mixBits(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// "Suite.Test" (parameterized: "Prefix/Suite.Test/Param"), what --gtest_filter takes to rerun it.
std::string currentTestName() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return info == nullptr ? "(outside a test)" : std::string(info->test_suite_name()) + "." + info->name();
}

// The ordinal of the next context a test makes: 1, 2, ... per test (0 is the shared context), so each
// draws a tuning of its own and a rerun of the test alone draws the same ones.
uint32_t nextContextOrdinal(const std::string& test) {
  static std::string counted_test;
  static uint32_t made = 0;
  if (test != counted_test) {
    counted_test = test;
    made = 0;
  }
  return ++made;
}

// Sets a tuning drawn for `context` (the test's `ordinal`-th) over the values of `as_created` (its tuning
// as Context::create chose it) that ContextOverrides did not set: a test that overrides a value (a
// workgroup_size, min_walk_lines, gpu_tuning's every value) forces a path and keeps it. Every value
// drawn is marked an override. Writes the draw and how to repeat it on one line of stderr, and returns it.
std::string drawRandomTuning(Context& context, const plan::TuningChoice& as_created, uint32_t ordinal) {
  const std::string test = currentTestName();
  const uint64_t run_seed = runTuningSeed();
  const uint64_t seed = mixBits(nameHash(test) ^ mixBits(mixBits(run_seed) + ordinal));
  const plan::Tuning drawn = randomTuning(context.device(), seed);
  plan::TuningChoice choice = as_created;
  std::string kept;
  for (size_t i = 0; i < plan::kTuningValueCount; ++i) {
    const auto value = static_cast<plan::TuningValue>(i);
    if (as_created.source(value) == plan::TuningSource::kOverride) {
      kept += std::string(kept.empty() ? "" : ",") + plan::tuningValueName(value);
      continue;
    }
    plan::setTuningValue(choice.values, value, plan::tuningValue(drawn, value));
    choice.sources[i] = plan::TuningSource::kOverride;
  }
  plan::fitTuning(choice.values);
  implOf(context).tuning = choice;
  char seeds[96];
  std::snprintf(seeds, sizeof seeds, "VKINDEX_TEST_TUNING_SEED=%" PRIu64 ", context %" PRIu32 ", seed 0x%016" PRIx64,
                run_seed, ordinal, seed);
  const std::string line = "random tuning for " + test + " (" + seeds + "): " + describeTuning(choice.values) +
                           (kept.empty() ? "" : " (kept overrides: " + kept + ")");
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  return line;
}

// The shared context's tuning as created: each test draws over it anew.
plan::TuningChoice& sharedContextTuningAsCreated() {
  static plan::TuningChoice choice;
  return choice;
}

// A test must never pass on some other device than the one ctest selected.
void expectSelectedDriver(const DeviceInfo& device) {
  const std::string expected = applyTestDriverSelection();
  if (expected.empty()) return;
  std::string want = lowercase(expected);
  std::string have = lowercase(device.name + " " + device.driver_name);
  if (want == "lavapipe") want = "llvmpipe";
  ASSERT_NE(have.find(want), std::string::npos)
      << "ctest selected driver '" << expected << "' but the device is '" << device.name << "'";
}

std::unique_ptr<Context>& sharedContext() {
  static std::unique_ptr<Context> context;
  return context;
}

// Destroys the shared context when the tests are done, before static destructors run: drivers (e.g.
// SwiftShader) tear down their own globals at exit, after which destroying a device crashes.
class SharedContextEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { sharedContext().reset(); }
};

const ::testing::Environment* const kSharedContextEnvironment =
    ::testing::AddGlobalTestEnvironment(new SharedContextEnvironment);

}  // namespace

ContextOptions testContextOptions() {
  ContextOptions options;
  options.validation = true;
  options.pipeline_cache_dir = "";
  return options;
}

StatusOr<std::unique_ptr<Context>> makeTestContext(ContextOptions options) {
  applyTestDriverSelection();
  options.validation = true;
  if (!options.pipeline_cache_dir) options.pipeline_cache_dir = "";
  StatusOr<std::unique_ptr<Context>> created = Context::create(options);
  if (created.ok() && randomTuningMode()) {
    Context& context = *created.value();
    const plan::TuningChoice as_created = implOf(context).tuning;
    drawRandomTuning(context, as_created, nextContextOrdinal(currentTestName()));
  }
  return created;
}

StatusOr<std::unique_ptr<Context>> GpuTest::makeContext(ContextOptions options) {
  return makeTestContext(std::move(options));
}

StatusOr<std::unique_ptr<Context>> GpuTest::makeContextWithBindings(uint64_t max_binding_bytes) {
  ContextOptions options;
  options.overrides.max_binding_bytes = max_binding_bytes;
  return makeTestContext(std::move(options));
}

StatusOr<std::unique_ptr<Context>> GpuTest::makeContextThatNeverWalks() {
  ContextOptions options;
  options.overrides.min_walk_lines = UINT64_MAX;
  return makeTestContext(std::move(options));
}

StatusOr<Context*> GpuTest::contextWithModestBindings(std::unique_ptr<Context>& holder) {
  const uint64_t cap = uint64_t(128) << 20;
  if (context().device().max_storage_buffer_range <= 2 * cap) return &context();
  ContextOptions options;
  options.overrides.max_binding_bytes = cap;
  VKINDEX_ASSIGN_OR_RETURN(holder, makeContext(options));
  return holder.get();
}

int64_t GpuTest::rowsPastTheBindingLimit(Context& ctx, int64_t row_bytes) {
  return static_cast<int64_t>((ctx.device().max_storage_buffer_range + (8 << 20)) / static_cast<uint64_t>(row_bytes));
}

void GpuTest::dataPastTheBindingLimit(Rng& rng, DataType dtype, PastTheLimit& big) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(big.context, contextWithModestBindings(big.holder));
  const uint64_t limit = big.context->device().max_storage_buffer_range;
  big.rows = rowsPastTheBindingLimit(*big.context, big.row_elements * static_cast<int64_t>(elementSize(dtype)));
  big.data = randomTensor(rng, dtype, {big.rows, big.row_elements});
  ASSERT_GT(big.data.bytes.size(), limit);
}

Context& GpuTest::context() { return *sharedContext(); }

void GpuTest::SetUp() {
  applyTestDriverSelection();
  if (!sharedContext()) {
    StatusOr<std::unique_ptr<Context>> created = Context::create(testContextOptions());
    ASSERT_TRUE(created.ok()) << "no Vulkan context: " << created.status().toString();
    sharedContext() = std::move(created).value();
    sharedContextTuningAsCreated() = implOf(context()).tuning;
  }
  expectSelectedDriver(context().device());
  if (randomTuningMode()) {
    // A trace for the whole test: every failure in it names the draw.
    tuning_trace_ = std::make_unique<::testing::ScopedTrace>(
        __FILE__, __LINE__, drawRandomTuning(context(), sharedContextTuningAsCreated(), 0));
  }
  messages_before_ = context().validationMessageCount();
}

uint32_t GpuTest::newValidationMessages() const { return context().validationMessageCount() - messages_before_; }
void GpuTest::acceptValidationMessages() { messages_before_ = context().validationMessageCount(); }

void GpuTest::TearDown() {
  if (sharedContext()) {
    EXPECT_EQ(context().validationMessageCount(), messages_before_)
        << "validation reported: " << context().firstValidationMessage();
  }
  tuning_trace_.reset();
}

}  // namespace vkindex::test
