#include "progress_bar.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace vkindex::tune {
namespace {

constexpr size_t kBarWidth = 30;
constexpr size_t kLineWidth = 100;  // the caption is cut to keep the bar on one line

}  // namespace

ProgressBar::ProgressBar(size_t total, bool enabled)
    : total_(std::max<size_t>(total, 1)), drawing_(enabled && isatty(STDERR_FILENO) == 1) {}

void ProgressBar::show(const std::string& what) {
  if (!drawing_) return;
  const size_t filled = std::min(done_, total_) * kBarWidth / total_;
  std::string line = "[" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "] " +
                     std::to_string(std::min(done_, total_) * 100 / total_) + "% " + what;
  if (line.size() > kLineWidth) line.resize(kLineWidth);
  std::fprintf(stderr, "\r%-*s", static_cast<int>(kLineWidth), line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::clear() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(kLineWidth), "");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace vkindex::tune
