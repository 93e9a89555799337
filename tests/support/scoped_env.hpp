// An environment variable set (or unset) for one scope: tests of what a variable changes.
#pragma once

#include <optional>
#include <string>

namespace vkindex::test {

// Sets the variable `name` to `value` (unsets it for nullopt) and restores what it was when destroyed.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace vkindex::test
