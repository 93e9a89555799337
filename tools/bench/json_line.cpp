#include "json_line.hpp"

#include <cmath>

namespace vkindex::tools {

void writeJsonLine(std::ostream& out, const JsonDocument& document) {
  constexpr int kCompact = -1;          // no newlines or indentation: one document, one line
  constexpr bool kEnsureAscii = false;  // text is valid UTF-8 by then; keep it readable
  out << document.dump(kCompact, ' ', kEnsureAscii, JsonDocument::error_handler_t::replace) << '\n';
}

double jsonRounded(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

}  // namespace vkindex::tools
