// Base fixture of every GPU test: one Context per test process on the driver ctest selected
// (VK_DRIVER_FILES), with the Khronos validation layer on. A test fails if validation reported
// anything while it ran. GPU-assisted validation is added when VKINDEX_GPU_ASSISTED_VALIDATION=1,
// synchronization validation when VK_LAYER_ENABLES names it (VKINDEX_TEST_DRIVER "<driver>+sync").
// Under "<driver>+random_tuning" every test runs with a tuning drawn at random from the device's legal
// ranges (support/random_tuning.hpp): the shared context's drawn anew in each test's SetUp, and each
// context makeTestContext makes drawn when made. Values a test set through ContextOverrides stay as set
// (gpu_tuning sets them all: "+gpu_tuning" with "+random_tuning" draws nothing). The seed hashes the
// test's full name with VKINDEX_TEST_TUNING_SEED (default 1), so rerunning one test with the same
// variable repeats its draws; each draw is printed on stderr, and the shared context's is a trace on
// every failure of the test.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "support/host_tensor.hpp"
#include "support/random_tensors.hpp"

namespace vkindex::test {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // The shared context (created on first use).
  static Context& context();
  // Creates an extra context with the same validation settings and `options` on top.
  static StatusOr<std::unique_ptr<Context>> makeContext(ContextOptions options);
  // Extra contexts for the paths a test forces: bindings of at most `max_binding_bytes`
  // (ContextOverrides::max_binding_bytes: tensors split into windows), or scatters that never walk
  // (ContextOverrides::min_walk_lines: winner tables for none, the fold by owner for reductions).
  static StatusOr<std::unique_ptr<Context>> makeContextWithBindings(uint64_t max_binding_bytes);
  static StatusOr<std::unique_ptr<Context>> makeContextThatNeverWalks();
  // For tests of tensors just past one storage-buffer binding: the shared context where the device's
  // own maxStorageBufferRange is at most 256 MiB (lavapipe: 128 MiB), else a new one capped at 128 MiB
  // (SwiftShader's 1 GiB would cost too much memory), kept in `holder`.
  static StatusOr<Context*> contextWithModestBindings(std::unique_ptr<Context>& holder);
  // Rows of `row_bytes` that make a tensor 8 MiB larger than `ctx`'s binding limit.
  static int64_t rowsPastTheBindingLimit(Context& ctx, int64_t row_bytes);
  // Data past the binding limit: contextWithModestBindings, and `rows` random rows of `row_elements`
  // (1024) elements of the given type from `rng`, 8 MiB more than that context's limit.
  struct PastTheLimit {
    std::unique_ptr<Context> holder;
    Context* context = nullptr;
    int64_t rows = 0, row_elements = 1024;
    HostTensor data;
  };
  static void dataPastTheBindingLimit(Rng& rng, DataType dtype, PastTheLimit& big);
  // Validation messages seen since this test started; accepting them makes TearDown ignore them
  // (only for tests that provoke validation messages on purpose).
  uint32_t newValidationMessages() const;
  void acceptValidationMessages();

 private:
  uint32_t messages_before_ = 0;
  // Under random tuning: the shared context's draw, traced from SetUp to TearDown.
  std::unique_ptr<::testing::ScopedTrace> tuning_trace_;
};

// Options every test context uses: validation on, no on-disk pipeline cache (tests stay hermetic).
ContextOptions testContextOptions();

// GpuTest::makeContext, for helpers outside a fixture.
StatusOr<std::unique_ptr<Context>> makeTestContext(ContextOptions options);

// Whether this process runs synchronization validation ("+sync" in VKINDEX_TEST_DRIVER, or
// VK_LAYER_ENABLES set by hand): the probe that shows it reports hazards runs only then.
bool syncValidationRequested();

}  // namespace vkindex::test

// Asserts a StatusOr is ok (printing the status otherwise) and yields its value.
#define VKINDEX_ASSERT_OK_AND_ASSIGN(lhs, expr) \
  VKINDEX_ASSERT_OK_AND_ASSIGN_IMPL(VKINDEX_CONCAT(test_statusor_, __LINE__), lhs, expr)
#define VKINDEX_ASSERT_OK_AND_ASSIGN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                      \
  ASSERT_TRUE(tmp.ok()) << tmp.status().toString();       \
  lhs = std::move(tmp).value()
#define VKINDEX_ASSERT_OK(expr)                                \
  do {                                                         \
    ::vkindex::Status test_status_ = (expr);                   \
    ASSERT_TRUE(test_status_.ok()) << test_status_.toString(); \
  } while (0)
