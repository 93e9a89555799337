// A one-line progress bar on stderr for long tool runs: redrawn in place when stderr is a terminal,
// silent otherwise (logs and test captures get the tool's own report lines, not a bar's redraws).
#pragma once

#include <cstddef>
#include <string>

namespace vkindex::tune {

class ProgressBar {
 public:
  // `total` steps; `enabled` false keeps it silent even on a terminal.
  ProgressBar(size_t total, bool enabled);
  // Draws the bar with `what` is being done now.
  void show(const std::string& what);
  // One step done.
  void advance() { ++done_; }
  // Erases the bar, so that a report line can be printed in its place.
  void clear();

 private:
  size_t total_;
  size_t done_ = 0;
  bool drawing_;
  bool drawn_ = false;
};

}  // namespace vkindex::tune
