// Text for the bench's tables and headers: numbers in printf patterns, cells padded to fixed widths,
// and the date, shared by the main table, the sweep, the latency section and the cold-start mode.
#pragma once

#include <string>

namespace vkindex::bench {

// `value` formatted with a printf pattern of one double, e.g. "%.2f".
std::string formatNumber(const char* pattern, double value);

// Right-aligns `text` in `width` columns (left-aligns when width is negative); longer text stays whole.
std::string cell(const std::string& text, int width);

// The current time in UTC, formatted with a strftime pattern, e.g. "%Y-%m-%d".
std::string utcTime(const char* pattern);

}  // namespace vkindex::bench
