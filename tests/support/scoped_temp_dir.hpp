// A folder of a test's own: created empty, removed with everything in it when the test is done.
#pragma once

#include <filesystem>
#include <string>

namespace vkindex::test {

class ScopedTempDir {
 public:
  // Creates <gtest's TempDir()>/<prefix>XXXXXX (mkdtemp). On failure a test failure is added and
  // path() is empty.
  explicit ScopedTempDir(const std::string& prefix);
  ~ScopedTempDir();
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace vkindex::test
