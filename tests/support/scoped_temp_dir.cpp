#include "support/scoped_temp_dir.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>  // mkdtemp (POSIX)

#include <cerrno>
#include <cstring>
#include <system_error>

namespace vkindex::test {

ScopedTempDir::ScopedTempDir(const std::string& prefix) {
  std::string pattern = (std::filesystem::path(::testing::TempDir()) / (prefix + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp " << pattern << ": " << std::strerror(errno);
    return;
  }
  path_ = pattern;
}

ScopedTempDir::~ScopedTempDir() {
  std::error_code ignored;
  if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
}

}  // namespace vkindex::test
