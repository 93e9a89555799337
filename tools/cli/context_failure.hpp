// What the CLI prints when it cannot reach a Vulkan device. The library's status names the failing
// call; when that means no loader, no driver or no device was found, this adds what a person at the
// terminal can do about it: which variable to check and which Debian package provides a driver.
#pragma once

#include <string>

#include "vkindex/status.hpp"

namespace vkindex::tools {

// "<command>: <what failed>\n", then "  hint: ...\n" lines when `status` says that no Vulkan loader,
// driver or device was found. Other failures come back as "<command>: <status>\n".
std::string explainContextFailure(const std::string& command, const Status& status);

}  // namespace vkindex::tools
