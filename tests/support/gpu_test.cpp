#include "support/gpu_test.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>

namespace vkindex::test {
namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// ctest passes VKINDEX_TEST_DRIVER = "<swiftshader|lavapipe>[+gpu_assisted]". Before the first Vulkan
// call, point the loader at that driver's ICD and switch on GPU-assisted validation when asked.
// Returns the driver name ("" when the variable is unset: the loader's own choice is used).
std::string applyTestDriverSelection() {
  static const std::string driver = [] {
    const char* value = std::getenv("VKINDEX_TEST_DRIVER");
    std::string selection = value != nullptr ? value : "";
    const size_t plus = selection.find('+');
    std::string name = selection.substr(0, plus);
    if (plus != std::string::npos && selection.substr(plus + 1) == "gpu_assisted") {
      ::setenv("VKINDEX_GPU_ASSISTED_VALIDATION", "1", 1);
    }
    if (name == "swiftshader") ::setenv("VK_DRIVER_FILES", VKINDEX_SWIFTSHADER_ICD, 1);
    if (name == "lavapipe") ::setenv("VK_DRIVER_FILES", VKINDEX_LAVAPIPE_ICD, 1);
    return name;
  }();
  return driver;
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

StatusOr<std::unique_ptr<Context>> GpuTest::makeContext(ContextOptions options) {
  applyTestDriverSelection();
  options.validation = true;
  if (!options.pipeline_cache_dir) options.pipeline_cache_dir = "";
  return Context::create(options);
}

Context& GpuTest::context() { return *sharedContext(); }

void GpuTest::SetUp() {
  applyTestDriverSelection();
  if (!sharedContext()) {
    StatusOr<std::unique_ptr<Context>> created = Context::create(testContextOptions());
    ASSERT_TRUE(created.ok()) << "no Vulkan context: " << created.status().toString();
    sharedContext() = std::move(created).value();
  }
  expectSelectedDriver(context().device());
  messages_before_ = context().validationMessageCount();
}

uint32_t GpuTest::newValidationMessages() const { return context().validationMessageCount() - messages_before_; }
void GpuTest::acceptValidationMessages() { messages_before_ = context().validationMessageCount(); }

void GpuTest::TearDown() {
  if (!sharedContext()) return;
  EXPECT_EQ(context().validationMessageCount(), messages_before_)
      << "validation reported: " << context().firstValidationMessage();
}

}  // namespace vkindex::test
