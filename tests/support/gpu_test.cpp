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

// ctest names the driver it selected; a test must never pass on some other device by accident.
void expectSelectedDriver(const DeviceInfo& device) {
  const char* expected = std::getenv("VKINDEX_TEST_DRIVER");
  if (expected == nullptr || *expected == '\0') return;
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

}  // namespace

ContextOptions testContextOptions() {
  ContextOptions options;
  options.validation = true;
  options.pipeline_cache_dir = "";
  return options;
}

StatusOr<std::unique_ptr<Context>> GpuTest::makeContext(ContextOptions options) {
  options.validation = true;
  if (!options.pipeline_cache_dir) options.pipeline_cache_dir = "";
  return Context::create(options);
}

Context& GpuTest::context() { return *sharedContext(); }

void GpuTest::SetUp() {
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
