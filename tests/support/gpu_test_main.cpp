// main() of the GPU test binaries: gtest's, plus two things for ctest, which runs a whole test suite per
// process (cmake/vkindex_test_suites.cmake):
// - --skipped-exit-code=N: a run with no failure but at least one skip exits N, which the registration
//   declares as SKIP_RETURN_CODE. Otherwise a skipped test would hide inside a suite that ctest lists
//   as passed; this way the suite shows as skipped and its log names the test and the reason. A failure
//   still exits 1, whatever was skipped.
// - VKINDEX_GTEST_EXCLUDE=<patterns>: gtest filter patterns (':'-separated) taken out of whatever
//   --gtest_filter selects, for runs that leave single tests out of a suite (the sanitizer run,
//   scripts/test.sh). GTEST_FILTER cannot: the registration's --gtest_filter takes precedence over it.
//   A run left with no test exits like a skip.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void excludeFromFilter(const char* patterns) {
  if (patterns == nullptr || *patterns == '\0') return;
  std::string filter = GTEST_FLAG_GET(filter);
  // gtest's syntax: POSITIVE[-NEGATIVE], both ':'-separated lists.
  filter += filter.find('-') == std::string::npos ? "-" : ":";
  filter += patterns;
  GTEST_FLAG_SET(filter, filter);
}

int skippedExitCode(int argc, char** argv) {
  constexpr const char* kOption = "--skipped-exit-code=";
  int code = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], kOption, std::strlen(kOption)) == 0) code = std::atoi(argv[i] + std::strlen(kOption));
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  excludeFromFilter(std::getenv("VKINDEX_GTEST_EXCLUDE"));
  const int skipped_exit_code = skippedExitCode(argc, argv);
  if (RUN_ALL_TESTS() != 0) return 1;
  // A suite whose every test was excluded ran nothing: a skip too, not a pass.
  const ::testing::UnitTest& run = *::testing::UnitTest::GetInstance();
  const bool skipped = run.skipped_test_count() > 0 || run.test_to_run_count() == 0;
  return skipped ? skipped_exit_code : 0;
}
