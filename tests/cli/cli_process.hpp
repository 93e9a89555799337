// Runs the vkindex binary under test as a child process and collects what it printed, so the CLI
// tests see exactly what a user or a script would: exit code, stdout and stderr bytes.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace vkindex::tools::test {

struct CliRun {
  int exit_code = -1;      // the process's exit status; -1 when it did not exit normally
  bool timed_out = false;  // killed after the deadline: the CLI hung
  std::string out, err;
};

// Runs `vkindex args...` (the binary CMake built, VKINDEX_CLI_PATH) with the test's environment plus
// `env` (a value replaces an inherited one; an empty value removes it), killing it after
// `timeout_seconds`. Arguments go to exec
// as they are, so names with newlines or any bytes need no shell quoting.
CliRun runCli(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {},
              int timeout_seconds = 300);

// `text` split at '\n'; a final newline does not make an empty last line.
std::vector<std::string> lines(const std::string& text);

}  // namespace vkindex::tools::test
