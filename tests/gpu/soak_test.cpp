// A bounded soak: 8 threads, each with a Context of its own, and one Context shared by all of them
// in turn (a mutex around each call: the submitting calls of one Context must come from one thread at
// a time, include/vkindex/context.hpp). For VKINDEX_SOAK_SECONDS (default 60) every thread runs random
// small operators (soak_cases.hpp), one call in four on the shared Context, and compares each output
// with the CPU reference byte for byte. It passes with no mismatch, no error, no validation message on
// any Context, and no growth of the process's resident memory between the end of the warm-up and the
// end.
//
// Each thread draws its calls from a palette of a few random kinds (operator, data type, index type,
// reduction), shapes and values new on every call. Every new kind makes a Context compile pipelines it
// keeps for its life: growth, but not a leak, and with every kind open to every thread the soak would
// spend its minute compiling (hundreds of variants times 9 Contexts on lavapipe). So the warm-up runs
// each thread's palette once on its own and once on the shared Context, then kWarmUpCalls calls more,
// and lasts at least the first 20% of VKINDEX_SOAK_SECONDS; the measured phase after it is always the
// remaining 80%.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <thread>

#include "soak_cases.hpp"
#include "support/gpu_test.hpp"

namespace vkindex::test {
namespace {

constexpr int kThreads = 8;
constexpr int kSharedEvery = 4;  // every 4th call of a thread goes to the shared Context
constexpr int kPaletteSize = 3;  // kinds per thread: 24 in all, every one on the shared Context
// Calls per thread after its palette's first round before it counts as warm: the shapes of a kind
// still reach kernel variants of their own (measured on lavapipe: resident memory levels off within
// a few hundred calls per thread, then stays within ~3 MiB over 40,000 calls).
constexpr uint64_t kWarmUpCalls = 500;
constexpr double kDefaultSeconds = 60;

// Allowed VmRSS growth after warm-up: 16 MiB. Some growth is not a leak: a shape can still pick a
// kernel variant the warm-up's call of that kind did not (compiled then and kept, lavapipe's machine
// code is ~100 KiB a pipeline), and malloc's per-thread arenas settle over a while. A leak of 1 KiB per
// call exceeds it: lavapipe runs ~55,000 calls after warm-up in the minute, ~18,000 in ctest's 20 s.
constexpr long kRssToleranceKiB = 16 * 1024;

double soakSeconds() {
  const char* value = std::getenv("VKINDEX_SOAK_SECONDS");
  return value != nullptr ? std::atof(value) : kDefaultSeconds;
}

// The process's resident set size in KiB (VmRSS of /proc/self/status), or -1.
long residentKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

// What every thread adds to; the first failure of each kind is kept for the report.
struct Tally {
  std::atomic<uint64_t> calls{0};
  std::atomic<uint64_t> shared_calls{0};
  std::atomic<uint64_t> unsupported{0};
  std::atomic<uint64_t> mismatches{0};
  std::atomic<uint64_t> errors{0};
  std::mutex mutex;
  std::string first_failure;

  void count(SoakOutcome outcome, const SoakCase& soak_case, const std::string& detail) {
    if (outcome == SoakOutcome::kUnsupported) ++unsupported;
    if (outcome == SoakOutcome::kMismatch) ++mismatches;
    if (outcome == SoakOutcome::kError) ++errors;
    if (outcome == SoakOutcome::kMismatch || outcome == SoakOutcome::kError) {
      std::lock_guard<std::mutex> lock(mutex);
      if (first_failure.empty()) first_failure = soak_case.description + ": " + detail;
    }
  }
};

class SoakTest : public GpuTest {};

TEST_F(SoakTest, ThreadsWithOwnAndSharedContextsStayExactCleanAndBounded) {
  const double seconds = soakSeconds();
  ASSERT_GT(seconds, 0) << "VKINDEX_SOAK_SECONDS must be a positive number of seconds";
  std::vector<std::unique_ptr<Context>> own(kThreads);
  for (std::unique_ptr<Context>& context : own) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(context, makeContext(ContextOptions{}));
  }
  Context& shared = context();
  std::mutex shared_mutex;
  Tally tally;
  std::atomic<bool> stop{false};

  std::atomic<int> warmed_threads{0};

  // Runs one case of `kind`, on the shared Context (under its mutex) or on the thread's own.
  auto run = [&](Rng& rng, const SoakKind& kind, Context& context, bool on_shared) {
    const SoakCase soak_case = randomSoakCase(rng, kind);
    std::string detail;
    SoakOutcome outcome;
    if (on_shared) {
      std::lock_guard<std::mutex> lock(shared_mutex);
      outcome = runSoakCase(shared, soak_case, detail);
      ++tally.shared_calls;
    } else {
      outcome = runSoakCase(context, soak_case, detail);
    }
    ++tally.calls;
    tally.count(outcome, soak_case, detail);
  };
  auto work = [&](int thread) {
    Rng rng(0x50a6 + static_cast<uint64_t>(thread));  // fixed seeds: each thread draws the same sequence
    Context& own_context = *own[static_cast<size_t>(thread)];
    std::vector<SoakKind> palette(kPaletteSize);
    for (SoakKind& kind : palette) kind = randomSoakKind(rng);
    for (const SoakKind& kind : palette) {
      run(rng, kind, own_context, false);
      run(rng, kind, own_context, true);
    }
    for (uint64_t n = 1; !stop.load(); ++n) {
      run(rng, palette[rng() % palette.size()], own_context, n % kSharedEvery == 0);
      if (n == kWarmUpCalls) ++warmed_threads;
    }
  };
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int thread = 0; thread < kThreads; ++thread) threads.emplace_back(work, thread);
  std::this_thread::sleep_until(start + std::chrono::duration<double>(0.2 * seconds));
  while (warmed_threads.load() < kThreads) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto warm = std::chrono::steady_clock::now();
  const long warm_kib = residentKiB();
  const uint64_t warm_calls = tally.calls.load();
  std::this_thread::sleep_until(warm + std::chrono::duration<double>(0.8 * seconds));
  stop = true;
  for (std::thread& thread : threads) thread.join();
  const long end_kib = residentKiB();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double warm_up = std::chrono::duration<double>(warm - start).count();

  uint32_t messages = shared.validationMessageCount();
  for (const std::unique_ptr<Context>& context : own) messages += context->validationMessageCount();
  std::printf(
      "soak: %.1f s (warm-up %.1f s), %d threads: %llu calls (%llu on the shared Context, %llu after warm-up), %llu "
      "unsupported, "
      "%llu mismatches, %llu errors, %u validation messages; VmRSS %ld KiB after warm-up, %ld KiB at the end\n",
      elapsed, warm_up, kThreads, static_cast<unsigned long long>(tally.calls.load()),
      static_cast<unsigned long long>(tally.shared_calls.load()),
      static_cast<unsigned long long>(tally.calls.load() - warm_calls),
      static_cast<unsigned long long>(tally.unsupported.load()),
      static_cast<unsigned long long>(tally.mismatches.load()), static_cast<unsigned long long>(tally.errors.load()),
      messages, warm_kib, end_kib);

  EXPECT_GT(tally.calls.load() - warm_calls, 0u) << "no call finished after warm-up";
  EXPECT_EQ(tally.mismatches.load(), 0u) << tally.first_failure;
  EXPECT_EQ(tally.errors.load(), 0u) << tally.first_failure;
  for (const std::unique_ptr<Context>& context : own) {
    EXPECT_EQ(context->validationMessageCount(), 0u) << context->firstValidationMessage();
  }
  ASSERT_GT(warm_kib, 0) << "no VmRSS in /proc/self/status";
  EXPECT_LE(end_kib - warm_kib, kRssToleranceKiB) << "resident memory grew after warm-up";
}

}  // namespace
}  // namespace vkindex::test
