#include "table_text.hpp"

#include <cstdio>
#include <ctime>

namespace vkindex::bench {

std::string formatNumber(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), pattern, value);
  return text;
}

std::string cell(const std::string& text, int width) {
  const size_t columns = static_cast<size_t>(width < 0 ? -width : width);
  if (text.size() >= columns) return text;
  const std::string pad(columns - text.size(), ' ');
  return width < 0 ? text + pad : pad + text;
}

std::string utcTime(const char* pattern) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[64];
  std::strftime(text, sizeof(text), pattern, &utc);
  return text;
}

}  // namespace vkindex::bench
