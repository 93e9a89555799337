// The vkindex CLI's subcommands. Each takes its own arguments (after the subcommand name) and returns
// the process exit code: 0 success, 1 a test failed or an operation errored, 2 a usage error.
#pragma once

#include <string>
#include <vector>

namespace vkindex::tools {

using Args = std::vector<std::string>;

int devicesCommand(const Args& args);
int onnxTestCommand(const Args& args);
int benchCommand(const Args& args);

}  // namespace vkindex::tools
