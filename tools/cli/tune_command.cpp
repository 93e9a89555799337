// `vkindex tune`: measure the tuning values on a device and write a tuning profile.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "context_failure.hpp"

namespace vkindex::tools {

int runTuneCommand(const tune::TuneOptions& options) {
  Status status = tune::runTune(options, std::cout);
  if (!status.ok()) {
    std::fputs(explainContextFailure("vkindex tune", status).c_str(), stderr);
    return 1;
  }
  return 0;
}

}  // namespace vkindex::tools
