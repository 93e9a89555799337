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
// lasts at least the first 20% of VKINDEX_SOAK_SECONDS, and then goes on until resident memory levels
// off (or kLevelDeadlineSeconds, or half the time if longer, has gone); the measured phase after it is
// always 80% of VKINDEX_SOAK_SECONDS.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <thread>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "soak_cases.hpp"
#include "support/gpu_test.hpp"

namespace vkindex::test {
namespace {

constexpr int kThreads = 8;
constexpr int kSharedEvery = 4;  // every 4th call of a thread goes to the shared Context
constexpr int kPaletteSize = 3;  // kinds per thread: 24 in all, every one on the shared Context
// Calls per thread after its palette's first round before it counts as warm: the shapes of a kind
// still reach kernel variants of their own (lavapipe: the 9 Contexts compile ~330 pipelines in the
// first 8 s of the minute, and a handful more over the rest).
constexpr uint64_t kWarmUpCalls = 500;
constexpr double kDefaultSeconds = 60;

// Warm also means resident memory has levelled off: it grew at most kLevelKiB over the last
// kLevelWindow, sampled every kSampleInterval. Measured on lavapipe (with the fixed mmap threshold
// below): pipelines and allocator pools add ~12 MiB between second 8 and 12 of the minute, then
// under 1 MiB over the 28 s after.
constexpr long kLevelKiB = 1024;
constexpr std::chrono::milliseconds kSampleInterval{250};
constexpr std::chrono::milliseconds kLevelWindow{2000};
// How long the warm-up may wait for that, at least: on a machine where lavapipe's kernels ran a fifth
// as fast, a 40 s soak levelled off at 13 s, and ctest's 20 s soaks, cut off at half their time (10 s),
// kept growing in their measured phases: +15.8 and +19.3 MiB there, +7.4 after the 13 s warm-up.
constexpr double kLevelDeadlineSeconds = 20;

// Allowed VmRSS growth after warm-up: 16 MiB. Some growth is not a leak: a shape can still pick a
// kernel variant the warm-up's call of that kind did not (compiled then and kept, lavapipe's machine
// code is ~100 KiB a pipeline), and malloc's per-thread arenas settle over a while (lavapipe: +4 to
// +7 MiB). A leak of 1 KiB per call exceeds it: lavapipe runs ~75,000 calls after warm-up in the
// minute, ~25,000 in ctest's 20 s (a 1 KiB leak per call added there: +22 MiB, and it fails).
constexpr long kRssToleranceKiB = 16 * 1024;

// glibc raises its mmap threshold (up to 32 MiB) each time a mapped block is freed, so later blocks of
// that size come from the heap instead, where freeing them rarely returns pages: measured on lavapipe,
// resident memory then crept up by ~200 bytes a call for the whole minute (+18 MiB), with no pipeline
// created and nothing leaked, and it levelled off with the threshold held at glibc's default of
// 128 KiB. Holding it keeps that allocator policy out of a leak check; leaked blocks stay resident
// either way.
void holdMmapThreshold() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

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

// Samples VmRSS until it grew at most kLevelKiB over kLevelWindow, or until `deadline`; says which.
bool waitForLevelResidentMemory(std::chrono::steady_clock::time_point deadline) {
  std::deque<long> samples;  // the last kLevelWindow / kSampleInterval + 1 samples, oldest first
  const size_t window_samples = static_cast<size_t>(kLevelWindow / kSampleInterval) + 1;
  while (std::chrono::steady_clock::now() < deadline) {
    samples.push_back(residentKiB());
    if (samples.size() > window_samples) samples.pop_front();
    if (samples.size() == window_samples && samples.back() - samples.front() <= kLevelKiB) return true;
    std::this_thread::sleep_for(kSampleInterval);
  }
  return false;
}

class SoakTest : public GpuTest {};

TEST_F(SoakTest, ThreadsWithOwnAndSharedContextsStayExactCleanAndBounded) {
  const double seconds = soakSeconds();
  ASSERT_GT(seconds, 0) << "VKINDEX_SOAK_SECONDS must be a positive number of seconds";
  holdMmapThreshold();
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
  const bool levelled = waitForLevelResidentMemory(
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(std::max(0.5 * seconds, kLevelDeadlineSeconds))));
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
      "soak: %.1f s (warm-up %.1f s, %s), %d threads: %llu calls (%llu on the shared Context, %llu after warm-up), "
      "%llu unsupported, %llu mismatches, %llu errors, %u validation messages; VmRSS %ld KiB after warm-up, %ld "
      "KiB at the end\n",
      elapsed, warm_up, levelled ? "resident memory levelled off" : "cut off before resident memory levelled off",
      kThreads, static_cast<unsigned long long>(tally.calls.load()),
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
